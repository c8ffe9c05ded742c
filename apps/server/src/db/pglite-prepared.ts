import { type PGlite, parse, protocol } from '@electric-sql/pglite';

/** A statement's constant text and its name (client.ts `prepared`). */
type PreparedSql = { readonly text: string; readonly name: string };

/**
 * Named prepared statements on PGlite, for the `prepared(...)` statements run on every batch.
 * PGlite's `query` sends each statement unnamed (Parse, Describe, Bind, Describe, Execute, Sync),
 * so PostgreSQL parses it again every time and plans it at every Bind; on the gateway-cost bench
 * that was about half of the time spent inside PGlite (bench/RESULTS.md). Here a statement is
 * parsed once per database and each run is Bind, Describe, Execute, Sync: PostgreSQL's plan cache
 * then decides between custom and generic plans as it does for node-postgres' named statements.
 * Results are read with PGlite's own parsers, as its `query` does.
 */

/** Beyond this many distinct texts, statements run unnamed (each named one stays in the backend). */
const MAX_NAMED = 500;

/** PGlite's internals this reads, all public members of its class in 0.5. */
interface PGliteInternals {
  serializers: Record<number, (value: unknown) => string>;
  parsers: Parameters<typeof parse.parseResults>[1];
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  execProtocolStream(
    message: Uint8Array,
    options?: { syncToFs?: boolean },
  ): Promise<Parameters<typeof parse.parseResults>[0]>;
  syncToFs(): Promise<void>;
}

export interface PreparedRunner {
  /** Runs `sql` as a named statement; `inTransaction`: inside `lite.transaction` (its own lock held). */
  run<T>(sql: PreparedSql, params: unknown[] | undefined, inTransaction: boolean): Promise<T[]>;
  /** Whether `sql` can take this path now (false: run it with `lite.query`). */
  accepts(sql: PreparedSql): boolean;
}

export function preparedRunner(lite: PGlite): PreparedRunner {
  const pg = lite as unknown as PGliteInternals;
  const { serialize } = protocol;
  /** Statement name -> the parameter type ids PostgreSQL inferred when it was parsed. */
  const named = new Map<string, number[]>();
  const exec = (message: Uint8Array) => pg.execProtocolStream(message, { syncToFs: false });

  async function prepare(sql: PreparedSql): Promise<number[]> {
    const known = named.get(sql.name);
    if (known) return known;
    await exec(serialize.parse({ name: sql.name, text: sql.text }));
    try {
      const types = parse.parseDescribeStatementResults(
        await exec(serialize.describe({ type: 'S', name: sql.name })),
      );
      named.set(sql.name, types);
      return types;
    } catch (error) {
      // Not kept: closed, so the next attempt can parse it under the same name.
      await exec(serialize.close({ type: 'S', name: sql.name })).catch(() => undefined);
      throw error;
    }
  }

  return {
    accepts: (sql) => named.has(sql.name) || named.size < MAX_NAMED,
    run: <T>(sql: PreparedSql, params: unknown[] = [], inTransaction: boolean) =>
      pg._runExclusiveQuery(async () => {
        const messages: Awaited<ReturnType<PGliteInternals['execProtocolStream']>> = [];
        try {
          const types = await prepare(sql);
          // As PGlite's query serialises parameters: by the type PostgreSQL inferred.
          const values = params.map((value, i) => {
            if (value === null || value === undefined) return null;
            const serializer = pg.serializers[types[i] ?? 0];
            // Anything else PGlite writes as text, as its query does.
            return serializer
              ? serializer(value)
              : (value as string | number | bigint | boolean).toString();
          });
          messages.push(
            ...(await exec(serialize.bind({ statement: sql.name, values }))),
            ...(await exec(serialize.describe({ type: 'P' }))),
            ...(await exec(serialize.execute({}))),
          );
        } finally {
          messages.push(...(await exec(serialize.sync())));
        }
        if (!inTransaction) await pg.syncToFs();
        return (parse.parseResults(messages, pg.parsers)[0]?.rows ?? []) as T[];
      }),
  };
}
