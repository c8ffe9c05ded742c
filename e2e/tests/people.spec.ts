import { readFileSync } from 'node:fs';
import { openWith } from '../support/actions.js';
import { auditView, LANGUAGES, useLanguage } from '../support/a11y.js';
import { signInByApi } from '../support/api.js';
import { roleCase } from '../support/roles.js';
import { signIn, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';

test.use({ viewport: { width: 360, height: 740 } });

const TEXT = {
  ja: {
    remove: '削除する',
    erase: '削除して記録を消去する',
    erased: (name: string) => `${name} さんの記録を消去しました。`,
  },
  en: {
    remove: 'Remove',
    erase: 'Remove and erase records',
    erased: (name: string) => `The records of ${name} were erased.`,
  },
} as const;

test('/members: an owner adds a wearer (bad input named first), renames and moves them, then removes them, at 360 px', async ({
  page,
  request,
}) => {
  const name = `E2E利用者 ${Date.now()}`;
  await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
  await page.goto('/members');
  await waitForPage(page);

  const dialog = page.getByTestId('wearer-dialog');
  await openWith(page.getByTestId('wearer-add'), dialog);
  // Nothing filled in: the name and the birth date are named, nothing is sent.
  await dialog.getByTestId('wearer-submit').click();
  await expect(dialog.getByTestId('wearer-name')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByTestId('wearer-birth-date')).toHaveAttribute('aria-invalid', 'true');

  await dialog.getByTestId('wearer-name').fill(name);
  await dialog.getByTestId('wearer-birth-date').fill('1960-05-01');
  await dialog.getByTestId('wearer-group').selectOption('demo-group-1');
  await dialog.getByTestId('wearer-submit').click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('people-row').filter({ hasText: name });
  await expect(row).toContainText('第一現場');

  await row.getByTestId('wearer-edit').click();
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('wearer-name').fill(`${name} 改`);
  await dialog.getByTestId('wearer-group').selectOption('demo-group-2');
  await dialog.getByTestId('wearer-submit').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('people-row').filter({ hasText: `${name} 改` })).toContainText(
    '第二現場',
  );
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  await page
    .getByTestId('people-row')
    .filter({ hasText: `${name} 改` })
    .getByTestId('wearer-remove')
    .click();
  await page.getByTestId('remove-wearer-confirm').click();
  await expect(page.getByTestId('remove-wearer-dialog')).toBeHidden();
  await expect(page.getByTestId('people-row').filter({ hasText: name })).toHaveCount(0);
  // Gone on the server too, not only from the page.
  await page.reload();
  await waitForPage(page);
  await expect(page.getByTestId('people-row').first()).toBeVisible();
  await expect(page.getByTestId('people-row').filter({ hasText: name })).toHaveCount(0);
});

