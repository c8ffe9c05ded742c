import {
  type Actor,
  ageOn,
  alertSettings,
  type AlertSettings,
  type AlertSettingsPatch,
  KIND_ALERT_DEFAULTS,
  mergeAlertSettings,
  organizationKindOf,
  resolveAlertSettings,
  type WearerAlertSettings,
} from '@wearable/domain';
import { ZodError } from 'zod';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { accessService, notFoundError } from '../../access/access.service.js';
import { ApiError } from '../../errors.js';
import type { WearerScopeFilter } from '../../access/scope-sql.js';
import { auditService } from '../audit/audit.service.js';
import { alertSettingsRepository, type WearerSettingsRow } from './alert-settings.repository.js';

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/**
 * Stored settings may predate a new field or hold an old bad value: fall back to defaults. A wearer
 * with none stored has the defaults of their organisation's kind (a care home: no WBGT heat rule).
 */
function storedSettings(raw: unknown, kind: string): AlertSettings {
  const defaults = KIND_ALERT_DEFAULTS[organizationKindOf(kind)];
  const parsed = alertSettings.safeParse(raw ?? defaults);
  return parsed.success ? parsed.data : alertSettings.parse(defaults);
}

function view(r: WearerSettingsRow, now: Date): WearerAlertSettings {
  const settings = storedSettings(r.settings, r.kind);
  const age = r.birth_date ? ageOn(String(r.birth_date), now) : null;
  const resolved = resolveAlertSettings(settings, age);
  return {
    uid: r.uid,
    name: r.name,
    clientId: r.organization_id,
    groupId: r.group_id,
    groupName: r.group_name,
    age,
    maxHeartRate: resolved.maxHeartRate,
    effectiveHeartRateUpper: resolved.heartRateUpper,
    settings,
    updatedAt: iso(r.updated_at),
  };
}

export function alertSettingsService(ctx: AppContext) {
  return {
    async listAlertSettings(
      actor: Actor,
      filter: WearerScopeFilter,
      uids?: string[],
    ): Promise<{ settings: WearerAlertSettings[] }> {
      const now = ctx.now();
      return {
        settings: (await alertSettingsRepository(ctx.db).wearerSettings(actor, filter, uids)).map(
          (r) => view(r, now),
        ),
      };
    },

    /**
     * Applies one patch to each wearer, all or nothing: every wearer must exist in the client
     * (for the actor), be writable, and the merged result must be valid, before anything is saved.
     * The engine reads the stored settings on the wearer's next input.
     */
    async patchAlertSettings(
      actor: Actor,
      clientId: string,
      uids: string[],
      patch: AlertSettingsPatch,
      fieldPrefix: string,
    ): Promise<{ settings: WearerAlertSettings[] }> {
      const unique = [...new Set(uids)];
      const now = ctx.now();
      // Read, merge and save in one transaction holding the wearers' row locks: two patches of different
      // fields at once each merged into the same old settings and the later save dropped the other's change.
      await ctx.db.transaction(async (tx) => {
        const merged = await mergeAll(tx, actor, clientId, unique, patch, fieldPrefix);
        for (const [uid, { before, after }] of merged) {
          await alertSettingsRepository(tx).saveSettings(uid, after, actor.uid, now);
          await auditService(tx).record({
            organizationId: clientId,
            actorId: actor.uid,
            kind: 'alertSettings.update',
            targetId: uid,
            before,
            after,
          });
        }
      });
      const saved = await alertSettingsRepository(ctx.db).wearerSettings(
        actor,
        { organizationId: clientId },
        unique,
      );
      return { settings: saved.map((r) => view(r, now)) };
    },

    /** The bulk change's preview: how many wearers' settings it would change, checked as the change is, writing nothing. */
    async previewAlertSettings(
      actor: Actor,
      clientId: string,
      uids: string[],
      patch: AlertSettingsPatch,
    ): Promise<{ changed: number; unchanged: number; changedUids: string[] }> {
      const unique = [...new Set(uids)];
      const merged = await mergeAll(ctx.db, actor, clientId, unique, patch, 'body.settings');
      const changedUids = [...merged]
        .filter(([, m]) => JSON.stringify(m.before) !== JSON.stringify(m.after))
        .map(([uid]) => uid);
      return {
        changed: changedUids.length,
        unchanged: unique.length - changedUids.length,
        changedUids,
      };
    },
  };
}

/** Each wearer's stored settings and the patch merged over them; 404/403/400 as the change itself. */
async function mergeAll(
  tx: Queryable,
  actor: Actor,
  clientId: string,
  unique: string[],
  patch: AlertSettingsPatch,
  fieldPrefix: string,
): Promise<Map<string, { before: AlertSettings; after: AlertSettings }>> {
  await alertSettingsRepository(tx).lockWearers(unique);
  const rows = await alertSettingsRepository(tx).wearerSettings(
    actor,
    { organizationId: clientId },
    unique,
  );
  const byId = new Map(rows.map((r) => [r.uid, r]));
  const merged = new Map<string, { before: AlertSettings; after: AlertSettings }>();
  // 404 for a wearer the actor cannot reach (or of another client), 403 for one they may not change.
  const located = await accessService(tx).requireAll(
    actor,
    'alertSettings:update',
    'wearer',
    unique,
  );
  for (const uid of unique) {
    const row = byId.get(uid);
    if (!row || located.get(uid)?.organizationId !== clientId) throw notFoundError('wearer', uid);
    const before = storedSettings(row.settings, row.kind);
    try {
      merged.set(uid, { before, after: mergeAlertSettings(before, patch) });
    } catch (err) {
      if (!(err instanceof ZodError)) throw err;
      const issues = err.issues.map((i) => ({
        path: [fieldPrefix, ...i.path.map(String)].join('.'),
        message: `${i.message} (wearer ${uid})`,
      }));
      throw new ApiError(
        400,
        'VALIDATION_FAILED',
        issues.map((i) => `${i.path}: ${i.message}`).join('; '),
        issues,
      );
    }
  }
  return merged;
}
