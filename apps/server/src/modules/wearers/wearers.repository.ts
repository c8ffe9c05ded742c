import type { WearerListItem } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import { WEARER_CONDITION } from '../organizations/organizations.repository.js';

/** The SQL scope of a wearer list; null means "no restriction" on that axis. */
export interface WearerScope {
  organizationId: string | null;
  groupId: string | null;
  groupIds: string[] | null;
  wearerIds: string[] | null;
}

export function wearersRepository(db: Queryable) {
  return {
    async list(scope: WearerScope): Promise<WearerListItem[]> {
      return db.query<WearerListItem>(
        `SELECT w.id AS uid, w.name, w.organization_id AS "clientId", w.group_id AS "groupId",
                g.name AS "groupName", b.id AS "wearableId", b.device_name AS "deviceName",
                b.serial_number AS "serialNumber", b.gateway_id AS "gatewayId", b.battery
           FROM users w
           LEFT JOIN groups g ON g.id = w.group_id
           LEFT JOIN bracelets b ON b.wearer_id = w.id
          WHERE ${WEARER_CONDITION}
            AND ($1::text IS NULL OR w.organization_id = $1)
            AND ($2::text IS NULL OR w.group_id = $2)
            AND ($3::text[] IS NULL OR w.group_id = ANY($3::text[]))
            AND ($4::text[] IS NULL OR w.id = ANY($4::text[]))`,
        [scope.organizationId, scope.groupId, scope.groupIds, scope.wearerIds],
      );
    },
  };
}
