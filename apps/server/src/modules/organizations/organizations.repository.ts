import type { Queryable } from '../../db/client.js';

export interface OrganizationRow {
  id: string;
  name: string;
  timeZone: string;
  isDemo: boolean;
}
export interface OrganizationSummaryRow {
  id: string;
  name: string;
  groupCount: number;
  gatewayCount: number;
  wearerCount: number;
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
                   AND ${WEARER_CONDITION}) AS "wearerCount"
           FROM organizations o
          WHERE $1::text[] IS NULL OR o.id = ANY($1::text[])`,
        [ids],
      );
    },

    async findById(id: string): Promise<OrganizationRow | null> {
      const rows = await db.query<OrganizationRow>(
        `SELECT id, name, time_zone AS "timeZone", is_demo AS "isDemo"
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

    async findGroup(id: string): Promise<GroupRow | null> {
      const rows = await db.query<GroupRow>(
        'SELECT id, organization_id AS "organizationId", name FROM groups WHERE id = $1',
        [id],
      );
      return rows[0] ?? null;
    },
  };
}
