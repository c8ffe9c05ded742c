import { signIn, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';

// Spec, shell: the footer links to the terms of service and the privacy policy in a new tab, with a copyright line.
test('footer: terms of service and privacy policy open in a new tab, and a copyright line', async ({
  page,
  request,
  context,
}) => {
  await signIn(page, request, 'org-general@example.com');
  await page.goto('/devices');
  await waitForPage(page);

  const footer = page.locator('footer');
  await expect(footer).toContainText(/©|copyright/i);
  const links = footer.locator('a[target="_blank"]');
  await expect(links).toHaveCount(2);
  for (const link of await links.all()) {
    await expect(link).toHaveAttribute('rel', /noopener/);
    await expect(link).toHaveAttribute('rel', /noreferrer/);
  }

  // Each opens a page of its own that shows a heading (no sign-in needed for the legal pages).
  for (const link of await links.all()) {
    const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await tab.waitForLoadState();
    await expect(tab.getByRole('heading').first()).toBeVisible();
    expect(new URL(tab.url()).pathname).not.toBe('/login');
    await tab.close();
  }
});
