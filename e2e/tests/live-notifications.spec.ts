import { signIn, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';
import { pressSos } from './live-gateway.js';

const POPUP = /\d+件のアラートがあります/;

test('staff get the alert popup "<count>件のアラートがあります" when unconfirmed alerts exist', async ({
  page,
  request,
}) => {
  await pressSos(request, 7);
  await signIn(page, request, 'org-owner@example.com');
  await page.goto('/devices');
  await waitForPage(page);
  await expect(page.getByTestId('alert-popup')).toContainText(POPUP);
  // The memo of the spec: the count and when it was shown, kept so a repeat within 5 minutes stays quiet.
  const memo = await page.evaluate(
    () => JSON.parse(localStorage.getItem('alertMemo') ?? 'null') as { count: number } | null,
  );
  expect(memo?.count).toBeGreaterThan(0);
});

test('personal users get no alert popup and the console does not poll alerts for them', async ({
  page,
  request,
}) => {
  await pressSos(request, 8);
  const polls: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('notConfirmed')) polls.push(req.url());
  });
  await signIn(page, request, 'personal-self@example.com');
  await page.goto('/user/record');
  await waitForPage(page);
  // A staff console polls at once on load; give this one the same chance, then look.
  await page.waitForLoadState('networkidle');
  await expect(page.getByText(POPUP)).toHaveCount(0);
  expect(polls).toEqual([]);
});

test('the demo shows no alert popup (notifications are off in demo mode)', async ({ page }) => {
  const polls: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('notConfirmed')) polls.push(req.url());
  });
  await page.goto('/demo/devices');
  await waitForPage(page);
  await page.waitForLoadState('networkidle');
  await expect(page.getByText(POPUP)).toHaveCount(0);
  expect(polls).toEqual([]);
});
