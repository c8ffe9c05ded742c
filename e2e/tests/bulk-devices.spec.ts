import { openWith } from '../support/actions.js';
import { auditView, LANGUAGES, setWidth, settle, useLanguage, WIDTHS } from '../support/a11y.js';
import { roleCase } from '../support/roles.js';
import { signIn, waitForPage } from '../support/session.js';
import { expect, test, type Page } from '../support/test.js';

/*
 * Issue 35 item 2: an owner registers a bracelet by the form on /devices, then two bracelets and two
 * wearers (with their reading and bracelet) by CSV, and sees the wearers on /devices in the order
 * of their readings (さとう before にのまえ, although 一 comes before 佐藤 by the kanji). Every new
 * view is checked with axe and for sideways scrolling at 1,280 and 360 px, in both languages.
 */
const GROUP_NAME = '第一現場';

const TEXT = {
  ja: { register: 'ブレスレットを登録', import: 'CSVで一括登録', addWearer: '装着者を追加' },
  en: { register: 'Register a bracelet', import: 'Import from CSV', addWearer: 'Add a wearer' },
} as const;

async function audit(page: Page, label: string, failures: string[], shot: string) {
  for (const width of WIDTHS) {
    await setWidth(page, width);
    failures.push(...(await auditView(page, `${label} @${width}`)));
    await page.screenshot({ path: test.info().outputPath(`${shot}-${width}.png`), fullPage: true });
  }
  await setWidth(page, 1280);
}

const csvFile = (name: string, text: string) => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(text, 'utf8'),
});

for (const lng of LANGUAGES) {
  test(`bracelets and wearers in bulk (${lng}): form, CSV preview and import, reading order on /devices`, async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const tag = `${lng.toUpperCase()}${Date.now().toString(36).toUpperCase()}`;
    const failures: string[] = [];
    await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
    await useLanguage(page, lng);
    await page.goto('/devices');
    await settle(page);

    // 装着者を追加 is on /devices and in the menu; it opens /members with the form.
    await expect(page.getByTestId('devices-add-wearer')).toHaveText(TEXT[lng].addWearer);
    await expect(
      page.getByTestId('main-menu').getByRole('link', { name: TEXT[lng].addWearer }),
    ).toHaveAttribute('href', '/members?add=1');

    // One bracelet by the form.
    const dialog = page.getByTestId('register-bracelet-dialog');
    await openWith(page.getByTestId('devices-register-bracelet'), dialog);
    await dialog.getByTestId('register-submit').click();
    await expect(dialog.getByTestId('register-serial')).toHaveAttribute('aria-invalid', 'true');
    await audit(page, `${lng} register dialog`, failures, `register-${lng}`);
    await dialog.getByTestId('register-serial').fill(`FORM-${tag}`);
    await dialog.getByTestId('register-model').fill('MB1');
    await dialog.getByTestId('register-submit').click();
    await expect(dialog).toBeHidden();
    // The same serial again is refused in the reader's language, not half-registered.
    await openWith(page.getByTestId('devices-register-bracelet'), dialog);
    await dialog.getByTestId('register-serial').fill(`form-${tag}`);
    await dialog.getByTestId('register-submit').click();
    await expect(dialog.getByTestId('register-error')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // Two bracelets by CSV: previewed, then imported.
    await page.getByTestId('devices-import').click();
    await waitForPage(page);
    await expect(page.getByTestId('page-heading')).toHaveText(TEXT[lng].import);
    await audit(page, `${lng} import page`, failures, `import-${lng}`);
    const bracelets = page.getByTestId('bracelets-import');
    const braceletCsv = `serialNumber,model,wearer\nCSV-${tag}-1,MB1,\nCSV-${tag}-2,MB2,\n`;
    await bracelets.getByTestId('bracelets-file').setInputFiles(csvFile('b.csv', braceletCsv));
    await expect(bracelets.getByTestId('bracelets-preview-row')).toHaveCount(2);
    await audit(page, `${lng} bracelet preview`, failures, `bracelet-preview-${lng}`);
    await bracelets.getByTestId('bracelets-commit').click();
    await expect(bracelets.getByTestId('bracelets-done')).toBeVisible();

    // Wearers: a bad file first (nothing imported, every problem named by row and column) ...
    const wearers = page.getByTestId('wearers-import');
    const bad = `name,nameReading,group,birthYear,serialNumber\n佐藤 ${tag},さとう,${GROUP_NAME},1980,CSV-${tag}-1\n一 ${tag},にのまえ,ないグループ,18,\n`;
    await wearers.getByTestId('wearers-file').setInputFiles(csvFile('bad.csv', bad));
    await expect(wearers.getByTestId('wearers-problem')).toHaveCount(2);
    await expect(wearers.getByTestId('wearers-commit')).toHaveCount(0);
    await audit(page, `${lng} wearer problems`, failures, `wearer-problems-${lng}`);
    // ... then the fixed file, each wearer with a bracelet from the CSV above.
    const good = `name,nameReading,group,birthYear,serialNumber\n一 ${tag},にのまえ,${GROUP_NAME},1975,CSV-${tag}-2\n佐藤 ${tag},さとう,${GROUP_NAME},1980,CSV-${tag}-1\n`;
    await wearers.getByTestId('wearers-file').setInputFiles(csvFile('good.csv', good));
    await expect(wearers.getByTestId('wearers-preview-row')).toHaveCount(2);
    await wearers.getByTestId('wearers-commit').click();
    await expect(wearers.getByTestId('wearers-done')).toBeVisible();
    // The same file again changes nothing.
    await wearers.getByTestId('wearers-file').setInputFiles(csvFile('good.csv', good));
    await expect(wearers.getByTestId('wearers-preview')).toContainText(
      lng === 'ja' ? '新規 0件、更新 0件、変更なし 2件' : '0 new, 0 updated, 2 unchanged',
    );

    // On /devices, in the order of the readings: さとう before にのまえ.
    await page.goto('/devices');
    await settle(page);
    await page.getByTestId('wearer-search').fill(tag);
    const rows = page.getByTestId('wearer-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText(`佐藤 ${tag}`);
    await expect(rows.nth(1)).toContainText(`一 ${tag}`);
    await expect(rows.nth(0)).toContainText(`CSV-${tag}-1`);
    await audit(page, `${lng} /devices with its actions`, failures, `devices-${lng}`);
    await page.getByTestId('wearer-search').fill(tag);
    await expect(rows).toHaveCount(2);
    // The name is a link to the wearer's page.
    await rows
      .nth(0)
      .getByRole('link', { name: `佐藤 ${tag}` })
      .click();
    await expect(page).toHaveURL(/\/devices\/[^/]+\/wr-/);

    // /members lists them in the same order, names linking to the wearer, readings shown.
    await page.goto('/members');
    await waitForPage(page);
    const people = page.getByTestId('people-row').filter({ hasText: tag });
    await expect(people).toHaveCount(2);
    await expect(people.nth(0)).toContainText('さとう');
    await expect(people.nth(0).getByTestId('people-name')).toHaveAttribute(
      'href',
      /\/devices\/[^/]+\/wr-/,
    );
    expect(failures).toEqual([]);
  });
}
