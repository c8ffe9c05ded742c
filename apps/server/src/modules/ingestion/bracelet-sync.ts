import {
  type ConfigAck,
  configAck,
  type PairingEvent,
  pairingEvent,
  type PendingBraceletConfig,
} from '@wearable/domain';
import { prepared, type Queryable } from '../../db/client.js';
import { firstIssue, type RejectedItem } from './batch-items.js';
import type { IngestionState } from './ingestion-caches.js';
import type { BraceletRow } from './ingestion.repository.js';

/**
 * What a gateway says about its bracelets besides readings: the pairing events (a bracelet it now
 * hears after a link) and the acknowledgements of configuration it applied.
 */
export interface SyncItems {
  pairings: { index: number; item: PairingEvent }[];
  acks: { index: number; item: ConfigAck }[];
}

export function parseSyncItems(
  batch: { pairings?: unknown[]; configAcks?: unknown[] },
  rejected: RejectedItem[],
): SyncItems {
  const parse = <T>(
    list: 'pairings' | 'configAcks',
    items: unknown[] | undefined,
    schema: {
      safeParse(
        v: unknown,
      ):
        | { success: true; data: T }
        | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
    },
  ) =>
    (items ?? []).flatMap((raw, index) => {
      const parsed = schema.safeParse(raw);
      if (parsed.success) return [{ index, item: parsed.data }];
      rejected.push({ list, index, reason: firstIssue(parsed.error, raw) });
      return [];
    });
  return {
    pairings: parse('pairings', batch.pairings, pairingEvent),
    acks: parse('configAcks', batch.configAcks, configAck),
  };
}

/** Refuses sync items of bracelets the gateway's organisation does not have; keeps the others. */
export function resolveSyncItems(
  items: SyncItems,
  bracelets: Map<string, BraceletRow>,
  rejected: RejectedItem[],
) {
  const known = <T extends { serialNumber: string }>(
    list: 'pairings' | 'configAcks',
    entries: { index: number; item: T }[],
  ) =>
    entries.flatMap((e) => {
      const bracelet = bracelets.get(e.item.serialNumber);
      if (bracelet) return [{ ...e, bracelet }];
      rejected.push({ list, index: e.index, reason: `unknown bracelet ${e.item.serialNumber}` });
      return [];
    });
  return { pairings: known('pairings', items.pairings), acks: known('configAcks', items.acks) };
}

/**
 * Completes the pairing of bracelets linked to this gateway that it has now reported (a pairing event,
 * a reading or an event), and records acknowledged configuration. Runs in the batch's transaction.
 * Returns the bracelets whose pairing completed now.
 */
export async function syncBracelets(
  tx: Queryable,
  gatewayId: string,
  reported: BraceletRow[],
  acks: { bracelet: BraceletRow; item: ConfigAck }[],
  now: Date,
): Promise<string[]> {
  let paired: string[] = [];
  const pairing = [
    ...new Set(
      reported.filter((b) => b.gatewayId === gatewayId && b.pairedAt === null).map((b) => b.id),
    ),
  ];
  if (pairing.length) {
    const rows = await tx.query<{ id: string }>(
      `UPDATE bracelets SET paired_at = $3
        WHERE id = ANY($1::text[]) AND gateway_id = $2 AND paired_at IS NULL RETURNING id`,
      [pairing, gatewayId, now],
    );
    paired = rows.map((r) => r.id);
    // The cached rows learn it too, so the next batch does not write it again.
    for (const b of reported) if (pairing.includes(b.id)) b.pairedAt = now;
  }
  for (const { bracelet, item } of acks) {
    await tx.query(
      `UPDATE bracelets SET applied_config_version = $2, applied_duty_cycle = heart_rate_duty_cycle
        WHERE id = $1 AND config_version = $2 AND applied_config_version < $2`,
      [bracelet.id, item.version],
    );
  }
  return paired;
}

/** Run after every batch: parsed once (a named statement on both databases). */
const PENDING_CONFIG = prepared(
  `SELECT serial_number AS "serialNumber", config_version AS version, heart_rate_duty_cycle AS "heartRateDutyCycle"
     FROM bracelets WHERE gateway_id = $1 AND config_version > applied_config_version
    ORDER BY serial_number`,
);

/**
 * A gateway's pending configuration is remembered this long per process: every batch's answer
 * carries it, and it changes only when staff change a bracelet's setting (which emits
 * `bracelet.changed`, clearing it here and, through the cross-server bus, on every server), or when
 * the gateway acknowledges (cleared by the batch that carried the acknowledgement).
 */
export const PENDING_CONFIG_CACHE_MS = 5_000;

/**
 * Configuration the gateway's bracelets should run and it has not acknowledged (partial index:
 * cheap when none), from the cache when fresh: a round trip per batch saved (issue 20).
 */
export async function pendingConfigOf(
  ctx: { db: Queryable; ingestion: IngestionState },
  gatewayId: string,
): Promise<PendingBraceletConfig[]> {
  const cache = ctx.ingestion.pendingConfig;
  const now = Date.now();
  const hit = cache.get(gatewayId);
  if (hit && hit.expires > now) return hit.rows;
  const rows = await ctx.db.query<PendingBraceletConfig>(PENDING_CONFIG, [gatewayId]);
  if (cache.size >= 100_000) cache.clear();
  cache.set(gatewayId, { rows, expires: now + PENDING_CONFIG_CACHE_MS });
  return rows;
}
