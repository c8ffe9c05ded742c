import { randomUUID } from 'node:crypto';
import { ALERT_LEVEL_OF, type AlertType, type Role } from '@wearable/domain';
import type { Db } from '../db/client.js';
import {
  createGroup,
  createOrganization,
  createUser,
  createWearer,
  type UserRecord,
  type WearerRecord,
} from './factories.js';
import type { TestApp } from './test-app.js';

/**
 * The test world: two organisations with groups, wearers and one user of every kind the role
 * tables need (every role of organisation A, organisation B's owner, a group manager of another
 * group, a linked and an unlinked personal user, a wearer who signs in).
 * Organisation A: groups g1 (wearer w1 and the PERSONAL_SELF wearer) and g2 (wearer w2).
 * Organisation B: wearer wB.
 */
export interface World {
  orgA: string;
  orgB: string;
  g1: string;
  g2: string;
  w1: WearerRecord;
  w2: WearerRecord;
  wB: WearerRecord;
  users: Record<ActorName, UserRecord>;
}

export const ACTOR_NAMES = [
  'ALL_OWNER',
  'ALL_GENERAL',
  'ORGANIZATION_OWNER',
  'ORGANIZATION_GENERAL',
  'ORGANIZATION_GROUP',
  'GROUP_MANAGER_OTHER_GROUP',
  'OTHER_ORG_OWNER',
  'PERSONAL_LINKED',
  'PERSONAL_UNLINKED',
  'PERSONAL_SELF',
] as const;
export type ActorName = (typeof ACTOR_NAMES)[number];

/**
 * Which of the world's wearers (w1 in group 1 of org A, w2 in group 2, wB in org B) each caller
 * may see: the one visibility rule every data endpoint's role table checks against.
 */
export const SEES: Record<ActorName, ('w1' | 'w2' | 'wB')[]> = {
  ALL_OWNER: ['w1', 'w2', 'wB'],
  ALL_GENERAL: ['w1', 'w2', 'wB'],
  ORGANIZATION_OWNER: ['w1', 'w2'],
  ORGANIZATION_GENERAL: ['w1', 'w2'],
  ORGANIZATION_GROUP: ['w1'],
  GROUP_MANAGER_OTHER_GROUP: ['w2'],
  OTHER_ORG_OWNER: ['wB'],
  PERSONAL_LINKED: ['w1'],
  PERSONAL_UNLINKED: [],
  PERSONAL_SELF: ['w1'],
};

export async function buildWorld(t: TestApp): Promise<World> {
  const a = await createOrganization(t);
  const b = await createOrganization(t);
  const g1 = await createGroup(t, {
    organizationId: a.id,
    name: `第一現場 ${randomUUID().slice(0, 4)}`,
  });
  const g2 = await createGroup(t, { organizationId: a.id });
  const gB = await createGroup(t, { organizationId: b.id });
  const w1 = await createWearer(t, {
    organizationId: a.id,
    groupId: g1.id,
    name: `山田 太郎 ${randomUUID().slice(0, 4)}`,
  });
  const w2 = await createWearer(t, { organizationId: a.id, groupId: g2.id });
  const wB = await createWearer(t, { organizationId: b.id, groupId: gB.id });
  const user = (role: Role, extra: Omit<Parameters<typeof createUser>[1], 'role'>) =>
    createUser(t, { role, ...extra });
  const users: Record<ActorName, UserRecord> = {
    ALL_OWNER: await user('ALL_OWNER', {}),
    ALL_GENERAL: await user('ALL_GENERAL', {}),
    ORGANIZATION_OWNER: await user('ORGANIZATION_OWNER', { organizationId: a.id }),
    ORGANIZATION_GENERAL: await user('ORGANIZATION_GENERAL', { organizationId: a.id }),
    ORGANIZATION_GROUP: await user('ORGANIZATION_GROUP', {
      organizationId: a.id,
      managedGroupIds: [g1.id],
    }),
    GROUP_MANAGER_OTHER_GROUP: await user('ORGANIZATION_GROUP', {
      organizationId: a.id,
      managedGroupIds: [g2.id],
    }),
    OTHER_ORG_OWNER: await user('ORGANIZATION_OWNER', { organizationId: b.id }),
    PERSONAL_LINKED: await user('PERSONAL', { linkedWearerIds: [w1.uid] }),
    PERSONAL_UNLINKED: await user('PERSONAL', {}),
    PERSONAL_SELF: await user('PERSONAL_SELF', { linkedWearerIds: [w1.uid] }),
  };
  return { orgA: a.id, orgB: b.id, g1: g1.id, g2: g2.id, w1, w2, wB, users };
}

/** Inserts an alert row directly (for tables of who sees what; flows use real ingestion). */
export async function insertAlert(
  db: Db,
  w: WearerRecord,
  opts: {
    type?: AlertType;
    openedAt?: Date;
    /** When the server raised it (created_at): the opening unless the data came late. */
    raisedAt?: Date;
    status?: 'OPEN' | 'CLOSED';
    notify?: boolean;
  } = {},
): Promise<string> {
  const id = `al-${randomUUID()}`;
  const type = opts.type ?? 'SOS_CALL';
  const openedAt = opts.openedAt ?? new Date();
  const closed = opts.status === 'CLOSED';
  await db.query(
    `INSERT INTO alerts (id, organization_id, group_id, wearer_id, bracelet_id, type, level, status, opened_at,
                         closed_at, close_reason, cause, notify, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13, $14)`,
    [
      id,
      w.organizationId,
      w.groupId,
      w.uid,
      w.bracelet.id,
      type,
      ALERT_LEVEL_OF[type],
      closed ? 'CLOSED' : 'OPEN',
      openedAt,
      closed ? new Date(openedAt.getTime() + 60_000) : null,
      closed ? 'recovered' : null,
      JSON.stringify({
        rule: 'test',
        values: { heartRate: 190 },
        windowStart: openedAt.toISOString(),
        windowEnd: openedAt.toISOString(),
      }),
      opts.notify ?? true,
      opts.raisedAt ?? openedAt,
    ],
  );
  return id;
}
