import { fetchWearerNames, fetchWearerNamesAndReadings } from '../support/api.js';
import { SECOND_ORG_OWNER_EMAIL } from '../support/roles.js';
import { signIn, waitForPage } from '../support/session.js';
import { expect, test, type Page } from '../support/test.js';

/** The order in which `names` appear in the list's rows (an alert banner above the list may name a wearer too). */
async function displayedOrder(page: Page, names: readonly string[]): Promise<string[]> {
  const rows = await page.getByTestId('wearer-row').allInnerTexts();
  return rows.flatMap((row) => names.filter((name) => row.includes(name)).slice(0, 1));
}

/** Sets the sort to name ascending or descending, whether the control is a select or a toggle. */
async function sortBy(page: Page, direction: 'asc' | 'desc'): Promise<void> {
  const control = page.getByTestId('sort-select');
  const tag = await control.evaluate((el) => el.tagName.toLowerCase());
  if (tag === 'select') {
    const values = await control
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    const value = values.find((v) => v.toLowerCase().includes(direction));
    if (!value)
      throw new Error(`sort-select has no ${direction} option among ${values.join(', ')}`);
    await control.selectOption(value);
  } else {
    await control.click();
  }
}

test('/devices: sorting by name ascending and descending reverses the list', async ({
  page,
  request,
}) => {
  const { accessToken } = await signIn(page, request, 'org-owner@example.com');
  const wearers = await fetchWearerNamesAndReadings(request, accessToken);
  const names = wearers.map((w) => w.name);
  expect(
    new Set(names).size,
    'the demo organisation needs several distinct wearer names',
  ).toBeGreaterThan(2);

  await page.goto('/devices');
  await waitForPage(page);
  await expect(page.getByText(names[0]!).first()).toBeVisible();

  await sortBy(page, 'asc');
  // The console sorts in the browser, in the reader's language, by the name's reading where one is given (issue
  // 35), else the name: the expected order comes from the browser's own collation (Chromium's ICU may order kanji
  // names otherwise than Node's).
  const expected = await page.evaluate((list) => {
    const collator = new Intl.Collator(['ja', 'en']);
    return [...list]
      .sort(
        (a, b) =>
          collator.compare(a.nameReading || a.name, b.nameReading || b.name) ||
          collator.compare(a.name, b.name),
      )
      .map((w) => w.name);
  }, wearers);
  await expect.poll(() => displayedOrder(page, names)).toEqual(expected);
  const ascending = await displayedOrder(page, names);
  expect(ascending).toHaveLength(names.length);

  await sortBy(page, 'desc');
  await expect.poll(() => displayedOrder(page, names)).toEqual([...ascending].reverse());

  await sortBy(page, 'asc');
  await expect.poll(() => displayedOrder(page, names)).toEqual(ascending);
});

test('/devices: the second organisation owner sees none of the demo organisation wearers', async ({
  page,
  request,
}) => {
  const demoOwner = await signIn(page, request, 'org-owner@example.com');
  const demoNames = await fetchWearerNames(request, demoOwner.accessToken);
  expect(demoNames.length).toBeGreaterThan(0);

  const other = await signIn(page, request, SECOND_ORG_OWNER_EMAIL);
  const ownNames = await fetchWearerNames(request, other.accessToken);
  // The API already keeps tenants apart; the page must not add anything either.
  expect(ownNames.filter((name) => demoNames.includes(name))).toEqual([]);

  const listLoaded = page.waitForResponse(
    (res) => res.url().includes('/v3/device/summary') && res.ok(),
  );
  await page.goto('/devices');
  await listLoaded;
  await waitForPage(page);
  for (const name of ownNames.slice(0, 3)) await expect(page.getByText(name).first()).toBeVisible();
  const shown = await page.locator('body').innerText();
  expect(demoNames.filter((name) => shown.includes(name))).toEqual([]);
});

test('/devices: a group manager sees only their group, not the rest of the organisation', async ({
  page,
  request,
}) => {
  const owner = await signIn(page, request, 'org-owner@example.com');
  const organisationNames = await fetchWearerNames(request, owner.accessToken);
  const manager = await signIn(page, request, 'org-group@example.com');
  const groupNames = await fetchWearerNames(request, manager.accessToken);
  expect(groupNames.length).toBeGreaterThan(0);
  expect(groupNames.filter((name) => !organisationNames.includes(name))).toEqual([]);
  const outside = organisationNames.filter((name) => !groupNames.includes(name));
  expect(
    outside.length,
    'the demo organisation has wearers outside the first group',
  ).toBeGreaterThan(0);

  await page.goto('/devices');
  await waitForPage(page);
  for (const name of groupNames.slice(0, 3))
    await expect(page.getByText(name).first()).toBeVisible();
  const shown = await page.locator('body').innerText();
  expect(outside.filter((name) => shown.includes(name))).toEqual([]);
});
