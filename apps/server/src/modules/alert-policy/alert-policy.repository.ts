import { type AlertPolicy, resolveAlertPolicy } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

/** The organisation's alert policy, completed with the defaults (no row: all defaults). */
export async function loadAlertPolicy(db: Queryable, organizationId: string): Promise<AlertPolicy> {
  const rows = await db.query<{ policy: unknown }>(
    'SELECT policy FROM organization_alert_policies WHERE organization_id = $1',
    [organizationId],
  );
  return resolveAlertPolicy(rows[0]?.policy ?? null);
}

/** Stores the whole policy (already validated and merged by the caller). */
export async function saveAlertPolicy(
  db: Queryable,
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
}
