import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignInSettings } from '@wearable/domain';
import { type ActorName, type World, buildWorld } from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
let world: World;
beforeAll(async () => {
  t = await createTestApp();
  world = await buildWorld(t);
});
afterAll(() => t.close());

const settingsOf = (orgId: string) => `/v2/client/${orgId}/signInSettings`;
/** Nothing required. */
const OFF = {
  requireTotp: false,
  requireSecondFactor: false,
  secondFactorGraceDays: 0,
  secondFactorGraceEndsAt: null,
};

/** Organisation A's sign-in settings: who reads (GET) and who changes (PATCH) them. */
const TABLE: Record<ActorName, { read: number; change: number }> = {
  ALL_OWNER: { read: 200, change: 200 },
  ALL_GENERAL: { read: 200, change: 403 },
  ORGANIZATION_OWNER: { read: 200, change: 200 },
  ORGANIZATION_GENERAL: { read: 200, change: 403 },
  ORGANIZATION_GROUP: { read: 200, change: 403 },
  GROUP_MANAGER_OTHER_GROUP: { read: 200, change: 403 },
  OTHER_ORG_OWNER: { read: 404, change: 404 },
  // Personal roles never hold organization:read or :update: 403 whatever the id.
  PERSONAL_LINKED: { read: 403, change: 403 },
  PERSONAL_UNLINKED: { read: 403, change: 403 },
  PERSONAL_SELF: { read: 403, change: 403 },
};

describe('GET/PATCH /v2/client/{id}/signInSettings', () => {
  it.each(Object.entries(TABLE))('%s: read %j', async (name, expected) => {
    const user = world.users[name as ActorName];
    const read = await t.app.inject({ url: settingsOf(world.orgA), headers: user.headers });
    expect(read.statusCode).toBe(expected.read);
    const change = await t.app.inject({
      method: 'PATCH',
      url: settingsOf(world.orgA),
      headers: user.headers,
      payload: { requireTotp: false },
    });
    expect(change.statusCode).toBe(expected.change);
    if (expected.change === 200) expect(change.json()).toMatchObject({ requireTotp: false });
  });

  it('keeps a change, and only for that organisation', async () => {
    const owner = world.users.ORGANIZATION_OWNER;
    const on = await t.app.inject({
      method: 'PATCH',
      url: settingsOf(world.orgA),
      headers: owner.headers,
      payload: { requireTotp: true },
    });
    // An older client's body and answer: requireTotp alone, the other settings left as they were.
    expect(on.json()).toEqual({ ...OFF, requireTotp: true });
    const read = await t.app.inject({ url: settingsOf(world.orgA), headers: owner.headers });
    expect(read.json()).toEqual({ ...OFF, requireTotp: true });
    const other = world.users.OTHER_ORG_OWNER;
    const b = await t.app.inject({ url: settingsOf(world.orgB), headers: other.headers });
    expect(b.json()).toEqual(OFF);
    await t.app.inject({
      method: 'PATCH',
      url: settingsOf(world.orgA),
      headers: owner.headers,
      payload: { requireTotp: false },
    });
    // Both changes are in the audit log (newest first), with before and after.
    const log = await t.app.inject({
      url: '/v2/audit?kind=signInSettings.update',
      headers: owner.headers,
    });
    expect(
      log
        .json<{ entries: { before: unknown; after: unknown }[] }>()
        .entries.slice(0, 2)
        .map((e) => [e.before, e.after]),
    ).toEqual([
      [
        { ...OFF, requireTotp: true },
        { ...OFF, requireTotp: false },
      ],
      [OFF, { ...OFF, requireTotp: true }],
    ]);
  });

  it('requires a second factor of staff with a grace period, which runs from turning it on', async () => {
    const owner = world.users.ORGANIZATION_OWNER;
    const patch = (payload: object) =>
      t.app.inject({
        method: 'PATCH',
        url: settingsOf(world.orgA),
        headers: owner.headers,
        payload,
      });
    const before = Date.now();
    const on = (
      await patch({ requireSecondFactor: true, secondFactorGraceDays: 14 })
    ).json<SignInSettings>();
    expect(on).toMatchObject({
      requireTotp: false,
      requireSecondFactor: true,
      secondFactorGraceDays: 14,
    });
    const ends = Date.parse(on.secondFactorGraceEndsAt ?? '');
    expect(ends).toBeGreaterThanOrEqual(before + 14 * 86_400_000);
    // A longer grace period moves the end, not the start.
    const longer = (await patch({ secondFactorGraceDays: 21 })).json<SignInSettings>();
    expect(Date.parse(longer.secondFactorGraceEndsAt ?? '')).toBe(ends + 7 * 86_400_000);
    const off = (await patch({ requireSecondFactor: false, secondFactorGraceDays: 0 })).json();
    expect(off).toEqual(OFF);
  });

  it.each([
    [{}, 'requireTotp'],
    [{ requireTotp: 'yes' }, 'requireTotp'],
    [{ requireTotp: null }, 'requireTotp'],
    [{ requireSecondFactor: 'yes' }, 'requireSecondFactor'],
    [{ secondFactorGraceDays: -1 }, 'secondFactorGraceDays'],
    [{ secondFactorGraceDays: 91 }, 'secondFactorGraceDays'],
    [{ secondFactorGraceDays: 1.5 }, 'secondFactorGraceDays'],
  ])('refuses %j with a 400 naming %s', async (payload, field) => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: settingsOf(world.orgA),
      headers: world.users.ORGANIZATION_OWNER.headers,
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
  });

  it('answers an unknown organisation like a foreign one', async () => {
    const res = await t.app.inject({
      url: settingsOf('org-nope'),
      headers: world.users.ORGANIZATION_OWNER.headers,
    });
    expect(res.statusCode).toBe(404);
  });
});
