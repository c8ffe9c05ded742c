import { roleCase } from '../support/roles.js';
import { signIn, urlWithPath, waitForPage } from '../support/session.js';
import { expect, test, type Page } from '../support/test.js';

/*
 * /settings/groups and /groups against the real server, keyboard only at 360 px: a group is created, renamed and
 * deleted (it is empty), the demo's first group (with wearers) is refused with the server's 409, and the new group's
 * card on /groups leads to its wearers. The group made here is deleted again, so other files see the demo's groups.
 */

async function tabTo(page: Page, target: ReturnType<Page['locator']>, max = 80): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

test.use({ viewport: { width: 360, height: 740 } });

test('an owner creates, renames and deletes a group with the keyboard; a group with wearers is refused', async ({
  page,
  request,
}) => {
  const name = `E2E班 ${Date.now()}`;
  await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
  await page.goto('/settings/groups');
  await waitForPage(page);

  await tabTo(page, page.getByTestId('group-create-name'));
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  const row = page.getByTestId('group-settings-row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(page.getByTestId('group-create-name')).toHaveValue('');

  // /groups: the new card, its wearers link reached with Tab.
  await page.goto('/groups');
  await waitForPage(page);
  const card = page.getByTestId('group-card').filter({ hasText: name });
  await expect(card.getByTestId('group-wearers')).toHaveText('0');
  const devices = card.getByTestId('group-devices-link');
  await tabTo(page, devices);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/groups\/[^/]+\/devices$/);

  await page.goto('/settings/groups');
  await waitForPage(page);
  await tabTo(page, row.getByTestId('group-rename-open'));
  await page.keyboard.press('Enter');
  const rename = page.getByTestId('group-rename-dialog');
  await expect(rename.getByTestId('group-rename-name')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(`${name} 改`);
  await page.keyboard.press('Enter');
  await expect(rename).toBeHidden();
  const renamed = page.getByTestId('group-settings-row').filter({ hasText: `${name} 改` });
  await expect(renamed).toBeVisible();

  // The demo's first group has wearers: the server refuses and the dialog says why.
  const first = page.getByTestId('group-settings-row').filter({ hasNotText: name }).first();
  await tabTo(page, first.getByTestId('group-delete-open'));
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('group-delete-dialog');
  await tabTo(page, dialog.getByTestId('group-delete-confirm'));
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('group-failure')).toContainText('装着者がいるため削除できません');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await tabTo(page, renamed.getByTestId('group-delete-open'));
  await page.keyboard.press('Enter');
  await tabTo(page, dialog.getByTestId('group-delete-confirm'));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(renamed).toHaveCount(0);
  await expect(page).toHaveURL(urlWithPath('/settings/groups'));
});
