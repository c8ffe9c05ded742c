/** PostgreSQL error codes meaning "the database is not reachable right now", not "the query is wrong". */
const UNAVAILABLE_CODES = new Set([
  '57P01', // admin_shutdown (pg_terminate_backend, a restart)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '53300', // too_many_connections
]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
const MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'is not currently accepting connections',
  'the database system is',
  'Cannot use a pool after calling end',
  // pg's client-side query_timeout (db/client.ts): the database did not answer in time (a cut).
  'Query read timeout',
];

/**
 * True when an error says the database is gone for now (connection refused or dropped, server
 * shutting down or refusing connections): callers answer 503 with Retry-After, not 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (UNAVAILABLE_CODES.has(code) || NETWORK_CODES.has(code) || code.startsWith('08')) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  if (MESSAGES.some((m) => message.includes(m))) return true;
  // AggregateError (a refused connection to both ::1 and 127.0.0.1).
  return Array.isArray(e.errors) && e.errors.some(isDatabaseUnavailable);
}

/** Seconds a client is asked to wait before retrying while the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;
