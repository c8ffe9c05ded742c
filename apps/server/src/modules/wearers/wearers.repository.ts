import type { Actor, WearerListItem } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import { SqlParams, wearerScope, type WearerScopeFilter } from '../../access/scope-sql.js';

export function wearersRepository(db: Queryable) {
  return {
    /** The wearers the actor reaches, narrowed by the filter. */
    async list(actor: Actor, filter: WearerScopeFilter): Promise<WearerListItem[]> {
      const p = new SqlParams();
      const where = wearerScope(actor, p, filter, 'w');
      return db.query<WearerListItem>(
        `SELECT w.id AS uid, w.name, w.name_reading AS "nameReading", w.organization_id AS "clientId", w.group_id AS "groupId",
                g.name AS "groupName", b.id AS "wearableId", b.device_name AS "deviceName",
                b.serial_number AS "serialNumber", b.gateway_id AS "gatewayId", b.battery
           FROM users w
           LEFT JOIN groups g ON g.id = w.group_id
           LEFT JOIN bracelets b ON b.wearer_id = w.id
          WHERE ${where}`,
        p.values,
      );
    },
  };
}