for (const lng of LANGUAGES) {
  test(`/members: an owner exports a wearer's records as a ZIP, then removes them with their records erased (${lng}, 360 px, axe)`, async ({
    page,
    request,
  }) => {
    const owner = roleCase('ORGANIZATION_OWNER').email;
    const { accessToken } = await signInByApi(request, owner);
    const headers = { authorization: `Bearer ${accessToken}` };
    const name = `開示 ${lng} ${Date.now()}`;
    const created = await request.post('/v2/user/wearer', {
      headers,
      data: { clientId: 'demo-org', name, birthDate: '1950-02-03', groupId: 'demo-group-1' },
    });
    expect(created.status(), await created.text()).toBe(201);
    const uid = ((await created.json()) as { uid: string }).uid;

    await signIn(page, request, owner);
    await useLanguage(page, lng);
    await page.goto('/members');
    await waitForPage(page);
    const row = page.getByTestId('people-row').filter({ hasText: name });
    await expect(row).toBeVisible();

    // The whole file, saved under the server's name: a ZIP.
    const saved = page.waitForEvent('download');
    await row.getByTestId('wearer-export').click();
    const download = await saved;
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^person-${uid}-\\d{4}-\\d{2}-\\d{2}\\.zip$`),
    );
    const bytes = readFileSync(await download.path());
    expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));

    const dialog = page.getByTestId('remove-wearer-dialog');
    await openWith(row.getByTestId('wearer-remove'), dialog);
    const confirm = dialog.getByTestId('remove-wearer-confirm');
    await expect(confirm).toHaveText(TEXT[lng].remove);
    await dialog.getByTestId('erase-person').check();
    await expect(confirm).toHaveText(TEXT[lng].erase);
    expect(await auditView(page, `erase dialog ${lng}`)).toEqual([]);
    await page.screenshot({ path: `test-results/erase-person-${lng}-360.png` });
    await confirm.click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(TEXT[lng].erased(name))).toBeVisible();
    await expect(page.getByTestId('people-row').filter({ hasText: name })).toHaveCount(0);
    // Gone on the server: no such person, and nothing to export.
    expect((await request.get(`/v2/user/${uid}`, { headers })).status()).toBe(404);
    expect((await request.get(`/v2/user/${uid}/dataExport`, { headers })).status()).toBe(404);
  });
}

test('/user/info: a person who is themself a wearer exports their own records as a ZIP; staff have no such section', async ({
  page,
  request,
}) => {
  await signIn(page, request, 'personal-self@example.com');
  await page.goto('/user/info');
  await waitForPage(page);
  const section = page.getByTestId('own-data');
  await expect(section.getByRole('heading', { name: '自分の記録' })).toBeVisible();
  const saved = page.waitForEvent('download');
  await section.getByTestId('wearer-export').click();
  const download = await saved;
  expect(download.suggestedFilename()).toMatch(/^person-.+\.zip$/);
  expect(
    readFileSync(await download.path())
      .subarray(0, 2)
      .toString(),
  ).toBe('PK');
  expect(await auditView(page, '/user/info personal-self 360')).toEqual([]);

  await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
  await page.goto('/user/info');
  await waitForPage(page);
  await expect(page.getByTestId('api-tokens')).toBeVisible();
  await expect(page.getByTestId('own-data')).toHaveCount(0);
});

for (const lng of LANGUAGES) {
  test(`/settings: an owner finds in the access log that a staff member read a wearer's details (${lng}, 360 px, axe)`, async ({
    page,
    request,
  }) => {
    const ownerEmail = roleCase('ORGANIZATION_OWNER').email;
    const owner = {
      authorization: `Bearer ${(await signInByApi(request, ownerEmail)).accessToken}`,
    };
    const name = `閲覧 ${lng} ${Date.now()}`;
    const created = await request.post('/v2/user/wearer', {
      headers: owner,
      data: { clientId: 'demo-org', name, birthDate: '1948-07-07', groupId: 'demo-group-1' },
    });
    expect(created.status(), await created.text()).toBe(201);
    const uid = ((await created.json()) as { uid: string }).uid;
    // A general staff member opens the wearer's details.
    const staff = roleCase('ORGANIZATION_GENERAL');
    const staffToken = (await signInByApi(request, staff.email)).accessToken;
    const read = await request.get(`/v2/user/${uid}`, {
      headers: { authorization: `Bearer ${staffToken}` },
    });
    expect(read.status()).toBe(200);

    await signIn(page, request, ownerEmail);
    await useLanguage(page, lng);
    await page.goto('/settings');
    await waitForPage(page);
    const section = page.getByTestId('access-log');
    await expect(section).toBeVisible();
    await section.getByTestId('access-log-person').selectOption(uid);
    // The staff member's read of the details (the owner's own readings of this log are rows too).
    const row = section
      .getByTestId('access-log-row')
      .filter({ hasText: lng === 'ja' ? '登録内容' : 'Details' })
      .first();
    await expect(row).toContainText(name);
    await expect(section.getByTestId('access-log-row').filter({ hasText: name })).not.toHaveCount(
      0,
    );
    expect(await auditView(page, `/settings access log ${lng} 360`)).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/access-log-${lng}-360.png`, fullPage: true });
  });
}
