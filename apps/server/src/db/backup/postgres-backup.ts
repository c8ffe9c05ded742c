import { spawn } from 'node:child_process';

/**
 * PostgreSQL's own tools do a PostgreSQL database's backup: `pg_dump --format=custom` (one
 * consistent snapshot while the servers run, compressed) and `pg_restore` into an empty database.
 * The connection goes to them through libpq's environment (PGHOST, PGPASSWORD, ...), never on
 * their command line, where any user of the machine could read the password in `ps`.
 */
export class PostgresToolError extends Error {}

/** libpq's environment for a postgres:// URL (the password and TLS settings included). */
export function libpqEnvironment(url: string): Record<string, string> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new PostgresToolError(
      'DATABASE_URL is not a URL (postgres://user:password@host:port/db)',
    );
  }
  const env: Record<string, string> = {};
  const set = (key: string, value: string | null | undefined) => {
    if (value) env[key] = value;
  };
  set('PGHOST', u.hostname.replace(/^\[|\]$/g, '') || u.searchParams.get('host'));
  set('PGPORT', u.port || u.searchParams.get('port'));
  set('PGUSER', decodeURIComponent(u.username));
  set('PGPASSWORD', decodeURIComponent(u.password));
  set('PGDATABASE', decodeURIComponent(u.pathname.replace(/^\//, '')));
  set('PGSSLMODE', u.searchParams.get('sslmode'));
  set('PGSSLROOTCERT', u.searchParams.get('sslrootcert'));
  set('PGSSLCERT', u.searchParams.get('sslcert'));
  set('PGSSLKEY', u.searchParams.get('sslkey'));
  set('PGAPPNAME', 'wearable-console backup');
  return env;
}

/** Runs a PostgreSQL client tool; its error output becomes the error's message. */
export function runPostgresTool(tool: 'pg_dump' | 'pg_restore', args: string[], url: string) {
  return new Promise<void>((resolve, reject) => {
    const {
      PGPASSWORD: _p,
      PGHOST: _h,
      PGDATABASE: _d,
      PGUSER: _u,
      PGPORT: _o,
      ...rest
    } = process.env;
    const child = spawn(tool, args, {
      env: { ...rest, ...libpqEnvironment(url) },
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString('utf8')).slice(-4000);
    });
    child.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new PostgresToolError(
          err.code === 'ENOENT'
            ? `${tool} was not found: install PostgreSQL's client tools of the server's major version or newer (Debian: postgresql-client)`
            : `${tool}: ${err.message}`,
        ),
      ),
    );
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new PostgresToolError(`${tool} failed (${signal ?? `exit ${code}`}): ${errors.trim()}`),
        );
    });
  });
}

/** `pg_dump --format=custom`: the whole database, consistent as of its start. */
export const dumpPostgres = (url: string, file: string) =>
  runPostgresTool(
    'pg_dump',
    ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`],
    url,
  );

/** `pg_restore` into the (empty) database, in one transaction: all of it or nothing. */
export const restorePostgres = (url: string, file: string) =>
  runPostgresTool(
    'pg_restore',
    [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      `--dbname=${libpqDbName(url)}`,
      file,
    ],
    url,
  );

/** pg_restore needs --dbname; the database's name alone (the rest comes from the environment). */
function libpqDbName(url: string): string {
  const name = libpqEnvironment(url).PGDATABASE;
  if (!name) throw new PostgresToolError('DATABASE_URL names no database');
  return name;
}
