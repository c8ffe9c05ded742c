import { createHash, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { demoUsableFrom, isDemoGateway } from '../../db/seed/demo-credentials.js';
import { ApiError } from '../../errors.js';
import type { CachedGateway } from './ingestion-caches.js';
import { ingestionRepository } from './ingestion.repository.js';

export interface AuthenticatedGateway {
  id: string;
  organizationId: string;
  /** `SMARTPHONE` for a phone gateway (its batch results carry the organisation's settings); absent when not looked up. */
  type?: string;
}

/** Credentials change rarely; a rotated or deleted gateway is refused within this time. */
const CACHE_TTL_MS = 30_000;

// One look-up per id at a time: concurrent batches of a gateway not cached wait for the same one.
function lookUp(ctx: AppContext, gatewayId: string): Promise<CachedGateway | null> {
  const { gateways: cache, gatewayLookups: pending } = ctx.ingestion;
  const running = pending.get(gatewayId);
  if (running) return running;
  const entry = ingestionRepository(ctx.db)
    .findGatewayCredential(gatewayId)
    .then((row): CachedGateway | null => {
      if (!row || !/^[0-9a-f]{64}$/i.test(row.credentialHash)) {
        cache.delete(gatewayId);
        return null;
      }
      const cached = {
        organizationId: row.organizationId,
        type: row.type,
        hash: Buffer.from(row.credentialHash, 'hex'),
        expires: Date.now() + CACHE_TTL_MS,
      };
      cache.set(gatewayId, cached);
      return cached;
    })
    .finally(() => pending.delete(gatewayId));
  pending.set(gatewayId, entry);
  return entry;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest();

/**
 * Checks a gateway id and credential (SHA-256 compared in constant time). Returns null when
 * they do not match, without saying which part was wrong. With the client's address, an
 * authentication that may fail (a look-up of an id not cached, a wrong credential) takes a token
 * of that address's bucket first and throws GatewayThrottledError (429) when none is left.
 */
async function checkCredential(
  ctx: AppContext,
  gatewayId: string,
  credential: string,
  address?: string,
): Promise<AuthenticatedGateway | null> {
  if (!gatewayId || !credential || gatewayId.length > 128 || credential.length > 512) return null;
  // An MQTT user name may carry U+0000, which PostgreSQL text cannot: it is simply no gateway's id.
  if (gatewayId.includes('\u0000')) return null;
  const throttle = ctx.ingestion.gatewayThrottle;
  let entry = ctx.ingestion.gateways.get(gatewayId) ?? null;
  if (!entry || entry.expires < Date.now()) {
    // Only a new look-up of an id never seen costs a token: an expired entry is a gateway that
    // exists (its refresh must not wait behind a flood from its own address), and joining a
    // look-up already running costs the database nothing.
    const known = entry !== null;
    if (!known && address !== undefined && !ctx.ingestion.gatewayLookups.has(gatewayId)) {
      await throttle.reserve(address);
      let found = false;
      try {
        entry = await lookUp(ctx, gatewayId);
        found = entry !== null && timingSafeEqual(sha256(credential), entry.hash);
      } catch (error) {
        // The database failed, not the gateway: its token comes back.
        found = true;
        throw error;
      } finally {
        throttle.settle(address, found);
      }
      return found && entry
        ? { id: gatewayId, organizationId: entry.organizationId, type: entry.type }
        : null;
    }
    entry = await lookUp(ctx, gatewayId);
    if (!entry) return null;
  }
  if (!timingSafeEqual(sha256(credential), entry.hash)) {
    // Guessing a known gateway's credential costs no look-up, but is throttled all the same.
    if (address !== undefined) throttle.take(address);
    return null;
  }
  return { id: gatewayId, organizationId: entry.organizationId, type: entry.type };
}

export async function authenticateGateway(
  ctx: AppContext,
  gatewayId: string,
  credential: string,
  address?: string,
): Promise<AuthenticatedGateway | null> {
  const gateway = await checkCredential(ctx, gatewayId, credential, address);
  // The demo's gateway secrets are published: from this machine only unless DEMO_PUBLIC=true.
  if (
    gateway &&
    address !== undefined &&
    isDemoGateway(gateway.id) &&
    !demoUsableFrom(ctx.config.demoPublic, address)
  ) {
    throw new ApiError(
      403,
      'DEMO_GATEWAY_LOCAL_ONLY',
      'The demo gateways accept data only from the machine that runs the server (DEMO_PUBLIC=true allows other machines)',
    );
  }
  return gateway;
}

/** What is wrong with an `Authorization` header before any gateway is looked up. */
export type GatewayAuthorizationProblem = 'missing' | 'wrongScheme' | 'malformed';

/**
 * Reads `Authorization: Gateway <gatewayId>:<credential>`, or names the gateway's own mistake: no
 * header, another scheme (a `Bearer` token where the gateway's id and credential belong), or the
 * Gateway scheme without `<id>:<credential>`. Decided from the header alone: it says nothing of
 * whether a gateway exists (a wrong id or credential is still the one signed-out answer).
 */
export function readGatewayAuthorization(
  header: string | undefined,
): { gatewayId: string; credential: string } | { problem: GatewayAuthorizationProblem } {
  const text = header?.trim() ?? '';
  if (text === '') return { problem: 'missing' };
  const parsed = parseGatewayAuthorization(text);
  if (parsed) return parsed;
  return /^Gateway(?:\s|$)/i.test(text) ? { problem: 'malformed' } : { problem: 'wrongScheme' };
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
    return { id: gatewayId, organizationId: entry.organizationId, type: entry.type };
  const row = await ingestionRepository(ctx.db).findGatewayCredential(gatewayId);
  if (!row) return null;
  cache.set(gatewayId, {
    organizationId: row.organizationId,
    type: row.type,
    hash: Buffer.from(row.credentialHash, 'hex'),
    expires: Date.now() + CACHE_TTL_MS,
  });
  return { id: gatewayId, organizationId: row.organizationId, type: row.type };
}
