import { ALERT_POLICY_DEFAULTS, type AlertPolicyResponse, type UserInfo } from '@wearable/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import staffEn from '../../../../public/locales/en/staff-settings.json';
import staffJa from '../../../../public/locales/ja/staff-settings.json';
import { session } from '../../../lib/session';
import { json, renderWithApp, stubServer } from '../../../testing/render';
import { AlertPolicyPanel } from './alert-policy-panel';

vi.setConfig({ testTimeout: 60_000 });
const SLOW = { timeout: 20_000 };
const URL = '/v2/organization/org-1/alertPolicy';

const user = (role: UserInfo['role']): UserInfo => ({
  name: 'わたし',
  devices: [],
  gatewayId: null,
  linkedUids: [],
  mail: 'me@example.com',
  mailVerified: true,
  role,
  uid: `uid-${role}`,
  agreedTermsOfUse: true,
  mediromOrganizationId: 'org-1',
});
const stored = (policy: Partial<AlertPolicyResponse['policy']> = {}): AlertPolicyResponse => ({
  organizationId: 'org-1',
  policy: { ...ALERT_POLICY_DEFAULTS, ...policy },
  defaults: { ...ALERT_POLICY_DEFAULTS },
  updatedAt: '2026-11-20T03:00:00.000Z',
  updatedBy: { uid: 'u-1', name: '佐藤 花子' },
});

const realFetch = globalThis.fetch;
beforeEach(() => localStorage.clear());
afterEach(() => {
  globalThis.fetch = realFetch;
  session.end();
});

function open(role: UserInfo['role'], lng: 'ja' | 'en' = 'ja') {
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify(user(role)));
  session.reload();
  return renderWithApp(<AlertPolicyPanel organizationId="org-1" />, {
    lng,
    namespaces: [{ ns: 'staff-settings', ja: staffJa, en: staffEn }],
  });
}
const value = (key: string) => screen.getByTestId(`alert-policy-value-${key}`).textContent;

