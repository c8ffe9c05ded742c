import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, holds, PERMISSIONS } from '@wearable/domain';
import type { Queryable } from '../db/client.js';
import { ApiError } from '../errors.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import {
  ACTOR_NAMES,
  type ActorName,
  buildWorld,
  insertAlert,
  type World,
} from '../testing/world.js';
import { accessService, type ResourceKind } from './access.service.js';

let t: TestApp;
let w: World;
let actors: Record<ActorName, Actor>;
const resources: Record<string, [ResourceKind, string]> = {};

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  const find = t.ctx.db;
  actors = Object.fromEntries(
    await Promise.all(
      ACTOR_NAMES.map(async (name) => {
        const uid = w.users[name].uid;
        const [row] = await find.query<{ family_id: string }>(
          'SELECT family_id FROM refresh_tokens WHERE user_id = $1',
          [uid],
        );
        const { actorRepository } = await import('../modules/auth/actor.repository.js');
        const actor = await actorRepository(find).findSessionActor(uid, row!.family_id, new Date());
        return [name, actor!];
      }),
    ),
  ) as Record<ActorName, Actor>;
  Object.assign(resources, {
    orgA: ['organization', w.orgA],
    orgB: ['organization', w.orgB],
    g1: ['group', w.g1],
    g2: ['group', w.g2],
    w1: ['wearer', w.w1.uid],
    w2: ['wearer', w.w2.uid],
    wB: ['wearer', w.wB.uid],
    gateway1: ['gateway', w.w1.gateway.id],
    bracelet2: ['bracelet', w.w2.bracelet.id],
    alert1: ['alert', await insertAlert(t.db, w.w1)],
    alertB: ['alert', await insertAlert(t.db, w.wB)],
    // Staff as a resource (role changes, removal): the organisation as a whole. Platform staff are nobody's member.
    memberA: ['member', w.users.ORGANIZATION_GENERAL.uid],
    memberB: ['member', w.users.OTHER_ORG_OWNER.uid],
    platformStaff: ['member', w.users.ALL_GENERAL.uid],
  });
});
afterAll(() => t.close());

/** Which of the world's resources each caller reaches (may know exists): the tenancy rule as a table. */
const REACHES: Record<ActorName, string[]> = {
  ALL_OWNER: [
    'orgA',
    'orgB',
    'g1',
    'g2',
    'w1',
    'w2',
    'wB',
    'gateway1',
    'bracelet2',
    'alert1',
    'alertB',
    'memberA',
    'memberB',
  ],
  ALL_GENERAL: [
    'orgA',
    'orgB',
    'g1',
    'g2',
    'w1',
    'w2',
    'wB',
    'gateway1',
    'bracelet2',
    'alert1',
    'alertB',
    'memberA',
    'memberB',
  ],
  ORGANIZATION_OWNER: [
    'orgA',
    'g1',
    'g2',
    'w1',
    'w2',
    'gateway1',
    'bracelet2',
    'alert1',
    'memberA',
  ],
  ORGANIZATION_GENERAL: [
    'orgA',
    'g1',
    'g2',
    'w1',
    'w2',
    'gateway1',
    'bracelet2',
    'alert1',
    'memberA',
  ],
  ORGANIZATION_GROUP: ['orgA', 'g1', 'w1', 'gateway1', 'alert1', 'memberA'],
  GROUP_MANAGER_OTHER_GROUP: ['orgA', 'g2', 'w2', 'bracelet2', 'memberA'],
  OTHER_ORG_OWNER: ['orgB', 'wB', 'alertB', 'memberB'],
  PERSONAL_LINKED: ['w1', 'alert1'],
  PERSONAL_UNLINKED: [],
  PERSONAL_SELF: ['w1', 'alert1'],
};

/** The same rows for every check of one test run: the decision is under test, the SQL once per id. */
function memoised(db: Queryable): Queryable {
  const seen = new Map<string, Promise<unknown[]>>();
  return {
    query: <T>(text: string, params?: unknown[]) => {
      const key = JSON.stringify([text, params]);
      if (!seen.has(key)) seen.set(key, db.query(text, params));
      return seen.get(key) as Promise<T[]>;
    },
  } as Queryable;
}

async function outcome(
  access: ReturnType<typeof accessService>,
  actor: Actor,
  permission: (typeof PERMISSIONS)[number],
  name: string,
) {
  const [kind, id] = resources[name]!;
  try {
    await access.require(actor, permission, kind, id);
    return 'ok';
  } catch (err) {
    if (err instanceof ApiError) return err.statusCode;
    throw err;
  }
}

// The role table generated per permission: each caller of the world x each resource -> ok, 403 or 404.
describe.each(PERMISSIONS)('access.require(%s)', (permission) => {
  it.each(ACTOR_NAMES)('%s', async (name) => {
    const access = accessService(memoised(t.db));
    const actor = actors[name];
    for (const resource of Object.keys(resources)) {
      const expected = !REACHES[name].includes(resource)
        ? 404
        : holds(actor, permission)
          ? 'ok'
          : 403;
      expect(await outcome(access, actor, permission, resource), resource).toBe(expected);
    }
  });
});

describe('access.require', () => {
  it('answers an unknown id exactly like an unreachable one', async () => {
    const access = accessService(t.db);
    // Organisation A's resources, one of each kind, asked for by organisation B's owner.
    for (const name of ['orgA', 'g1', 'w1', 'gateway1', 'bracelet2', 'alert1', 'memberA']) {
      const [kind, id] = resources[name]!;
      const unknown = await access
        .require(actors.OTHER_ORG_OWNER, 'wearer:read', kind, 'no-such-id')
        .catch((e: ApiError) => e);
      const foreign = await access
        .require(actors.OTHER_ORG_OWNER, 'wearer:read', kind, id)
        .catch((e: ApiError) => e);
      expect(unknown).toBeInstanceOf(ApiError);
      expect(foreign).toBeInstanceOf(ApiError);
      expect((foreign as ApiError).statusCode).toBe(404);
      expect((foreign as ApiError).code).toBe((unknown as ApiError).code);
    }
  });

  it("locates an alert in the group it was raised in and in its wearer's group now", async () => {
    const alertId = await insertAlert(t.db, w.w2);
    await t.db.query('UPDATE users SET group_id = $1 WHERE id = $2', [w.g1, w.w2.uid]);
    try {
      const access = accessService(t.db);
      await expect(
        access.require(actors.ORGANIZATION_GROUP, 'alert:confirm', 'alert', alertId),
      ).resolves.toMatchObject({ groupIds: expect.arrayContaining([w.g1, w.g2]) });
      await expect(
        access.require(actors.GROUP_MANAGER_OTHER_GROUP, 'alert:confirm', 'alert', alertId),
      ).resolves.toBeDefined();
    } finally {
      await t.db.query('UPDATE users SET group_id = $1 WHERE id = $2', [w.g2, w.w2.uid]);
    }
  });
});
