import { BUSINESS_SCHEDULE, DEFAULT_SCHEDULE } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import en from '../../../public/locales/en/staff-settings.json';
import ja from '../../../public/locales/ja/staff-settings.json';
import { checkDraft, draftsOf, moveStep, newDraft, recipientOf, sameAsStored } from './recipients';

const stored = {
  groupId: 'g1',
  groupName: 'G',
  clientId: 'c1',
  organizationKind: 'OTHER' as const,
  publicHolidaysAsWeekdays: false,
  recipients: [
    {
      userId: 'u2',
      userName: 'Sato',
      channel: 'PHONE_CALL' as const,
      alertTypes: ['SOS_CALL' as const],
      schedule: BUSINESS_SCHEDULE,
      order: 2,
    },
    {
      phoneNumber: '+819012345678',
      channel: 'SMS' as const,
      alertTypes: ['DETECT_FALL_DOWN' as const, 'SOS_CALL' as const],
      schedule: DEFAULT_SCHEDULE,
      order: 1,
    },
  ],
};

describe('notice recipients', () => {
  it("a new recipient starts with the alert types of the organisation's kind", () => {
    expect(newDraft(1).alertTypes).toEqual(['SOS_CALL', 'DETECT_FALL_DOWN']);
    // No sleep alerts by SMS to a construction site; its heat alerts instead.
    expect(newDraft(1, 'CONSTRUCTION_SITE').alertTypes).not.toContain('AWAKENING_ALERT');
    expect(newDraft(1, 'CONSTRUCTION_SITE').alertTypes).toContain('HEATSTROKE');
    expect(newDraft(1, 'CARE_HOME').alertTypes).toContain('AWAKENING_ALERT');
    expect(newDraft(1, 'CARE_HOME').alertTypes).not.toContain('HEATSTROKE');
  });

  it('drafts come in escalation order and go back to the contract unchanged', () => {
    const drafts = draftsOf(stored);
    expect(drafts.map((d) => d.order)).toEqual([1, 2]);
    const { userName: _userName, ...staffRecipient } = stored.recipients[0]!;
    expect(drafts.map(recipientOf)).toEqual([stored.recipients[1], staffRecipient]);
    expect(sameAsStored(drafts, stored)).toBe(true);
  });

  it('moving a step re-sorts, stays within 1..10 and counts as a change', () => {
    const drafts = draftsOf(stored);
    const moved = moveStep(drafts, drafts[1]!.key, -1);
    expect(moved.map((d) => d.order)).toEqual([1, 1]);
    expect(moveStep(moved, drafts[1]!.key, -1).find((d) => d.key === drafts[1]!.key)!.order).toBe(
      1,
    );
    const later = moveStep(drafts, drafts[0]!.key, 1);
    expect(later.map((d) => d.phoneNumber)).toEqual(['', '+819012345678']);
    expect(sameAsStored(later, stored)).toBe(false);
  });

  it('a draft is checked with the domain schema, by field', () => {
    expect(checkDraft(newDraft(1))).toEqual({ phoneNumber: 'notice.errors.phoneRequired' });
    expect(checkDraft({ ...newDraft(1), phoneNumber: '090-1234' })).toEqual({
      phoneNumber: 'notice.errors.phone',
    });
    expect(checkDraft({ ...newDraft(1), phoneNumber: '+819012345678', alertTypes: [] })).toEqual({
      alertTypes: 'notice.errors.alertTypes',
    });
    expect(checkDraft({ ...newDraft(1), kind: 'staff' })).toEqual({
      userId: 'notice.errors.staffRequired',
    });
    expect(checkDraft({ ...newDraft(1), phoneNumber: ' +819012345678 ' })).toEqual({});
  });
});

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) =>
    keys(child, prefix ? `${prefix}.${key}` : key),
  );
}
const base = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');

describe('staff-settings locale files', () => {
  it('ja and en have the same keys (plural forms by their base key) and no empty value', () => {
    expect([...new Set(keys(ja).map(base))].sort()).toEqual(
      [...new Set(keys(en).map(base))].sort(),
    );
    const values = (file: unknown) =>
      keys(file).map((k) =>
        k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], file),
      );
    for (const v of [...values(ja), ...values(en)]) expect(String(v).trim()).not.toBe('');
  });
});
