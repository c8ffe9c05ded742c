import type { AccessLogEntry } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import {
  accessEntryHash,
  GENESIS_HASH,
  type AccessWhat,
  type ChainHead,
  type StoredAccessEntry,
} from './access-log-chain.js';

export interface ReviewFilter {
  /** undefined: every organisation (platform owners). */
  organizationId: string | undefined;
  personId: string | undefined;
  actorId: string | undefined;
  from: string | undefined;
  to: string | undefined;
  limit: number;
  offset: number;
}

export interface AccessRead {
  organizationId: string;
  actorId: string | null;
  apiTokenId: string | null;
  sessionId: string | null;
  personIds: readonly string[];
  what: AccessWhat;
  ip: string | null;
  at: Date;
}

interface Row {
  organization_id: string;
  seq: string | number;
  at: Date | string;
  actor_id: string | null;
  api_token_id: string | null;
  session_id: string | null;
  person_ids: string[];
  what: string;
  ip: string | null;
  prev_hash: string;
  hash: string;
}

function toEntry(r: Row): StoredAccessEntry {
  return {
    organizationId: r.organization_id,
    seq: Number(r.seq),
    at: new Date(r.at),
    actorId: r.actor_id,
    apiTokenId: r.api_token_id,
    sessionId: r.session_id,
    personIds: r.person_ids,
    what: r.what,
    ip: r.ip,
    prevHash: r.prev_hash,
    hash: r.hash,
  };
}

