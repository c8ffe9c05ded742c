import { createHash, timingSafeEqual } from 'node:crypto';
import { GATEWAY_KIND_HTTP, type GatewayKind } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { ApiError, unauthorized } from '../../errors.js';
import {
  type AuthenticatedGateway,
  authenticateGateway,
  parseGatewayAuthorization,
} from '../ingestion/ingestion.service.js';
import { type VendorGatewayRow, vendorGatewaysRepository } from './vendor-gateways.repository.js';

const CACHE_TTL_MS = 30_000;

export interface VendorGateway extends AuthenticatedGateway {
  kind: GatewayKind;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest();

/** A gateway's kind and path-secret hash (cached 30 s; a rotation drops the entry). */
export async function vendorGatewayOf(
  ctx: AppContext,
  gatewayId: string,
): Promise<VendorGatewayRow | null> {
  const cache = ctx.vendorGateways.gateways;
  const hit = cache.get(gatewayId);
  if (hit && hit.expires >= Date.now()) return hit.row;
  const row = await vendorGatewaysRepository(ctx.db).find(gatewayId);
  if (row) cache.set(gatewayId, { row, expires: Date.now() + CACHE_TTL_MS });
  else cache.delete(gatewayId);
  return row;
}

const refused = () => unauthorized('Unknown gateway or wrong credential', 'GATEWAY_UNAUTHORIZED');

/** `Authorization: Basic base64(gatewayId:credential)` or `Gateway gatewayId:credential`. */
export function parseVendorAuthorization(
  header: string | undefined,
): { gatewayId: string; credential: string } | null {
  const basic = /^Basic ([A-Za-z0-9+/=]{1,1024})$/i.exec(header?.trim() ?? '');
  if (basic?.[1]) {
    const text = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = text.indexOf(':');
    if (colon <= 0 || colon === text.length - 1) return null;
    return { gatewayId: text.slice(0, colon), credential: text.slice(colon + 1) };
  }
  return parseGatewayAuthorization(header);
}

/** The gateway must be registered as this kind: its device is configured for this route. */
function checkKind(gateway: AuthenticatedGateway, row: VendorGatewayRow | null, kind: GatewayKind) {
  if (!row) throw refused();
  if (row.kind !== kind) {
    throw new ApiError(
      403,
      'GATEWAY_KIND_MISMATCH',
      `gateway ${gateway.id} is registered as ${row.kind}: send to ${GATEWAY_KIND_HTTP[row.kind].path}`,
    );
  }
  return { ...gateway, kind };
}

/**
 * Authenticates a vendor request by its Authorization header (Basic or Gateway scheme, checked
 * like the native protocol's, throttled per address) and checks the gateway's kind.
 */
export async function authenticateByHeader(
  ctx: AppContext,
  kind: GatewayKind,
  header: string | undefined,
  address: string,
): Promise<VendorGateway> {
  const auth = parseVendorAuthorization(header);
  if (!auth) throw refused();
  const gateway = await authenticateGateway(ctx, auth.gatewayId, auth.credential, address);
  if (!gateway) throw refused();
  return checkKind(gateway, await vendorGatewayOf(ctx, gateway.id), kind);
}

/**
 * Authenticates a request by its secret path segment (devices that can send only a URL). Failed
 * attempts cost tokens of the address's bucket, like wrong credentials.
 */
export async function authenticateByPath(
  ctx: AppContext,
  kind: GatewayKind,
  gatewayId: string,
  pathSecret: string,
  address: string,
): Promise<VendorGateway> {
  if (!gatewayId || gatewayId.length > 128 || !pathSecret || pathSecret.length > 256)
    throw refused();
  const throttle = ctx.ingestion.gatewayThrottle;
  const cached = ctx.vendorGateways.gateways.get(gatewayId);
  let row: VendorGatewayRow | null;
  if (cached && cached.expires >= Date.now()) row = cached.row;
  else {
    await throttle.reserve(address);
    let found = false;
    try {
      row = await vendorGatewayOf(ctx, gatewayId);
      found = row?.pathSecretHash != null;
    } catch (error) {
      found = true; // the database failed, not the device: its token comes back
      throw error;
    } finally {
      throttle.settle(address, found);
    }
  }
  const expected = row?.pathSecretHash;
  if (!row || !expected || !/^[0-9a-f]{64}$/.test(expected)) {
    throw refused();
  }
  if (!timingSafeEqual(sha256(pathSecret), Buffer.from(expected, 'hex'))) {
    throttle.take(address);
    throw refused();
  }
  return checkKind({ id: gatewayId, organizationId: row.organizationId }, row, kind);
}
