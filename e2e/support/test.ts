import { test as base, expect } from '@playwright/test';

/** Every spec imports `test` from here: it points baseURL at the server global-setup started. */
export const test = base.extend({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from the pattern.
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url)
      throw new Error(
        'E2E_BASE_URL is not set: run through "npm test -w e2e" so global-setup starts the server',
      );
    await use(url);
  },
});

export { expect };
export type { Page } from '@playwright/test';
