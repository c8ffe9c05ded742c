import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACTOR_NAMES, type World, buildWorld, insertAlert } from '../testing/world.js';
import { alertLinksRepository } from '../modules/alerts/alert-links.repository.js';
import { createWebhookFixture } from '../testing/webhooks.js';
import { createSiteFixture } from '../testing/sites.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import type { Fixtures } from './json-schema.js';
import { problemOf, runCases } from './run-cases.js';
import { casesFor, type OpenApiDoc, type Operation, operationsOf } from './variants.js';

/**
 * The variants that get past validation (baselines, edge values, unknown or foreign ids, repeated
 * query parameters) reach each route's permission and data code; every role of organisation A and
 * the owner of organisation B sends them with organisation A's ids. Whatever the role: never a
 * 5xx, and every 4xx in the error shape. (Schema-invalid variants fail validation whoever sends
 * them; api-bad-input.test.ts covers those.)
 */
let t: TestApp;
let world: World;
let ops: Operation[];
let fixtures: Fixtures;

// Streaming never ends; signing out would end the session the rest of the role's cases use.
// Signing out everywhere would end the world's sessions for the next calls (its role table is in account.test.ts).
const SKIP = new Set([
  'GET /v3/live',
  'POST /v2/auth/signOut',
  'POST /v2/user/sessions/signOutEverywhere',
  'POST /gateway/v1/batches',
]);
// Hundreds of cases per role, and more with every endpoint: beyond the default 30 s on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

beforeAll(async () => {
  t = await createTestApp();
  world = await buildWorld(t);
  const alertId = await insertAlert(t.db, world.w1, { type: 'SOS_CALL' });
  fixtures = {
    now: new Date().toISOString(),
    id: world.orgA,
    clientId: world.orgA,
    organizationId: world.orgA,
    groupId: world.g1,
    uid: world.w1.uid,
    userId: world.users.ORGANIZATION_GENERAL.uid,
    alertId,
    // The alert's SMS short link (GET /v2/alert/link/{code}).
    code: await alertLinksRepository(t.db).codeFor(alertId, new Date()),
    refreshToken: 'not-a-refresh-token',
    email: 'nobody@example.test',
    ...(await createWebhookFixture(t, world.orgA)),
    ...(await createSiteFixture(t, world.orgA)),
  };
  ops = operationsOf((await t.app.inject({ url: '/v2/openapi.json' })).json<OpenApiDoc>()).filter(
    (op) => !SKIP.has(`${op.method} ${op.path}`),
  );
});
afterAll(() => t?.close());

describe('input that passes validation never gets a 5xx, whoever sends it', () => {
  for (const actor of ACTOR_NAMES) {
    it(`as ${actor}`, async () => {
      const auth = world.users[actor].headers;
      // Role-independent parsing oddities (edge strings, byte-order marks, charsets) are left to the owner's run.
      const roleBlind = /edge string|JSON with a BOM|charset/;
      const cases = ops.flatMap((op) =>
        casesFor(op, { fixtures, auth }).filter(
          (c) => c.expect !== 'invalid' && !roleBlind.test(c.what),
        ),
      );
      expect(cases.length).toBeGreaterThan(50);
      const outcomes = await runCases(t.app, cases);
      const problems = outcomes.map((o) => problemOf(o)).filter((p): p is string => p !== null);
      expect(problems, 'failing cases').toEqual([]);
      // The roles really reached the routes: some answers are successes, not all 401s.
      expect(outcomes.some((o) => o.status < 300)).toBe(true);
    });
  }
});
