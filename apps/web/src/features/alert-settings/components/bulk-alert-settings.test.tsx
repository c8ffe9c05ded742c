import { DEFAULT_ALERT_SETTINGS, type WearerAlertSettings } from '@wearable/domain';
import { buildUserInfo } from '@wearable/domain/testing';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import recordsEn from '../../../../public/locales/en/records.json';
import staffEn from '../../../../public/locales/en/staff-settings.json';
import recordsJa from '../../../../public/locales/ja/records.json';
import staffJa from '../../../../public/locales/ja/staff-settings.json';
import { session } from '../../../lib/session';
import { json, renderWithApp, stubServer } from '../../../testing/render';
import { BulkAlertSettings } from './bulk-alert-settings';

const wearer = (uid: string, name: string): WearerAlertSettings => ({
  uid,
  name,
  clientId: 'org-1',
  groupId: null,
  groupName: null,
  age: 40,
  maxHeartRate: 180,
  effectiveHeartRateUpper: 180,
  settings: structuredClone(DEFAULT_ALERT_SETTINGS),
  updatedAt: null,
});
const ROWS = [wearer('w1', '佐藤 健太'), wearer('w2', '鈴木 花子')];
const BULK = '/v2/client/org-1/users/alertSettings/bulk';

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify(buildUserInfo({ role: 'ORGANIZATION_OWNER' })));
  session.reload();
});

/** Pressed as a user does: the button takes the focus first. */
function press(testId: string) {
  const button = screen.getByTestId(testId);
  button.focus();
  fireEvent.click(button);
}
const focused = (testId: string) =>
  waitFor(() => expect(document.activeElement).toBe(screen.getByTestId(testId)));

describe('bulk alert settings', () => {
  it('focus follows the form: the part to choose, the field to fix, the preview, then back to the preview button', async () => {
    const calls = stubServer((url, init) => {
      if (url.startsWith('/v2/user/alertSettings/list')) return json(200, { settings: ROWS });
      if (url === `${BULK}/preview`)
        return json(200, { changed: 2, unchanged: 0, changedUids: ['w1', 'w2'] });
      if (url === BULK && init?.method === 'PATCH') return json(200, { settings: ROWS });
      return json(404, {});
    });
    await renderWithApp(
      <BulkAlertSettings scope={{ clientId: 'org-1' }} typeLabel={(type) => type} />,
      {
        namespaces: [
          { ns: 'staff-settings', ja: staffJa, en: staffEn },
          { ns: 'records', ja: recordsJa, en: recordsEn },
        ],
      },
    );
    await screen.findByTestId('bulk-preview-submit', undefined, { timeout: 5_000 });

    // Nothing chosen: the first part's box, marked invalid by the render the submit causes.
    press('bulk-preview-submit');
    await focused('bulk-part-heartRate');
    expect(screen.getByTestId('bulk-part-heartRate').getAttribute('aria-invalid')).toBe('true');

    // A lower bound out of range: that field.
    fireEvent.click(screen.getByTestId('bulk-part-heartRate'));
    fireEvent.change(screen.getByTestId('bulk-heartRateLower'), { target: { value: '30' } });
    press('bulk-preview-submit');
    await focused('bulk-heartRateLower');

    // A valid change: the server's preview, which appears only once it has answered.
    fireEvent.change(screen.getByTestId('bulk-heartRateLower'), { target: { value: '50' } });
    press('bulk-preview-submit');
    await focused('bulk-preview');
    expect(screen.getByTestId('bulk-preview-count').textContent).toContain('2');

    // Applied: the preview (and its button, which had the focus) goes; the keyboard is back on the preview button.
    press('bulk-apply');
    await waitFor(() => expect(screen.queryByTestId('bulk-preview')).toBeNull());
    await focused('bulk-preview-submit');
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { uids: ['w1', 'w2'], settings: { heartRateLower: 50, heartRateUpper: null } },
    ]);
  });
});
