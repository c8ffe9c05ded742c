import type { Db, Queryable } from '../client.js';
import { DEMO_ACCOUNTS, DEMO_ORGANIZATIONS } from './demo-data.js';

/**
 * The mark that the demo was removed on purpose, so a start on a database without organisations does
 * not seed it again (kept beside the generated secrets: a per-database fact every server reads).
 */
const REMOVED_MARK = 'demo.removed';

export interface DemoRemoval {
  organizations: number;
  accounts: number;
}

/**
 * Deletes the demo organisations with everything in them (their members, wearers, gateways,
 * readings, alerts, notifications) and the demo platform accounts, in one transaction, and marks the
 * database so the demo is not seeded again at the next start. Other organisations are untouched.
 */
export async function removeDemo(db: Db, now: Date): Promise<DemoRemoval> {
  const organizationIds = DEMO_ORGANIZATIONS.map((o) => o.id);
  const accountIds = DEMO_ACCOUNTS.map((a) => a.id);
  return db.transaction(async (tx) => {
    // The telemetry tables carry organization_id without a foreign key (docs/decisions/0005): each
    // table that has the column is emptied of the demo's rows, then the organisations cascade.
    const tables = await tx.query<{ table: string }>(
      `SELECT c.table_name AS table
         FROM information_schema.columns c
         JOIN pg_class k ON k.relname = c.table_name AND k.relkind IN ('r', 'p')
         JOIN pg_namespace n ON n.oid = k.relnamespace AND n.nspname = c.table_schema
        WHERE c.column_name = 'organization_id' AND c.table_schema = current_schema()
          AND c.table_name <> 'organizations' AND NOT k.relispartition
        ORDER BY 1`,
    );
    const removed = await tx.query<{ n: number }>(
      'WITH d AS (DELETE FROM organizations WHERE id = ANY($1::text[]) RETURNING 1) SELECT count(*)::int AS n FROM d',
      [organizationIds],
    );
    for (const { table } of tables) {
      await tx.query(
        `DELETE FROM "${table.replaceAll('"', '""')}" WHERE organization_id = ANY($1::text[])`,
        [organizationIds],
      );
    }
    const accounts = await tx.query<{ n: number }>(
      'WITH d AS (DELETE FROM users WHERE id = ANY($1::text[]) RETURNING 1) SELECT count(*)::int AS n FROM d',
      [accountIds],
    );
    await markRemoved(tx, now);
    return { organizations: removed[0]?.n ?? 0, accounts: accounts[0]?.n ?? 0 };
  });
}

const markRemoved = (tx: Queryable, now: Date) =>
  tx.query(
    `INSERT INTO server_secrets (name, value) VALUES ($1, $2)
     ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`,
    [REMOVED_MARK, now.toISOString()],
  );

/** Whether the demo was removed from this database on purpose. */
export async function demoWasRemoved(db: Queryable): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM server_secrets WHERE name = $1', [REMOVED_MARK]);
  return rows.length > 0;
}

/** Whether the demo organisation is in this database (the start then says how to remove it). */
export async function demoIsPresent(db: Queryable): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM organizations WHERE id = ANY($1::text[]) LIMIT 1', [
    DEMO_ORGANIZATIONS.map((o) => o.id),
  ]);
  return rows.length > 0;
}
