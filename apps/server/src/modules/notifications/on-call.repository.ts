import { randomUUID } from 'node:crypto';
import type { AlertLevel, AlertType, OnCallOverride, OnCallRota } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

export interface OnCallGroupRow {
  group_id: string;
  group_name: string;
  organization_id: string;
  time_zone: string;
  public_holidays_as_weekdays: boolean;
  rota: OnCallRota | null;
}

export interface OverrideRow {
  id: string;
  user_id: string;
  user_name: string;
  starts_at: Date | string;
  ends_at: Date | string;
  note: string | null;
  created_at: Date | string;
  created_by: string | null;
}

export const toOverride = (r: OverrideRow): OnCallOverride => ({
  id: r.id,
  userId: r.user_id,
  startsAt: new Date(r.starts_at),
  endsAt: new Date(r.ends_at),
  createdAt: new Date(r.created_at),
});

/** A group's on-call rota, its overrides and the handovers already told (migration 052). */
export function onCallRepository(db: Queryable) {
  return {
    async group(groupId: string): Promise<OnCallGroupRow | undefined> {
      const [row] = await db.query<OnCallGroupRow>(
        `SELECT g.id AS group_id, g.name AS group_name, g.organization_id, o.time_zone,
                g.public_holidays_as_weekdays, r.rota
           FROM groups g
           JOIN organizations o ON o.id = g.organization_id
           LEFT JOIN group_on_call_rotas r ON r.group_id = g.id
          WHERE g.id = $1`,
        [groupId],
      );
      return row;
    },

    /** Groups with a rota, for the handover sweep (of one organisation when given). */
    async groupsWithRota(organizationId: string | null): Promise<OnCallGroupRow[]> {
      return db.query<OnCallGroupRow>(
        `SELECT g.id AS group_id, g.name AS group_name, g.organization_id, o.time_zone,
                g.public_holidays_as_weekdays, r.rota
           FROM group_on_call_rotas r
           JOIN groups g ON g.id = r.group_id
           JOIN organizations o ON o.id = g.organization_id
          WHERE $1::text IS NULL OR g.organization_id = $1`,
        [organizationId],
      );
    },

    /** The organisation's overrides ending after `since`, with their group. */
    async overridesOfOrganization(
      organizationId: string,
      since: Date,
    ): Promise<(OverrideRow & { group_id: string })[]> {
      return db.query<OverrideRow & { group_id: string }>(
        `SELECT o.id, o.group_id, o.user_id, u.name AS user_name, o.starts_at, o.ends_at, o.note,
                o.created_at, o.created_by
           FROM group_on_call_overrides o
           JOIN users u ON u.id = o.user_id AND u.deleted_at IS NULL
          WHERE o.organization_id = $1 AND o.ends_at > $2
          ORDER BY o.starts_at, o.created_at`,
        [organizationId, since],
      );
    },

    /** Overrides ending after `since` (those that can still matter), soonest first. */
    async overrides(groupId: string, since: Date): Promise<OverrideRow[]> {
      return db.query<OverrideRow>(
        `SELECT o.id, o.user_id, u.name AS user_name, o.starts_at, o.ends_at, o.note, o.created_at,
                o.created_by
           FROM group_on_call_overrides o
           JOIN users u ON u.id = o.user_id AND u.deleted_at IS NULL
          WHERE o.group_id = $1 AND o.ends_at > $2
          ORDER BY o.starts_at, o.created_at`,
        [groupId, since],
      );
    },

    async putRota(
      organizationId: string,
      groupId: string,
      rota: OnCallRota | null,
      at: Date,
      by: string,
    ): Promise<void> {
      if (rota === null) {
        await db.query('DELETE FROM group_on_call_rotas WHERE group_id = $1', [groupId]);
        return;
      }
      await db.query(
        `INSERT INTO group_on_call_rotas (group_id, organization_id, rota, updated_at, updated_by)
         VALUES ($1, $2, $3::jsonb, $4, $5)
         ON CONFLICT (group_id) DO UPDATE
           SET rota = EXCLUDED.rota, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
        [groupId, organizationId, JSON.stringify(rota), at, by],
      );
    },

    async addOverride(
      organizationId: string,
      groupId: string,
      o: { userId: string; startsAt: Date; endsAt: Date; note: string | null },
      at: Date,
      by: string,
    ): Promise<string> {
      const id = randomUUID();
      await db.query(
        `INSERT INTO group_on_call_overrides
           (id, organization_id, group_id, user_id, starts_at, ends_at, note, created_at, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [id, organizationId, groupId, o.userId, o.startsAt, o.endsAt, o.note, at, by],
      );
      return id;
    },

    /** The removed override, or undefined when the group has none of that id. */
    async removeOverride(groupId: string, overrideId: string): Promise<OverrideRow | undefined> {
      const [row] = await db.query<OverrideRow>(
        `DELETE FROM group_on_call_overrides o USING users u
          WHERE o.id = $2 AND o.group_id = $1 AND u.id = o.user_id
        RETURNING o.id, o.user_id, u.name AS user_name, o.starts_at, o.ends_at, o.note, o.created_at,
                  o.created_by`,
        [groupId, overrideId],
      );
      return row;
    },

    /** Staff of the organisation with their names (who may be on call), by name. */
    async staff(organizationId: string): Promise<{ id: string; name: string }[]> {
      return db.query<{ id: string; name: string }>(
        `SELECT id, name FROM users
          WHERE organization_id = $1 AND deleted_at IS NULL
            AND role IN ('ORGANIZATION_OWNER','ORGANIZATION_GENERAL','ORGANIZATION_GROUP')
          ORDER BY name, id`,
        [organizationId],
      );
    },

    /** Staff members' names and phone numbers (living staff only). */
    async people(
      organizationId: string,
      userIds: readonly string[],
    ): Promise<{ id: string; name: string; phone_number: string | null }[]> {
      if (!userIds.length) return [];
      return db.query<{ id: string; name: string; phone_number: string | null }>(
        `SELECT id, name, phone_number FROM users
          WHERE id = ANY($1::text[]) AND organization_id = $2 AND deleted_at IS NULL
            AND role IN ('ORGANIZATION_OWNER','ORGANIZATION_GENERAL','ORGANIZATION_GROUP')`,
        [userIds, organizationId],
      );
    },

    /** Claims one handover's summary: true for the one caller that records it first. */
    async claimHandover(
      organizationId: string,
      groupId: string,
      handoverAt: Date,
      userIds: readonly string[],
      at: Date,
    ): Promise<boolean> {
      const rows = await db.query<{ group_id: string }>(
        `INSERT INTO group_on_call_handovers (group_id, handover_at, organization_id, user_ids, sent_at)
         VALUES ($1, $2, $3, $4::jsonb, $5)
         ON CONFLICT (group_id, handover_at) DO NOTHING
         RETURNING group_id`,
        [groupId, handoverAt, organizationId, JSON.stringify(userIds), at],
      );
      return rows.length === 1;
    },
  };
}

/** An open, unconfirmed alert of a group, as the handover summary names it. */
export interface HandoverAlertRow {
  type: AlertType;
  level: AlertLevel;
  wearer_name: string | null;
  device_serial: string | null;
}

/** The group's open, unconfirmed alerts, most severe and oldest first (`limit` of them, and the count). */
export async function openAlertsOfGroup(
  db: Queryable,
  organizationId: string,
  groupId: string,
  limit: number,
): Promise<{ total: number; alerts: HandoverAlertRow[] }> {
  const [count] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM alerts
      WHERE organization_id = $1 AND group_id = $2 AND status = 'OPEN' AND confirmed_at IS NULL`,
    [organizationId, groupId],
  );
  const alerts = await db.query<HandoverAlertRow>(
    `SELECT a.type, a.level, u.name AS wearer_name, a.device_serial
       FROM alerts a LEFT JOIN users u ON u.id = a.wearer_id
      WHERE a.organization_id = $1 AND a.group_id = $2 AND a.status = 'OPEN' AND a.confirmed_at IS NULL
      ORDER BY CASE a.level WHEN 'EMERGENCY' THEN 0 WHEN 'CRITICAL' THEN 1 WHEN 'CAUTION' THEN 2 ELSE 3 END,
               a.opened_at, a.id
      LIMIT $3`,
    [organizationId, groupId, limit],
  );
  return { total: count?.n ?? 0, alerts };
}
