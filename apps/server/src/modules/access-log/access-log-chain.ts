import { createHash } from 'node:crypto';
import { ACCESS_LOG_WHATS } from '@wearable/domain';

/** What a read showed of the people it names (docs/access-log.md): the domain's list, one for server and web. */
export const ACCESS_WHATS = ACCESS_LOG_WHATS;
export type AccessWhat = (typeof ACCESS_WHATS)[number];

/** One entry's fields, as the chain hashes them. */
export interface AccessEntryFields {
  organizationId: string;
  seq: number;
  at: Date;
  actorId: string | null;
  apiTokenId: string | null;
  sessionId: string | null;
  personIds: readonly string[];
  what: string;
  ip: string | null;
}

/** The hash before an organisation's first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * SHA-256 over a canonical encoding of the entry and the previous entry's hash: a JSON array in a
 * fixed order (no key order to depend on), the time as ISO-8601 in UTC with milliseconds.
 */
export function accessEntryHash(entry: AccessEntryFields, prevHash: string): string {
  const canonical = JSON.stringify([
    1, // the encoding's version
    entry.organizationId,
    entry.seq,
    entry.at.toISOString(),
    entry.actorId,
    entry.apiTokenId,
    entry.sessionId,
    [...entry.personIds],
    entry.what,
    entry.ip,
    prevHash,
  ]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

export interface StoredAccessEntry extends AccessEntryFields {
  prevHash: string;
  hash: string;
}

/** An organisation's head: the chain's last entry, and where it starts (after purges). */
export interface ChainHead {
  seq: number;
  hash: string;
  firstSeq?: number;
  firstPrevHash?: string;
}

export type ChainBreak =
  | { seq: number; problem: 'changed' }
  | { seq: number; problem: 'missing'; expectedSeq: number }
  | { seq: number; problem: 'relinked' }
  | { seq: number; problem: 'head'; headSeq: number };

/**
 * Walks one organisation's entries in seq order and answers the first break: a changed field
 * (its hash does not match), a deleted entry (a gap in seq, or the last ones gone: the head says
 * more), or an entry moved or re-linked (its prev_hash is not the previous entry's hash).
 */
export function findChainBreak(
  entries: Iterable<StoredAccessEntry>,
  head: ChainHead | null,
): ChainBreak | null {
  // After a purge the chain starts later: at firstSeq, linked to the last purged entry's hash.
  let prev = head?.firstPrevHash ?? GENESIS_HASH;
  let expected = head?.firstSeq ?? 1;
  for (const e of entries) {
    if (e.seq !== expected) return { seq: e.seq, problem: 'missing', expectedSeq: expected };
    if (e.prevHash !== prev) return { seq: e.seq, problem: 'relinked' };
    if (accessEntryHash(e, e.prevHash) !== e.hash) return { seq: e.seq, problem: 'changed' };
    prev = e.hash;
    expected += 1;
  }
  const last = expected - 1;
  if (head && (head.seq !== last || (last > 0 && head.hash !== prev))) {
    return { seq: last, problem: 'head', headSeq: head.seq };
  }
  return null;
}
