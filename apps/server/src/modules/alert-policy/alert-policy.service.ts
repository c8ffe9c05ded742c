import {
  type Actor,
  ALERT_POLICY_DEFAULTS,
  alertPolicy,
  type AlertPolicy,
  type AlertPolicyPatch,
  type AlertPolicyResponse,
} from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { ApiError } from '../../errors.js';
import { auditService } from '../audit/audit.service.js';
import { alertPolicyRepository } from './alert-policy.repository.js';

async function view(db: Queryable, organizationId: string): Promise<AlertPolicyResponse> {
  const record = await alertPolicyRepository(db).loadAlertPolicyRecord(organizationId);
  return { organizationId, ...record, defaults: { ...ALERT_POLICY_DEFAULTS } };
}

/**
 * The organisation's alert policy (issue 14): read by its staff, changed by its owners. A change
 * merges over the stored policy, validates the whole and is audited with the policy before and after.
 */
export function alertPolicyService(ctx: AppContext) {
  const access = accessService(ctx.db);

  return {
    /**
     * The organisation's alert policy, completed with the defaults (no row: all defaults), read with
     * `db`: the caller's transaction or the database (notices, site heat, a phone's settings).
     */
    load: (db: Queryable, organizationId: string): Promise<AlertPolicy> =>
      alertPolicyRepository(db).loadAlertPolicy(organizationId),

    async get(actor: Actor, organizationId: string): Promise<AlertPolicyResponse> {
      await access.require(actor, 'alertPolicy:read', 'organization', organizationId);
      return view(ctx.db, organizationId);
    },

    async update(
      actor: Actor,
      organizationId: string,
      patch: AlertPolicyPatch,
    ): Promise<AlertPolicyResponse> {
      await access.require(actor, 'alertPolicy:update', 'organization', organizationId);
      await ctx.db.transaction(async (tx) => {
        const txAlertPolicy = alertPolicyRepository(tx);
        // The organisation's row lock: two changes take turns, so neither merges over a stale policy.
        await tx.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [organizationId]);
        const before = await txAlertPolicy.loadAlertPolicy(organizationId);
        const merged = alertPolicy.safeParse({ ...before, ...patch });
        if (!merged.success) {
          const issues = merged.error.issues.map((i) => ({
            path: ['body', ...i.path.map(String)].join('.'),
            message: i.message,
          }));
          const message = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
          throw new ApiError(400, 'VALIDATION_FAILED', message, issues);
        }
        await txAlertPolicy.saveAlertPolicy(organizationId, merged.data, actor.uid, ctx.now());
        await auditService(tx).record({
          organizationId,
          actorId: actor.uid,
          kind: 'alertPolicy.update',
          targetId: organizationId,
          before,
          after: merged.data,
        });
      });
      // The site heat level reads the policy through a 30 s cache: this server forgets it now
      // (another server's copy lasts at most those 30 s).
      ctx.siteHeat.policies.delete(organizationId);
      return view(ctx.db, organizationId);
    },
  };
}