describe('the notification timing and limits section', () => {
  it('shows every value with its unit and what it does; a changed value names its default; staff only read', async () => {
    stubServer((url) => (url === URL ? json(200, stored({ smsPerHour: 4 })) : json(404, {})));
    await open('ORGANIZATION_GENERAL');
    const section = await screen.findByRole('region', { name: staffJa.policy.title }, SLOW);
    await within(section).findByTestId('alert-policy-value-recoveryMinutes', undefined, SLOW);
    expect(value('recoveryMinutes')).toBe('10分');
    expect(value('groupWindowMinutes')).toBe('2分');
    expect(value('repeatIntervalMinutes')).toBe('30分');
    expect(value('smsPerHour')).toBe('4通');
    expect(value('callsPerHour')).toBe('2回');
    expect(value('siteHeatLeaveMargin')).toBe('1℃');
    expect(within(section).getByText('（初期値 6通）')).toBeTruthy();
    expect(within(section).getByText(staffJa.policy.fields.recoveryMinutes.help)).toBeTruthy();
    expect(within(section).getByTestId('alert-policy-updated').textContent).toContain('佐藤 花子');
    expect(within(section).getByTestId('alert-policy-read-only').textContent).toBe(
      staffJa.policy.readOnly,
    );
    expect(within(section).queryByTestId('alert-policy-edit')).toBeNull();
  });

  it('an owner changes a value: only the changed setting is sent, and the section shows what the server stored', async () => {
    let current = stored();
    const calls = stubServer((url, init) => {
      if (url !== URL) return json(404, {});
      if (init?.method === 'PATCH') {
        const patch = JSON.parse(init.body as string) as Partial<AlertPolicyResponse['policy']>;
        current = stored({ ...current.policy, ...patch });
        return json(200, current);
      }
      return json(200, current);
    });
    await open('ORGANIZATION_OWNER', 'en');
    fireEvent.click(await screen.findByTestId('alert-policy-edit', undefined, SLOW));
    const input = screen.getByLabelText(staffEn.policy.fields.repeatIntervalMinutes.label);
    expect((input as HTMLInputElement).value).toBe('30');
    fireEvent.change(input, { target: { value: '45' } });
    fireEvent.click(screen.getByRole('button', { name: staffEn.policy.save }));
    await waitFor(() => expect(value('repeatIntervalMinutes')).toBe('45 min'), SLOW);
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { repeatIntervalMinutes: 45 },
    ]);
    expect(screen.getByText('(default 30 min)')).toBeTruthy();
    // The form closed; the keyboard is back on the button that opened it.
    expect(screen.queryByTestId('alert-policy-form')).toBeNull();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByTestId('alert-policy-edit')),
    );
  });

  it('a value out of range is refused on its field before sending; the server’s refusal shows on its field too', async () => {
    const calls = stubServer((url, init) => {
      if (url !== URL) return json(404, {});
      if (init?.method === 'PATCH')
        return json(400, {
          statusCode: 400,
          error: 'Bad Request',
          code: 'VALIDATION_FAILED',
          message: 'body.callsPerHour: callsPerHour must be at most 20',
          issues: [{ path: 'body.callsPerHour', message: 'callsPerHour must be at most 20' }],
        });
      return json(200, stored());
    });
    await open('ORGANIZATION_OWNER');
    fireEvent.click(await screen.findByTestId('alert-policy-edit', undefined, SLOW));
    const sms = screen.getByLabelText(staffJa.policy.fields.smsPerHour.label);
    fireEvent.change(sms, { target: { value: '10000' } });
    const recovery = screen.getByLabelText(staffJa.policy.fields.recoveryMinutes.label);
    fireEvent.change(recovery, { target: { value: '' } });
    // Pressed as a user does: the button takes the focus (the form opened with it on its first field).
    screen.getByRole('button', { name: staffJa.policy.save }).focus();
    fireEvent.click(screen.getByRole('button', { name: staffJa.policy.save }));
    expect(screen.getByTestId('alert-policy-error-smsPerHour').textContent).toBe(
      '60以下にしてください',
    );
    expect(sms.getAttribute('aria-invalid')).toBe('true');
    expect(sms.getAttribute('aria-describedby')).toContain(
      screen.getByTestId('alert-policy-error-smsPerHour').id,
    );
    expect(screen.getByTestId('alert-policy-error-recoveryMinutes').textContent).toBe(
      staffJa.policy.errors.required,
    );
    await waitFor(() => expect(document.activeElement).toBe(recovery));
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);

    // Within the form's bounds but refused by the server: its message on the field, nothing else changed.
    fireEvent.change(sms, { target: { value: '6' } });
    fireEvent.change(recovery, { target: { value: '10' } });
    fireEvent.change(screen.getByLabelText(staffJa.policy.fields.callsPerHour.label), {
      target: { value: '3' },
    });
    fireEvent.click(screen.getByRole('button', { name: staffJa.policy.save }));
    expect(
      (await screen.findByTestId('alert-policy-error-callsPerHour', undefined, SLOW)).textContent,
    ).toBe('callsPerHour must be at most 20');
    expect(screen.queryByTestId('alert-policy-error-smsPerHour')).toBeNull();
    expect(screen.getByTestId('alert-policy-form')).toBeTruthy();
  });

  it('man-down is off by default; an owner turns it on with 5 minutes, and 61 is refused on its field', async () => {
    let current = stored();
    const calls = stubServer((url, init) => {
      if (url !== URL) return json(404, {});
      if (init?.method === 'PATCH') {
        const patch = JSON.parse(init.body as string) as Partial<AlertPolicyResponse['policy']>;
        current = stored({ ...current.policy, ...patch });
        return json(200, current);
      }
      return json(200, current);
    });
    await open('ORGANIZATION_OWNER', 'en');
    const section = await screen.findByRole('region', { name: staffEn.policy.title }, SLOW);
    await within(section).findByTestId('alert-policy-value-manDownMinutes', undefined, SLOW);
    expect(value('manDownMinutes')).toBe('Off');
    expect(within(section).getByText(staffEn.policy.sections.manDown)).toBeTruthy();
    expect(within(section).getByText(staffEn.policy.fields.manDownMinutes.help)).toBeTruthy();

    fireEvent.click(screen.getByTestId('alert-policy-edit'));
    const input = screen.getByLabelText(staffEn.policy.fields.manDownMinutes.label);
    expect((input as HTMLInputElement).value).toBe('0');
    expect(input.getAttribute('max')).toBe('60');
    fireEvent.change(input, { target: { value: '61' } });
    fireEvent.click(screen.getByRole('button', { name: staffEn.policy.save }));
    expect(screen.getByTestId('alert-policy-error-manDownMinutes').textContent).toBe(
      'Must be at most 60',
    );
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);

    fireEvent.change(input, { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: staffEn.policy.save }));
    await waitFor(() => expect(value('manDownMinutes')).toBe('5 min'), SLOW);
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { manDownMinutes: 5 },
    ]);
    expect(screen.getByText('(default Off)')).toBeTruthy();
  });

  it('man-down reads オフ in Japanese and its minutes when on', async () => {
    stubServer((url) => (url === URL ? json(200, stored({ manDownMinutes: 10 })) : json(404, {})));
    await open('ORGANIZATION_GENERAL');
    await screen.findByTestId('alert-policy-value-manDownMinutes', undefined, SLOW);
    expect(value('manDownMinutes')).toBe('10分');
    expect(screen.getByText('（初期値 オフ）')).toBeTruthy();
  });
});
