import type { OrganizationKind } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

export interface OrganizationRow {
  id: string;
  name: string;
  timeZone: string;
  kind: OrganizationKind;
  isDemo: boolean;
  /** Only read by findById. */
  emergencyPhone?: string | null;
}
export interface OrganizationSummaryRow {
  id: string;
  name: string;
  groupCount: number;
  gatewayCount: number;
  wearerCount: number;
  openAlertCount: number;
}
export interface GroupRow {
  id: string;
  organizationId: string;
  name: string;
}

// A wearer: a person in an organisation who is monitored (no console role, or PERSONAL_SELF).
export const WEARER_CONDITION = `(w.role IS NULL OR w.role = 'PERSONAL_SELF')
  AND w.organization_id IS NOT NULL AND w.deleted_at IS NULL`;

export function organizationsRepository(db: Queryable) {
  return {
    /** Summaries of the given organisations, or of all when ids is null. */
    async listSummaries(ids: string[] | null): Promise<OrganizationSummaryRow[]> {
      return db.query<OrganizationSummaryRow>(
        `SELECT o.id, o.name,
                (SELECT count(*)::int FROM groups g WHERE g.organization_id = o.id) AS "groupCount",
                (SELECT count(*)::int FROM gateways gw WHERE gw.organization_id = o.id) AS "gatewayCount",
                (SELECT count(*)::int FROM users w WHERE w.organization_id = o.id
                   AND ${WEARER_CONDITION}) AS "wearerCount",
                (SELECT count(*)::int FROM alerts a JOIN users w ON w.id = a.wearer_id
                  WHERE a.organization_id = o.id AND a.status = 'OPEN'
                    AND w.deleted_at IS NULL) AS "openAlertCount"
           FROM organizations o
          WHERE $1::text[] IS NULL OR o.id = ANY($1::text[])`,
        [ids],
      );
    },

    async findById(id: string): Promise<OrganizationRow | null> {
      const rows = await db.query<OrganizationRow>(
        `SELECT id, name, time_zone AS "timeZone", kind, is_demo AS "isDemo",
                emergency_phone AS "emergencyPhone"
           FROM organizations WHERE id = $1`,
        [id],
      );
      return rows[0] ?? null;
    },

    async listGroups(organizationId: string): Promise<GroupRow[]> {
      return db.query<GroupRow>(
        `SELECT id, organization_id AS "organizationId", name FROM groups
          WHERE organization_id = $1`,
        [organizationId],
      );
    },

    async insert(
      row: { id: string; name: string; timeZone: string; kind: OrganizationKind },
      at: Date,
    ): Promise<void> {
      await db.query(
        'INSERT INTO organizations (id, name, time_zone, kind, created_at) VALUES ($1, $2, $3, $4, $5)',
        [row.id, row.name, row.timeZone, row.kind, at],
      );
    },

    /** Undoes insert when the owner's invitation could not be sent (nothing else is in it yet). */
    async remove(id: string): Promise<void> {
      await db.query('DELETE FROM organizations WHERE id = $1', [id]);
    },

    async update(
      id: string,
      patch: {
        name?: string | undefined;
        timeZone?: string | undefined;
        emergencyPhone?: string | null | undefined;
      },
    ): Promise<void> {
      await db.query(
        `UPDATE organizations SET name = COALESCE($2, name), time_zone = COALESCE($3, time_zone),
                emergency_phone = CASE WHEN $4::boolean THEN $5 ELSE emergency_phone END
          WHERE id = $1`,
        [
          id,
          patch.name ?? null,
          patch.timeZone ?? null,
          patch.emergencyPhone !== undefined,
          patch.emergencyPhone ?? null,
        ],
      );
    },

    /** Per group: wearers and open alerts (by the wearer's group now). */
    async groupCounts(
      organizationId: string,
    ): Promise<{ id: string; name: string; wearerCount: number; openAlertCount: number }[]> {
      return db.query(
        `SELECT g.id, g.name,
                (SELECT count(*)::int FROM users w WHERE w.group_id = g.id AND ${WEARER_CONDITION}) AS "wearerCount",
                (SELECT count(*)::int FROM alerts a JOIN users w ON w.id = a.wearer_id
                  WHERE a.organization_id = g.organization_id AND a.status = 'OPEN' AND w.group_id = g.id
                    AND w.deleted_at IS NULL) AS "openAlertCount"
           FROM groups g WHERE g.organization_id = $1`,
        [organizationId],
      );
    },

    /** Console accounts of the organisation (staff roles; wearers and family are not members). */
    async memberCount(organizationId: string): Promise<number> {
      const rows = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM users
          WHERE organization_id = $1 AND deleted_at IS NULL
            AND role IN ('ORGANIZATION_OWNER','ORGANIZATION_GENERAL','ORGANIZATION_GROUP')`,
        [organizationId],
      );
      return rows[0]?.n ?? 0;
    },

    async findGroup(id: string): Promise<GroupRow | null> {
      const rows = await db.query<GroupRow>(
        'SELECT id, organization_id AS "organizationId", name FROM groups WHERE id = $1',
        [id],
      );
      return rows[0] ?? null;
    },
  };
}
