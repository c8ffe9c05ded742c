import { prepared, type Queryable } from './client.js';

/**
 * One parameterised SQL statement, to run alone or combined with others in one round trip. Its
 * text is a constant (values go in params): runCombined prepares each combination once per connection.
 */
export interface Statement {
  text: string;
  params: unknown[];
}

/**
 * Runs several independent data-modifying statements (plain INSERT/UPDATE, no WITH of their
 * own) as CTEs of ONE statement: one round trip instead of several, which is what a batch costs
 * on PostgreSQL. Returns the rows of `returning` (which must have a RETURNING clause).
 * They all see the same snapshot, so none may depend on another's writes.
 */
export async function runCombined<T>(
  tx: Queryable,
  statements: (Statement | null)[],
  returning: Statement | null = null,
  /** The transaction's last statement: COMMIT goes with it (Queryable.commitWith). */
  last = false,
): Promise<T[]> {
  const all = statements.filter((s): s is Statement => s !== null);
  if (returning) all.push(returning);
  if (all.length === 0) return [];
  const run = last && tx.commitWith ? tx.commitWith.bind(tx) : tx.query.bind(tx);
  const [only] = all;
  if (all.length === 1 && only) return run<T>(prepared(only.text), only.params);
  const params: unknown[] = [];
  const ctes = all.map((s, i) => {
    const offset = params.length;
    params.push(...s.params);
    const text = s.text.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + offset}`);
    return `s${i} AS (${text})`;
  });
  const final = returning ? `SELECT * FROM s${all.length - 1}` : 'SELECT 1';
  return run<T>(prepared(`WITH ${ctes.join(',\n')}\n${final}`), params);
}
