import { DEFAULT_ALERT_SETTINGS, type WearerAlertSettings } from '@wearable/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, stubServer } from '../../testing/render';
import { PersonalAlertSettingsPage } from './personal-alert-settings-page';
import { renderPersonal, signInPersonal } from './personal-test-utils';

function stored(patch: Partial<WearerAlertSettings['settings']> = {}): WearerAlertSettings {
  return {
    uid: 'w1',
    name: '佐藤 健太',
    clientId: 'c1',
    groupId: 'g1',
    groupName: '第一現場',
    age: 38,
    maxHeartRate: 181,
    effectiveHeartRateUpper: 181,
    settings: { ...structuredClone(DEFAULT_ALERT_SETTINGS), ...patch },
    updatedAt: null,
  };
}

function server(patchStatus = 200) {
  let current = stored();
  return stubServer((url, init) => {
    if (url.startsWith('/v2/user/alertSettings/list')) return json(200, { settings: [current] });
    if (url === '/v2/client/c1/user/alertSetting' && init?.method === 'PATCH') {
      if (patchStatus !== 200) return json(patchStatus, { code: 'FORBIDDEN', message: 'no' });
      const body = JSON.parse(typeof init.body === 'string' ? init.body : '{}') as Partial<
        WearerAlertSettings['settings']
      >;
      current = {
        ...current,
        settings: { ...current.settings, ...body },
        updatedAt: new Date().toISOString(),
      };
      return json(200, { settings: [current] });
    }
    return json(404, {});
  });
}

const input = (name: string) => screen.getByLabelText(name);
const patches = (calls: ReturnType<typeof server>) => calls.filter((c) => c.method === 'PATCH');

describe('/user/settings/alert', () => {
  beforeEach(() => signInPersonal('PERSONAL'));

  it('shows the maximum heart rate from the age and the stored values', async () => {
    server();
    await renderPersonal(<PersonalAlertSettingsPage />);
    expect((await screen.findByTestId('max-heart-rate')).textContent).toContain('38歳');
    expect(screen.getByTestId('max-heart-rate').textContent).toContain('181 bpm');
    expect((input('下限（bpm）') as HTMLInputElement).value).toBe('40');
    expect((input('上限（bpm）') as HTMLInputElement).placeholder).toBe('181');
  });

  it('bad values: the message next to the field, nothing sent', async () => {
    const calls = server();
    await renderPersonal(<PersonalAlertSettingsPage />);
    await screen.findByTestId('alert-settings-form');
    fireEvent.change(input('下限（bpm）'), { target: { value: '30' } });
    fireEvent.change(input('上限（bpm）'), { target: { value: '25' } });
    fireEvent.change(input('火曜日の終了時刻'), { target: { value: '' } });
    // Pressed as a user does: the button takes the focus first.
    screen.getByTestId('save-settings').focus();
    fireEvent.click(screen.getByTestId('save-settings'));
    const lower = input('下限（bpm）');
    expect(lower.getAttribute('aria-invalid')).toBe('true');
    const describedBy = lower.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy.split(' ')[1] ?? '')?.textContent).toBe(
      '40〜220 の整数で入力してください。',
    );
    expect(screen.getAllByTestId('field-error').map((e) => e.textContent)).toContain(
      '時刻を 00:00〜23:59 の形式で入力してください。',
    );
    expect(patches(calls)).toEqual([]);
    // The first field to fix has the keyboard, once the render that marks it invalid is committed.
    await waitFor(() => expect(document.activeElement).toBe(lower));

    fireEvent.change(input('下限（bpm）'), { target: { value: '120' } });
    fireEvent.change(input('上限（bpm）'), { target: { value: '110' } });
    fireEvent.change(input('火曜日の終了時刻'), { target: { value: '23:59' } });
    screen.getByTestId('save-settings').focus();
    fireEvent.click(screen.getByTestId('save-settings'));
    await waitFor(() =>
      expect(screen.getAllByTestId('field-error').map((e) => e.textContent)).toEqual([
        '上限は下限より大きくしてください。',
      ]),
    );
    await waitFor(() => expect(document.activeElement).toBe(input('上限（bpm）')));
    expect(patches(calls)).toEqual([]);
  });

  it('the business preset, a type switched off and new bounds are sent, then a success toast', async () => {
    const calls = server();
    await renderPersonal(<PersonalAlertSettingsPage />);
    await screen.findByTestId('alert-settings-form');
    fireEvent.change(input('下限（bpm）'), { target: { value: '50' } });
    fireEvent.change(input('上限（bpm）'), { target: { value: '150' } });
    fireEvent.click(screen.getByTestId('type-NON_WEARING'));
    fireEvent.click(screen.getByTestId('preset-business'));
    expect(screen.getByTestId('preset-business').getAttribute('aria-pressed')).toBe('true');
    expect(
      within(screen.getByTestId('schedule-saturday')).getByRole<HTMLInputElement>('checkbox')
        .checked,
    ).toBe(false);
    fireEvent.click(screen.getByTestId('save-settings'));
    await waitFor(() => expect(patches(calls)).toHaveLength(1));
    const body = patches(calls)[0]?.body;
    expect(body).toMatchObject({
      uid: 'w1',
      heartRateLower: 50,
      heartRateUpper: 150,
      enabled: { NON_WEARING: false, SOS_CALL: true },
    });
    expect((body as { schedule: unknown }).schedule).toMatchObject({
      monday: { enabled: true, startTime: '09:00', endTime: '18:00' },
      sunday: { enabled: false },
    });
    expect(await screen.findByText('アラート設定を保存しました。')).toBeTruthy();
  });

  it('a server that refuses this user turns the form read-only with the reason, and a failure toast', async () => {
    server(403);
    await renderPersonal(<PersonalAlertSettingsPage />);
    await screen.findByTestId('alert-settings-form');
    fireEvent.click(screen.getByTestId('save-settings'));
    expect((await screen.findByTestId('settings-readonly')).textContent).toContain(
      '変更できません',
    );
    expect(screen.queryByTestId('save-settings')).toBeNull();
    expect(await screen.findByText('アラート設定を保存できませんでした。')).toBeTruthy();
  });

  it('PERSONAL_SELF edits their own settings; a load failure shows the error state', async () => {
    signInPersonal('PERSONAL_SELF');
    stubServer(() => json(500, {}));
    await renderPersonal(<PersonalAlertSettingsPage />);
    expect((await screen.findByTestId('page-error')).textContent).toContain(
      'データを読み込めませんでした',
    );
    expect(screen.queryByTestId('switch-wearer')).toBeNull();
  });
});
