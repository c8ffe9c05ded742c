import { type AlertPolicy, resolveAlertPolicy } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

export function alertPolicyRepository(db: Queryable) {
  return {
    /** The organisation's alert policy, completed with the defaults (no row: all defaults). */
    async loadAlertPolicy(organizationId: string): Promise<AlertPolicy> {
      const rows = await db.query<{ policy: unknown }>(
        'SELECT policy FROM organization_alert_policies WHERE organization_id = $1',
        [organizationId],
      );
      return resolveAlertPolicy(rows[0]?.policy ?? null);
    },

    /** Stores the whole policy (already validated and merged by the caller). */
    async saveAlertPolicy(
      organizationId: string,
      policy: AlertPolicy,
      by: string | null,
      at: Date,
    ): Promise<void> {
      await db.query(
        `INSERT INTO organization_alert_policies (organization_id, policy, updated_at, updated_by)
     VALUES ($1, $2::jsonb, $3, $4)
     ON CONFLICT (organization_id) DO UPDATE
       SET policy = EXCLUDED.policy, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
        [organizationId, JSON.stringify(policy), at, by],
      );
    },

    /** The policy with who changed it last; `updatedAt` and `updatedBy` are null while no row exists. */
    async loadAlertPolicyRecord(organizationId: string): Promise<{
      policy: AlertPolicy;
      updatedAt: string | null;
      updatedBy: { uid: string; name: string } | null;
    }> {
      const rows = await db.query<{
        policy: unknown;
        updated_at: Date | string;
        updated_by: string | null;
        updated_by_name: string | null;
      }>(
        `SELECT p.policy, p.updated_at, p.updated_by, u.name AS updated_by_name
       FROM organization_alert_policies p LEFT JOIN users u ON u.id = p.updated_by
      WHERE p.organization_id = $1`,
        [organizationId],
      );
      const row = rows[0];
      return {
        policy: resolveAlertPolicy(row?.policy ?? null),
        updatedAt: row ? new Date(row.updated_at).toISOString() : null,
        updatedBy: row?.updated_by
          ? { uid: row.updated_by, name: row.updated_by_name ?? '' }
          : null,
      };
    },
  };
}
