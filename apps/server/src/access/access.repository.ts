import type { Queryable } from '../db/client.js';
import { IS_WEARER } from './scope-sql.js';

/** Where a resource lives: its organisation, its groups and (for a wearer's things) the wearer. */
export interface Location {
  organizationId: string;
  /** undefined: the organisation as a whole; []: in no group. */
  groupIds?: string[];
  wearerId?: string;
}

export type ResourceKind =
  | 'organization'
  | 'group'
  | 'wearer'
  | 'gateway'
  | 'bracelet'
  | 'alert'
  | 'member'
  | 'webhook'
  | 'site';

interface Row {
  id: string;
  organization_id: string;
  group_ids: (string | null)[] | null;
  wearer_id: string | null;
}

// One query per kind returning (id, organisation, groups, wearer) for many ids at once.
const LOCATE: Record<ResourceKind, string> = {
  organization: `SELECT o.id, o.id AS organization_id, NULL::text[] AS group_ids, NULL AS wearer_id
                   FROM organizations o WHERE o.id = ANY($1::text[])`,
  group: `SELECT g.id, g.organization_id, ARRAY[g.id] AS group_ids, NULL AS wearer_id
            FROM groups g WHERE g.id = ANY($1::text[])`,
  wearer: `SELECT u.id, u.organization_id, ARRAY[u.group_id] AS group_ids, u.id AS wearer_id
             FROM users u WHERE u.id = ANY($1::text[]) AND ${IS_WEARER('u')}`,
  gateway: `SELECT gw.id, gw.organization_id, ARRAY[gw.group_id] AS group_ids, NULL AS wearer_id
              FROM gateways gw WHERE gw.id = ANY($1::text[])`,
  // A bracelet is where its wearer is; one on the shelf belongs to the organisation, in no group.
  bracelet: `SELECT b.id, b.organization_id, ARRAY[u.group_id] AS group_ids, b.wearer_id
               FROM bracelets b LEFT JOIN users u ON u.id = b.wearer_id
              WHERE b.id = ANY($1::text[])`,
  // An alert belongs to its wearer's group now and to the group it was raised in. One of a device no
  // wearer holds (issue 34) is where its gateway was: the group it was raised in, no wearer, so
  // the organisation's staff and that group's managers reach it, a personal user never.
  alert: `SELECT a.id, a.organization_id, ARRAY[u.group_id, a.group_id] AS group_ids, a.wearer_id
            FROM alerts a LEFT JOIN users u ON u.id = a.wearer_id
           WHERE a.id = ANY($1::text[])
             AND (u.deleted_at IS NULL AND u.id IS NOT NULL OR a.wearer_id IS NULL)`,
  // A staff member of an organisation belongs to the organisation as a whole (its staff list), not to a group.
  member: `SELECT u.id, u.organization_id, NULL::text[] AS group_ids, NULL AS wearer_id
             FROM users u WHERE u.id = ANY($1::text[]) AND u.deleted_at IS NULL
              AND u.role IN ('ORGANIZATION_OWNER', 'ORGANIZATION_GENERAL', 'ORGANIZATION_GROUP')`,
  // A webhook endpoint belongs to the organisation as a whole (its settings), not to a group.
  webhook: `SELECT w.id, w.organization_id, NULL::text[] AS group_ids, NULL AS wearer_id
              FROM webhook_endpoints w WHERE w.id = ANY($1::text[])`,
  // A site of no group belongs to the organisation's owners (and its readers), not to group managers.
  site: `SELECT s.id, s.organization_id, ARRAY[s.group_id] AS group_ids, NULL AS wearer_id
           FROM sites s WHERE s.id = ANY($1::text[])`,
};

export function accessRepository(db: Queryable) {
  return {
    async locate(kind: ResourceKind, ids: string[]): Promise<Map<string, Location>> {
      if (!ids.length) return new Map();
      const rows = await db.query<Row>(LOCATE[kind], [ids]);
      return new Map(
        rows.map((r) => {
          const location: Location = { organizationId: r.organization_id };
          if (r.group_ids !== null)
            location.groupIds = [...new Set(r.group_ids.filter((g): g is string => g !== null))];
          if (r.wearer_id !== null) location.wearerId = r.wearer_id;
          return [r.id, location];
        }),
      );
    },
  };
}