export function accessLogRepository(db: Queryable) {
  return {
    /**
     * Appends one entry to its organisation's chain. Call it inside a transaction: the upsert
     * locks the organisation's head row until commit, so concurrent appends (any server) queue.
     */
    async append(read: AccessRead): Promise<StoredAccessEntry> {
      const [head] = await db.query<{ seq: string | number; hash: string }>(
        `INSERT INTO access_log_heads (organization_id, seq, hash) VALUES ($1, 0, $2)
         ON CONFLICT (organization_id) DO UPDATE SET seq = access_log_heads.seq
         RETURNING seq, hash`,
        [read.organizationId, GENESIS_HASH],
      );
      const seq = Number(head?.seq ?? 0) + 1;
      const prevHash = head?.hash ?? GENESIS_HASH;
      // The stored time has microseconds; the hash takes milliseconds: keep only those.
      const at = new Date(Math.floor(read.at.getTime()));
      const fields = { ...read, at, seq, personIds: [...read.personIds] };
      const hash = accessEntryHash(fields, prevHash);
      await db.query(
        `INSERT INTO access_log (organization_id, seq, at, actor_id, api_token_id, session_id,
           person_ids, what, ip, prev_hash, hash)
         VALUES ($1, $2, $3, $4, $5, $6, $7::text[], $8, $9, $10, $11)`,
        [
          read.organizationId,
          seq,
          at.toISOString(),
          read.actorId,
          read.apiTokenId,
          read.sessionId,
          fields.personIds,
          read.what,
          read.ip,
          prevHash,
          hash,
        ],
      );
      await db.query(`UPDATE access_log_heads SET seq = $2, hash = $3 WHERE organization_id = $1`, [
        read.organizationId,
        seq,
        hash,
      ]);
      return { ...fields, prevHash, hash };
    },

    /** The organisations that have a chain (or a head: a chain whose every row went is one too). */
    async organizationsWithChains(): Promise<string[]> {
      const rows = await db.query<{ organization_id: string }>(
        `SELECT organization_id FROM access_log_heads
         UNION SELECT DISTINCT organization_id FROM access_log ORDER BY 1`,
      );
      return rows.map((r) => r.organization_id);
    },

    async head(organizationId: string): Promise<Required<ChainHead> | null> {
      const [row] = await db.query<{
        seq: string | number;
        hash: string;
        first_seq: string | number;
        first_prev_hash: string;
      }>(
        `SELECT seq, hash, first_seq, first_prev_hash FROM access_log_heads WHERE organization_id = $1`,
        [organizationId],
      );
      return row
        ? {
            seq: Number(row.seq),
            hash: row.hash,
            firstSeq: Number(row.first_seq),
            firstPrevHash: row.first_prev_hash,
          }
        : null;
    },

    /**
     * Deletes the organisation's entries older than `before`, as a prefix of its chain only (up to
     * the first entry at or after `before`, in seq order), and moves the chain's start there.
     * Call it inside a transaction: the head row is locked until commit. Returns entries deleted.
     */
    async purgeBefore(organizationId: string, before: Date): Promise<number> {
      const [head] = await db.query<{ seq: string | number; first_seq: string | number }>(
        `SELECT seq, first_seq FROM access_log_heads WHERE organization_id = $1 FOR UPDATE`,
        [organizationId],
      );
      if (!head) return 0;
      const [kept] = await db.query<{ seq: string | number | null }>(
        `SELECT min(seq) AS seq FROM access_log WHERE organization_id = $1 AND at >= $2`,
        [organizationId, before.toISOString()],
      );
      const keepFrom =
        kept?.seq === null || kept?.seq === undefined ? Number(head.seq) + 1 : Number(kept.seq);
      if (keepFrom <= Number(head.first_seq)) return 0;
      const [lastGone] = await db.query<{ hash: string }>(
        `SELECT hash FROM access_log WHERE organization_id = $1 AND seq = $2`,
        [organizationId, keepFrom - 1],
      );
      // The entry before the new start is not there (deleted by hand): leave the break for verify.
      if (!lastGone) return 0;
      const deleted = await db.query(
        `DELETE FROM access_log WHERE organization_id = $1 AND seq < $2 RETURNING 1`,
        [organizationId, keepFrom],
      );
      await db.query(
        `UPDATE access_log_heads SET first_seq = $2, first_prev_hash = $3 WHERE organization_id = $1`,
        [organizationId, keepFrom, lastGone.hash],
      );
      return deleted.length;
    },

    /** One organisation's entries in chain order, a page at a time (a chain may be long). */
    async *chain(organizationId: string, pageSize = 5000): AsyncGenerator<StoredAccessEntry> {
      let after = 0;
      for (;;) {
        const rows = await db.query<Row>(
          `SELECT * FROM access_log WHERE organization_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
          [organizationId, after, pageSize],
        );
        for (const r of rows) yield toEntry(r);
        if (rows.length < pageSize) return;
        after = Number(rows[rows.length - 1]?.seq);
      }
    },

    /** The entries that name one person, newest first (tests, and the review page later). */
    async forPerson(organizationId: string, personId: string): Promise<StoredAccessEntry[]> {
      const rows = await db.query<Row>(
        `SELECT * FROM access_log WHERE organization_id = $1 AND $2 = ANY(person_ids)
         ORDER BY seq DESC`,
        [organizationId, personId],
      );
      return rows.map(toEntry);
    },

    /**
     * The review page's rows (newest first): one organisation's or, for platform owners, every one's, filtered by
     * person, actor and period, with the actor's and the people's names (null once erased).
     */
    async review(f: ReviewFilter): Promise<{ entries: AccessLogEntry[]; total: number }> {
      const where: string[] = [];
      const params: unknown[] = [];
      const add = (v: unknown) => {
        params.push(v);
        return `$${params.length}`;
      };
      if (f.organizationId !== undefined)
        where.push(`l.organization_id = ${add(f.organizationId)}`);
      if (f.personId !== undefined) where.push(`${add(f.personId)} = ANY(l.person_ids)`);
      if (f.actorId !== undefined) where.push(`l.actor_id = ${add(f.actorId)}`);
      if (f.from !== undefined) where.push(`l.at >= ${add(f.from)}`);
      if (f.to !== undefined) where.push(`l.at < ${add(f.to)}`);
      const filter = where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`;
      const [count] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM access_log l ${filter}`,
        params,
      );
      const rows = await db.query<{
        organization_id: string;
        seq: string | number;
        at: Date | string;
        actor_id: string | null;
        actor_name: string | null;
        api_token_id: string | null;
        people: { uid: string; name: string | null }[] | string;
        what: string;
        ip: string | null;
      }>(
        `SELECT l.organization_id, l.seq, l.at, l.actor_id, a.name AS actor_name, l.api_token_id, l.what, l.ip,
                (SELECT coalesce(json_agg(json_build_object('uid', p.uid, 'name', u.name) ORDER BY p.n), '[]'::json)
                   FROM unnest(l.person_ids) WITH ORDINALITY AS p(uid, n)
                   LEFT JOIN users u ON u.id = p.uid) AS people
           FROM access_log l LEFT JOIN users a ON a.id = l.actor_id
           ${filter}
          ORDER BY l.at DESC, l.organization_id, l.seq DESC
          LIMIT ${add(f.limit)} OFFSET ${add(f.offset)}`,
        params,
      );
      return {
        total: count?.n ?? 0,
        entries: rows.map((r) => ({
          clientId: r.organization_id,
          seq: Number(r.seq),
          at: new Date(r.at).toISOString(),
          actorId: r.actor_id,
          actorName: r.actor_name,
          apiTokenId: r.api_token_id,
          people:
            typeof r.people === 'string'
              ? (JSON.parse(r.people) as { uid: string; name: string | null }[])
              : r.people,
          what: r.what,
          ip: r.ip,
        })),
      };
    },
  };
}
