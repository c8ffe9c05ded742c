import {
  type Actor,
  gatewaySilenceStep,
  INGESTION_STOPPED_AFTER_MS,
  type IngestionStatusResponse,
} from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { type GatewaySilenceRow, gatewaySilenceRepository } from './gateway-silence.repository.js';

export type { GatewaySilenceRow } from './gateway-silence.repository.js';

/** What one sweep changed: the silences it opened and closed (ids). */
export interface SilenceSweep {
  opened: string[];
  closed: string[];
}

/**
 * Gateway silence alerts (issue 34 item 6; the policy is packages/domain/src/gateway-silence.ts):
 * the leader's sweep opens one per gateway silent for its expected interval and closes it when the
 * gateway is heard again; the notifier asks whether an alert's gateway is silent (inhibition).
 */
export function gatewaySilenceService(ctx: Pick<AppContext, 'db' | 'now'>) {
  return {
    /** One pass over the organisation's (or every) gateway, in one transaction. */
    async sweep(organizationId?: string): Promise<SilenceSweep> {
      const now = ctx.now();
      return ctx.db.transaction(
        async (tx) => {
          const repo = gatewaySilenceRepository(tx);
          const done: SilenceSweep = { opened: [], closed: [] };
          for (const c of await repo.candidates(now, organizationId ?? null)) {
            const step = gatewaySilenceStep({
              type: c.type,
              lastSeenAt: c.last_seen_at,
              longestDutyCycleMinutes: c.longest_duty_cycle,
              openSince: c.open_since,
              now,
            });
            if (step === 'open' && c.last_seen_at) {
              const id = await repo.open(c, c.last_seen_at, now);
              if (id) done.opened.push(id);
            } else if (step === 'close' && c.silence_id) {
              if (await repo.close(c.silence_id, now)) done.closed.push(c.silence_id);
            }
          }
          return done;
        },
        { urgent: false },
      );
    },

    byId: (id: string): Promise<GatewaySilenceRow | undefined> =>
      gatewaySilenceRepository(ctx.db).byId(id),

    /** The open DISCONNECTION alerts of the wearers heard through this gateway (its message covers them). */
    openDisconnectionsOf: (gatewayId: string): Promise<string[]> =>
      gatewaySilenceRepository(ctx.db).openDisconnectionsOf(gatewayId),

    /**
     * Whether the gateway an alert's wearer is heard through is silent: its silence alert is open, or
     * its silence is past the expected interval and the sweep has yet to open it (the engine's tick
     * and the sweep run apart). `silenceId`: the open silence, whose message covers the alert.
     */
    async silenceOfAlert(alertId: string): Promise<{ silent: boolean; silenceId: string | null }> {
      const g = await gatewaySilenceRepository(ctx.db).gatewayOfAlert(alertId);
      if (!g) return { silent: false, silenceId: null };
      if (g.silence_id) {
        const heard =
          g.last_seen_at !== null && g.open_since !== null && g.last_seen_at > g.open_since;
        return { silent: !heard, silenceId: heard ? null : g.silence_id };
      }
      const step = gatewaySilenceStep({
        type: g.type,
        lastSeenAt: g.last_seen_at,
        longestDutyCycleMinutes: g.longest_duty_cycle,
        openSince: null,
        now: ctx.now(),
      });
      return { silent: step === 'open', silenceId: null };
    },

    /**
     * GET ingestionStatus: two indexed reads (the organisation's newest last_seen_at, its open
     * silences), cheap enough for every console to poll each minute.
     */
    async status(actor: Actor, clientId: string): Promise<IngestionStatusResponse> {
      const access = accessService(ctx.db);
      await access.require(actor, 'gateway:read', 'organization', clientId);
      const repo = gatewaySilenceRepository(ctx.db);
      const now = ctx.now();
      const [last, open] = await Promise.all([
        repo.lastHeardOfOrganization(clientId, now),
        repo.openOfOrganization(clientId),
      ]);
      const stopped = last !== null && now.getTime() - last.getTime() >= INGESTION_STOPPED_AFTER_MS;
      return {
        clientId,
        stoppedSince: stopped ? last.toISOString() : null,
        silentGateways: open
          .filter((s) =>
            access.may(actor, 'gateway:read', {
              organizationId: s.organization_id,
              groupIds: s.group_id ? [s.group_id] : [],
            }),
          )
          .map((s) => ({
            id: s.id,
            gatewayId: s.gateway_id,
            gatewayName: s.gateway_name,
            groupId: s.group_id,
            wearerCount: s.wearer_count,
            lastHeardAt: new Date(s.last_heard_at).toISOString(),
            openedAt: new Date(s.opened_at).toISOString(),
          })),
      };
    },
  };
}
