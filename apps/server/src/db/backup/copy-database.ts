import type { Db, Queryable } from '../client.js';
import { migrate } from '../migrate.js';

/**
 * The embedded default grows up: every row of one database (the PGlite folder) copied into an
 * empty PostgreSQL database, both first migrated to this release's schema, then every table's rows
 * counted on both sides. The copy is one transaction on the target: all of it or nothing.
 *
 * Rows travel as PostgreSQL's own JSON of the row (row_to_json, read back by
 * json_populate_recordset), so every type keeps its exact value (timestamps, float4, jsonb, bytea,
 * arrays). The target's user triggers are off during the copy (the serial-normalising trigger
 * would rewrite serials the source kept on purpose), its time partitions of readings are those of
 * the source, and its sequences and identities continue where the source's stopped.
 */
export class CopyRefusedError extends Error {}

export interface TableCount {
  table: string;
  source: number;
  target: number;
}

const BATCH_ROWS = 2_000;
const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Tables of the public schema (partitions are reached through their parent), parents first. */
async function tablesInOrder(db: Queryable): Promise<string[]> {
  const tables = (
    await db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        ORDER BY c.relname`,
    )
  ).map((r) => r.name);
  const refs = await db.query<{ child: string; parent: string }>(
    `SELECT DISTINCT c.relname AS child, p.relname AS parent
       FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE k.contype = 'f' AND n.nspname = 'public' AND NOT c.relispartition AND c.oid <> p.oid`,
  );
  const parentsOf = new Map<string, Set<string>>(tables.map((t) => [t, new Set()]));
  for (const r of refs) parentsOf.get(r.child)?.add(r.parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const visit = (t: string) => {
    if (placed.has(t)) return;
    if (visiting.has(t)) throw new Error(`foreign keys form a cycle through ${t}`);
    visiting.add(t);
    for (const p of parentsOf.get(t) ?? []) visit(p);
    visiting.delete(t);
    placed.add(t);
    ordered.push(t);
  };
  for (const t of tables) visit(t);
  return ordered;
}

/** The columns a row is written with (generated ones are computed by the target). */
async function writableColumns(db: Queryable, table: string): Promise<string[]> {
  return (
    await db.query<{ name: string }>(
      `SELECT attname AS name FROM pg_attribute
        WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
        ORDER BY attnum`,
      [`public.${ident(table)}`],
    )
  ).map((r) => r.name);
}

const count = async (db: Queryable, table: string) =>
  (await db.query<{ n: number }>(`SELECT count(*)::bigint AS n FROM public.${ident(table)}`))[0]
    ?.n ?? 0;

export async function copyDatabase(
  source: Db,
  target: Db,
  progress: (line: string) => void = () => undefined,
): Promise<TableCount[]> {
  const existing = await target.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')`,
  );
  if ((existing[0]?.n ?? 0) > 0)
    throw new CopyRefusedError(
      'the target database already has tables: move into a new, empty database (CREATE DATABASE ...)',
    );
  await migrate(source);
  await migrate(target);
  const tables = (await tablesInOrder(source)).filter((t) => t !== 'schema_migrations');
  const targetTables = new Set(await tablesInOrder(target));
  const missing = tables.filter((t) => !targetTables.has(t));
  if (missing.length) throw new Error(`the target lacks tables ${missing.join(', ')}`);

  const partitions = await source.query<{ child: string; parent: string; bound: string }>(
    `SELECT c.relname AS child, p.relname AS parent, pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relispartition AND c.relkind IN ('r', 'p')
      ORDER BY c.relname`,
  );
  const sequences = await source.query<{ name: string; value: number | null }>(
    `SELECT sequencename AS name, last_value AS value FROM pg_sequences WHERE schemaname = 'public'`,
  );

  await source.transaction(async (from) => {
    await from.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    await target.transaction(async (to) => {
      for (const p of partitions)
        await to.query(
          `CREATE TABLE IF NOT EXISTS public.${ident(p.child)} PARTITION OF public.${ident(p.parent)} ${p.bound}`,
        );
      // Rows the migrations themselves wrote (reference data) come again from the source.
      await to.query(`TRUNCATE ${tables.map((t) => `public.${ident(t)}`).join(', ')}`);
      for (const table of tables) {
        const columns = await writableColumns(to, table);
        const list = columns.map(ident).join(', ');
        await to.query(`ALTER TABLE public.${ident(table)} DISABLE TRIGGER USER`);
        await from.query(
          `DECLARE copy_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS j FROM public.${ident(table)} t`,
        );
        let copied = 0;
        for (;;) {
          const rows = await from.query<{ j: string }>(`FETCH ${BATCH_ROWS} FROM copy_rows`);
          if (rows.length === 0) break;
          await to.query(
            `INSERT INTO public.${ident(table)} (${list}) OVERRIDING SYSTEM VALUE
             SELECT ${list} FROM json_populate_recordset(NULL::public.${ident(table)}, $1::json)`,
            [`[${rows.map((r) => r.j).join(',')}]`],
          );
          copied += rows.length;
          if (copied % 100_000 === 0) progress(`  ${table}: ${copied} rows`);
        }
        await from.query('CLOSE copy_rows');
        await to.query(`ALTER TABLE public.${ident(table)} ENABLE TRIGGER USER`);
        progress(`${table}: ${copied} rows`);
      }
      for (const s of sequences)
        await to.query(
          s.value === null
            ? 'SELECT setval($1::regclass, 1, false)'
            : 'SELECT setval($1::regclass, $2, true)',
          s.value === null ? [`public.${ident(s.name)}`] : [`public.${ident(s.name)}`, s.value],
        );
    });
  });

  const counts: TableCount[] = [];
  for (const table of tables)
    counts.push({ table, source: await count(source, table), target: await count(target, table) });
  return counts;
}
