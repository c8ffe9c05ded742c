import type { AlertView, FamilyNoticesResponse } from '@wearable/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { FamilyAlertBanner } from '../../features/alerts';
import { alert } from '../../features/alerts/alerts-test-utils';
import { FamilyLineLink, FamilyNoticeSettings } from '../../features/family-notices';
import { json, stubServer } from '../../testing/render';
import { renderPersonal, signInPersonal } from './personal-test-utils';

const sos = (patch: Partial<AlertView> = {}) =>
  alert('a1', {
    type: 'SOS_CALL',
    level: 'EMERGENCY',
    openedAt: new Date(Date.now() - 60_000).toISOString(),
    wearer: { uid: 'w1', name: '佐藤 健太' },
    ...patch,
  });

function alertServer(open: AlertView[], closed: AlertView[] = []) {
  return stubServer((url) => {
    if (url.startsWith('/v2/alert/list') && url.includes('status=OPEN'))
      return json(200, { alerts: open, total: open.length, page: 1, pageSize: 100 });
    if (url.startsWith('/v2/alert/list'))
      return json(200, { alerts: closed, total: closed.length, page: 1, pageSize: 100 });
    return json(404, {});
  });
}

describe('the family alert banner', () => {
  beforeEach(() => {
    signInPersonal('PERSONAL');
    sessionStorage.clear();
  });

  it('names an open SOS of a watched wearer, what and when, as an alert in a named region', async () => {
    alertServer([sos()]);
    await renderPersonal(<FamilyAlertBanner role="PERSONAL" />);
    const item = await screen.findByRole('alert');
    expect(item.textContent).toContain('佐藤 健太さん: SOS発信');
    expect(item.textContent).toContain('スタッフに知らせています');
    expect(screen.getByRole('region', { name: '見守り中の方のアラート' })).toBeTruthy();
    expect(within(item).getByRole('link', { name: /記録を見る/ })).toBeTruthy();
    // Nothing to close while nobody has confirmed it.
    expect(within(item).queryByRole('button')).toBeNull();
  });

  it('says a confirmed one is being handled and lets it be closed', async () => {
    const confirmed = sos({
      status: 'CLOSED',
      closeReason: 'confirmed',
      confirmedAt: new Date().toISOString(),
    });
    alertServer([], [confirmed]);
    await renderPersonal(<FamilyAlertBanner role="PERSONAL" />);
    const item = await screen.findByRole('alert');
    expect(item.textContent).toContain('スタッフが確認し、対応しています');
    fireEvent.click(within(item).getByRole('button', { name: /佐藤 健太さんの対応中/ }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('shows nothing to staff', async () => {
    const calls = alertServer([sos()]);
    await renderPersonal(<FamilyAlertBanner role="ORGANIZATION_OWNER" />);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls).toEqual([]);
  });
});

describe('tell me by message', () => {
  beforeEach(() => signInPersonal('PERSONAL'));

  function noticeServer(answer: FamilyNoticesResponse) {
    let current = answer;
    return stubServer((url, init) => {
      if (url === '/v3/user/familyNotices') return json(200, current);
      if (url === '/v3/user/familyNotices/w1' && init?.method === 'PUT') {
        const body = JSON.parse(typeof init.body === 'string' ? init.body : '{}') as {
          channel: 'SMS' | 'EMAIL' | null;
        };
        current = {
          ...current,
          wearers: [{ uid: 'w1', name: '佐藤 健太', channel: body.channel }],
        };
        return json(200, current.wearers[0]);
      }
      return json(404, {});
    });
  }

  it('offers only the channels the account has, and saves a choice at once', async () => {
    const calls = noticeServer({
      wearers: [{ uid: 'w1', name: '佐藤 健太', channel: null }],
      phoneNumber: null,
      email: 'p@example.com',
    });
    await renderPersonal(<FamilyNoticeSettings uid="w1" name="佐藤 健太" />);
    const off = await screen.findByRole<HTMLInputElement>('radio', { name: '知らせない' });
    expect(off.checked).toBe(true);
    const sms = screen.getByRole<HTMLInputElement>('radio', { name: /電話番号が未登録/ });
    expect(sms.disabled).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: 'メール（p@example.com）' }));
    await waitFor(() =>
      expect(screen.getByTestId('family-notice-status').textContent).toBe('保存しました。'),
    );
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([
      { url: '/v3/user/familyNotices/w1', method: 'PUT', body: { channel: 'EMAIL' } },
    ]);
  });

  it('offers LINE only where the organisation set it up, and only once linked', async () => {
    noticeServer({
      wearers: [{ uid: 'w1', name: '佐藤 健太', channel: null }],
      phoneNumber: null,
      email: null,
    });
    const first = await renderPersonal(<FamilyNoticeSettings uid="w1" name="佐藤 健太" />);
    await screen.findByRole('radio', { name: '知らせない' });
    expect(screen.queryByRole('radio', { name: /LINE/ })).toBeNull();
    first.unmount();

    noticeServer({
      wearers: [{ uid: 'w1', name: '佐藤 健太', channel: null }],
      phoneNumber: null,
      email: null,
      line: { available: true, linked: false },
    });
    const second = await renderPersonal(<FamilyNoticeSettings uid="w1" name="佐藤 健太" />);
    const notLinked = await screen.findByRole<HTMLInputElement>('radio', {
      name: 'LINE（まだ連携していません）',
    });
    expect(notLinked.disabled).toBe(true);
    second.unmount();

    const calls = noticeServer({
      wearers: [{ uid: 'w1', name: '佐藤 健太', channel: null }],
      phoneNumber: null,
      email: null,
      line: { available: true, linked: true },
    });
    await renderPersonal(<FamilyNoticeSettings uid="w1" name="佐藤 健太" />);
    fireEvent.click(await screen.findByRole('radio', { name: /LINE（連携済み/ }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'PUT')).toEqual([
        { url: '/v3/user/familyNotices/w1', method: 'PUT', body: { channel: 'LINE' } },
      ]),
    );
  });
});

describe('link LINE on /user/info', () => {
  beforeEach(() => signInPersonal('PERSONAL'));

  it('gives a one-time code to send to the official account', async () => {
    const calls = stubServer((url, init) => {
      if (url === '/v3/user/familyNotices')
        return json(200, {
          wearers: [{ uid: 'w1', name: '佐藤 健太', channel: null }],
          phoneNumber: null,
          email: null,
          line: { available: true, linked: false },
        });
      if (url === '/v3/user/familyNotices/lineCode' && init?.method === 'POST')
        return json(200, { code: 'ABCD2345', expiresAt: new Date().toISOString() });
      return json(404, {});
    });
    await renderPersonal(<FamilyLineLink />);
    expect((await screen.findByTestId('family-line-state')).textContent).toBe(
      'まだ LINE と連携していません。',
    );
    fireEvent.click(screen.getByRole('button', { name: '連携コードを発行' }));
    expect((await screen.findByTestId('family-line-code-value')).textContent).toContain('ABCD2345');
    expect(calls.some((c) => c.url === '/v3/user/familyNotices/lineCode')).toBe(true);
  });
});
