import type { Actor, GatewayRefusalsResponse } from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { gatewayRefusalsRepository } from './gateway-refusals.repository.js';
import { nearMiss } from './near-miss.js';

/** What a gateway sent lately that was refused, grouped by reason and serial (every kind of gateway). */
export function gatewayRefusalsService(ctx: AppContext) {
  const repo = gatewayRefusalsRepository(ctx.db);
  const access = accessService(ctx.db);
  return {
    async list(
      actor: Actor,
      gatewayId: string,
      withinMinutes: number,
    ): Promise<GatewayRefusalsResponse> {
      const gateway = await access.require(actor, 'gateway:read', 'gateway', gatewayId);
      // What this server counted since its last write is listed too (another server's within seconds).
      await ctx.gatewayRefusals.flush(gatewayId);
      const rows = await repo.list(
        gatewayId,
        new Date(ctx.now().getTime() - withinMinutes * 60_000),
      );
      // "Did you mean …?" is worked out here, when staff read the list, never per batch.
      const unknown = rows.filter((r) => r.reason === 'UNKNOWN_BRACELET' && r.serial !== '');
      const registered = unknown.length > 0 ? await repo.serialsOf(gateway.organizationId) : [];
      return {
        gatewayId,
        withinMinutes,
        refusals: rows.map((r) => ({
          reason: r.reason,
          serialNumber: r.serial === '' ? null : r.serial,
          list: r.list,
          detail: r.detail,
          count: r.times,
          firstAt: new Date(r.firstAt).toISOString(),
          lastAt: new Date(r.lastAt).toISOString(),
          suggestion:
            r.reason === 'UNKNOWN_BRACELET' && r.serial !== ''
              ? nearMiss(r.serial, registered)
              : null,
        })),
      };
    },
  };
}
