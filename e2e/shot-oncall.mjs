import { chromium } from '@playwright/test';
const base = 'http://127.0.0.1:3905';
const api = async (path, init = {}, token) => {
  const res = await fetch(base + path, { ...init, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path} ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
};
const s = await api('/v2/auth/signIn', { method: 'POST', body: JSON.stringify({ email: 'org-owner@example.com', password: 'demo-pass-2026' }) });
const token = s.accessToken;
const user = await api('/v2/user', {}, token);
const group = await api('/v2/group', { method: 'POST', body: JSON.stringify({ clientId: 'demo-org', name: '2階 東' }) }, token);
const view = await api(`/v2/group/${group.id}/onCall`, {}, token);
const people = view.candidates.slice(0, 4).map((c) => c.userId);
await api(`/v2/group/${group.id}/onCall/rota`, { method: 'PUT', body: JSON.stringify({ rota: { kind: 'daily', startsOn: '2026-12-01', handoverTime: '09:00', members: people.slice(0, 3), holidayMembers: [people[3] ?? people[0]] } }) }, token);
const h = (x) => new Date(Date.now() + x * 3600e3).toISOString();
await api(`/v2/group/${group.id}/onCall/overrides`, { method: 'POST', body: JSON.stringify({ userId: people[1], startsAt: h(30), endsAt: h(40), note: '通院のため交代' }) }, token);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
for (const lng of ['ja', 'en']) for (const width of [1280, 360]) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.goto(base + '/readyz');
  await page.evaluate(([t, r, u, l]) => { localStorage.setItem('accessToken', t); localStorage.setItem('refreshToken', r); localStorage.setItem('loginTime', String(Date.now())); localStorage.setItem('refreshExpiresIn', '86400'); localStorage.setItem('userInfo', u); localStorage.setItem('i18nextLng', l); }, [token, s.refreshToken, JSON.stringify(user), lng]);
  await page.goto(`${base}/groups/${group.id}/alert-notice-settings`);
  await page.getByTestId('on-call-now').waitFor();
  await page.waitForTimeout(800);
  await page.getByTestId('on-call').screenshot({ path: `/tmp/shot/oncall-${lng}-${width}.png` });
  await page.getByTestId('on-call-rota-edit').click();
  await page.getByTestId('on-call-rota-form').screenshot({ path: `/tmp/shot/rota-${lng}-${width}.png` });
  await page.getByTestId('on-call-kind-shifts').check();
  await page.getByTestId('on-call-rota-form').screenshot({ path: `/tmp/shot/shifts-${lng}-${width}.png` });
  await page.close();
}
await browser.close();
await api(`/v2/group/${group.id}`, { method: 'DELETE' }, token);
console.log('ok');
