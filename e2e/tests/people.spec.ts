import { openWith } from '../support/actions.js';
import { roleCase } from '../support/roles.js';
import { signIn, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';

test.use({ viewport: { width: 360, height: 740 } });

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
