import type { Db } from '../../db/client.js';

/**
 * A short in-process cache of who a token belongs to (and of GET /v2/user), so the hot path
 * does not pay PGlite's ~0.2-1 ms per query on every request.
 *
 * Freshness: every write through this process's database (any non-SELECT statement or
 * transaction, whoever issues it: services, the engine, test factories, raw SQL in tests)
 * starts a new generation and so empties the cache; the TTL bounds how long another
 * server's write (several servers on one PostgreSQL) can go unseen.
 */
const TTL_MS = 2_000;
const MAX_ENTRIES = 20_000;
const READ_ONLY = /^\s*(SELECT|SHOW|VALUES)\b/i;

interface Entry {
  value: unknown;
  generation: number;
  expiresAt: number;
}

export class IdentityCache {
  private entries = new Map<string, Entry>();
  private generation = 0;

  /** A cache of this database, emptied by every write issued through it from now on. */
  static watching(db: Db): IdentityCache {
    const cache = new IdentityCache();
    watchWrites(db, cache);
    return cache;
  }

  /** Marks every entry stale. */
  bump(): void {
    this.generation++;
    if (this.entries.size) this.entries.clear();
  }

  /** Loads through the cache; a load that overlapped a write is returned but not kept. */
  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.generation === this.generation && hit.expiresAt > now) return hit.value as T;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation && value !== null) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, { value, generation, expiresAt: now + TTL_MS });
    }
    return value;
  }
}

function watchWrites(db: Db, cache: IdentityCache): void {
  const query = db.query.bind(db);
  const transaction = db.transaction.bind(db);
  // Bumped before (readers must not keep what they read during the write) and after (a
  // pooled reader may have read the pre-commit state).
  const writable = db as { query: Db['query']; transaction: Db['transaction'] };
  writable.query = async (text: string, params?: unknown[]) => {
    if (READ_ONLY.test(text)) return query(text, params);
    cache.bump();
    try {
      return await query(text, params);
    } finally {
      cache.bump();
    }
  };
  writable.transaction = (async (fn: Parameters<Db['transaction']>[0]) => {
    cache.bump();
    try {
      return await transaction(fn);
    } finally {
      cache.bump();
    }
  }) as Db['transaction'];
}
