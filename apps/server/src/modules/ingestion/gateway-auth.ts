import { createHash, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { findGatewayCredential } from './ingestion.repository.js';

export interface AuthenticatedGateway {
  id: string;
  organizationId: string;
}

/** Credentials change rarely; a rotated or deleted gateway is refused within this time. */
const CACHE_TTL_MS = 30_000;


const sha256 = (s: string) => createHash('sha256').update(s).digest();

/**
 * Checks a gateway id and credential (SHA-256 compared in constant time). Returns null when
 * they do not match, without saying which part was wrong.
 */
export async function authenticateGateway(
  ctx: AppContext,
  gatewayId: string,
  credential: string,
): Promise<AuthenticatedGateway | null> {
  if (!gatewayId || !credential || gatewayId.length > 128 || credential.length > 512) return null;
  // An MQTT user name may carry U+0000, which PostgreSQL text cannot: it is simply no gateway's id.
  if (gatewayId.includes('\u0000')) return null;
  const cache = ctx.ingestion.gateways;
  let entry = cache.get(gatewayId);
  if (!entry || entry.expires < Date.now()) {
    const row = await findGatewayCredential(ctx.db, gatewayId);
    if (!row || !/^[0-9a-f]{64}$/i.test(row.credentialHash)) {
      cache.delete(gatewayId);
      return null;
    }
    entry = {
      organizationId: row.organizationId,
      hash: Buffer.from(row.credentialHash, 'hex'),
      expires: Date.now() + CACHE_TTL_MS,
    };
    cache.set(gatewayId, entry);
  }
  if (!timingSafeEqual(sha256(credential), entry.hash)) return null;
  return { id: gatewayId, organizationId: entry.organizationId };
}

/** Parses `Authorization: Gateway <gatewayId>:<credential>`. */
export function parseGatewayAuthorization(
  header: string | undefined,
): { gatewayId: string; credential: string } | null {
  const match = /^Gateway ([^:\s]+):(\S+)$/.exec(header?.trim() ?? '');
  if (!match?.[1] || !match[2]) return null;
  return { gatewayId: match[1], credential: match[2] };
}

/**
 * A gateway named by an external broker's topic (the broker authenticated it and its ACL
 * limits it to its own topic): only checks that it exists, and finds its organisation.
 */
export async function resolveGateway(
  ctx: AppContext,
  gatewayId: string,
): Promise<AuthenticatedGateway | null> {
  if (!gatewayId || gatewayId.length > 128) return null;
  const cache = ctx.ingestion.gateways;
  const entry = cache.get(gatewayId);
  if (entry && entry.expires >= Date.now())
    return { id: gatewayId, organizationId: entry.organizationId };
  const row = await findGatewayCredential(ctx.db, gatewayId);
  if (!row) return null;
  cache.set(gatewayId, {
    organizationId: row.organizationId,
    hash: Buffer.from(row.credentialHash, 'hex'),
    expires: Date.now() + CACHE_TTL_MS,
  });
  return { id: gatewayId, organizationId: row.organizationId };
}
