import { readdirSync, readFileSync } from 'node:fs';
import type { Db } from './client.js';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);

/** Applies every not-yet-applied NNN_name.sql in order, each in its own transaction. */
export async function migrate(db: Db): Promise<string[]> {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort();
  await db.query(
    `CREATE TABLE IF NOT EXISTS schema_migrations (
       version text PRIMARY KEY,
       applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    // Several servers starting at once on one PostgreSQL: one migrates, the others wait.
    if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(7261001)');
    const done = new Set(
      (await tx.query<{ version: string }>('SELECT version FROM schema_migrations')).map(
        (r) => r.version,
      ),
    );
    for (const file of files) {
      const version = file.slice(0, -4);
      if (done.has(version)) continue;
      const sql = readFileSync(new URL(file, MIGRATIONS_DIR), 'utf8');
      await tx.exec(sql);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
      applied.push(version);
    }
  });
  return applied;
}
