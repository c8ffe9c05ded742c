import { roleCase, type Role } from '../support/roles.js';
import { signIn, waitForPage } from '../support/session.js';
import { menuHrefs } from '../support/shell.js';
import { expect, test } from '../support/test.js';

test.use({ viewport: { width: 375, height: 800 }, isMobile: true, hasTouch: true });

for (const role of [
  'ALL_GENERAL',
  'ORGANIZATION_GROUP',
  'PERSONAL_SELF',
] as const satisfies readonly Role[]) {
  const c = roleCase(role);
  test(`375x800 as ${role}: the menu is in a drawer that opens with the role's links`, async ({
    page,
    request,
  }) => {
    await signIn(page, request, c.email);
    await page.goto(c.logo);
    await waitForPage(page);

    // Closed drawer: the menu is not on screen until the button is pressed.
    await expect(page.getByTestId('main-menu')).toBeHidden();
    await page.getByTestId('menu-button').click();
    expect(await menuHrefs(page)).toEqual(c.menu);

    // Following a link closes the drawer and navigates.
    const target = c.menu[c.menu.length - 1]!;
    await page.getByTestId('main-menu').locator(`a[href$="${target}"]`).click();
    await expect(page).toHaveURL(new RegExp(`${target}(?:[?#].*)?$`));
    await waitForPage(page);
    await expect(page.getByTestId('main-menu')).toBeHidden();
  });
}
