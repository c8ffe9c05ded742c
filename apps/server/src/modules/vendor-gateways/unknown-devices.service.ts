import type { Actor, UnknownDevicesResponse } from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { braceletsService } from '../bracelets/bracelets.service.js';
import { vendorGatewaysRepository } from './vendor-gateways.repository.js';

/** "Heard, not registered": devices a gateway heard that are no bracelet of its organisation. */
export function unknownDevicesService(ctx: AppContext) {
  const repo = vendorGatewaysRepository(ctx.db);
  const access = accessService(ctx.db);
  const bracelets = braceletsService(ctx);
  return {
    async list(actor: Actor, gatewayId: string): Promise<UnknownDevicesResponse> {
      await access.require(actor, 'gateway:read', 'gateway', gatewayId);
      const cap = ctx.config.unknownDevicesPerGateway;
      // What this server heard since its last write is listed too (another server's within seconds).
      await ctx.vendorGateways.unknownDevices.flush(gatewayId);
      const rows = await repo.listUnknown(gatewayId, cap);
      return {
        gatewayId,
        capacity: cap,
        devices: rows.map((r) => ({
          ...r,
          firstHeardAt: new Date(r.firstHeardAt).toISOString(),
          lastHeardAt: new Date(r.lastHeardAt).toISOString(),
        })),
      };
    },

    /** One click: the heard device becomes a bracelet of the gateway's organisation (serial = its id). */
    async register(actor: Actor, gatewayId: string, deviceId: string) {
      // gateway:read finds the gateway (404 for one the caller does not reach); registering is the bracelets
      // module's bracelet:register, the contract's permission, checked there (decision 0018).
      const gateway = await access.require(actor, 'gateway:read', 'gateway', gatewayId);
      const bracelet = await bracelets.register(actor, {
        mediromOrganizationId: gateway.organizationId,
        serialNumber: deviceId,
      });
      // After the writes already under way, which may still carry it.
      await ctx.vendorGateways.unknownDevices.flush(gatewayId);
      await repo.forgetUnknown(gateway.organizationId, deviceId);
      return bracelet;
    },
  };
}
