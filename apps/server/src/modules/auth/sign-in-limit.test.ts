import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createUser, FACTORY_PASSWORD } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

/**
 * Issue 9: the failure limit was read before and written after the password check, so
 * concurrent guesses were all evaluated; and five failures from anywhere locked the owner out.
 */
const LIMIT = 5;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ signInMaxFailures: LIMIT, signInWindow: 900 });
});
afterAll(() => t.close());

const signIn = (email: string, password: string, remoteAddress: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v2/auth/signIn',
    payload: { email, password },
    remoteAddress,
  });
const owner = async () =>
  createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: (await createOrganization(t)).id });
const statuses = (all: { statusCode: number }[]) => all.map((r) => r.statusCode);

describe('the sign-in failure limit under concurrency', () => {
  it(`30 concurrent wrong passwords: at most ${LIMIT} are evaluated, the rest get 429`, async () => {
    const user = await owner();
    const all = statuses(
      await Promise.all(
        Array.from({ length: 30 }, () => signIn(user.email, 'wrong-guess', '10.9.0.1')),
      ),
    );
    expect(all.filter((s) => s === 401).length).toBeLessThanOrEqual(LIMIT);
    expect(all.filter((s) => s !== 401 && s !== 429)).toEqual([]);
  });

  it('24 wrong guesses and the right password sent together: no more than the limit is evaluated', async () => {
    const user = await owner();
    const all = statuses(
      await Promise.all([
        ...Array.from({ length: 24 }, () => signIn(user.email, 'wrong-guess', '10.9.0.2')),
        signIn(user.email, FACTORY_PASSWORD, '10.9.0.2'),
      ]),
    );
    // The right password gets in only if it was among the first LIMIT attempts evaluated.
    expect(all.filter((s) => s !== 429).length).toBeLessThanOrEqual(LIMIT);
  });
});

describe('a lockout cannot keep the owner out', () => {
  it('guessing from another address locks that address, not the owner at hers', async () => {
    const user = await owner();
    for (let i = 0; i < LIMIT + 3; i++) await signIn(user.email, 'wrong-guess', '10.9.1.66');
    expect((await signIn(user.email, FACTORY_PASSWORD, '10.9.1.66')).statusCode).toBe(429);
    expect((await signIn(user.email, FACTORY_PASSWORD, '10.9.1.7')).statusCode).toBe(200);
  });

  it('a success from an address does not count against that address', async () => {
    const user = await owner();
    for (let i = 0; i < LIMIT + 2; i++) {
      expect((await signIn(user.email, FACTORY_PASSWORD, '10.9.2.1')).statusCode).toBe(200);
    }
  });
});
