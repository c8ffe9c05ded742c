import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { BackupArchiveError, readBackupArchive } from '../db/backup/backup-archive.js';
import { answerLine, connectControlSocket } from '../db/backup/control-socket.js';
import { copyDatabase, CopyRefusedError, type TableCount } from '../db/backup/copy-database.js';
import { writePgliteBackup } from '../db/backup/pglite-backup.js';
import { dumpPostgres, PostgresToolError, restorePostgres } from '../db/backup/postgres-backup.js';
import { type Db, openPglite, openPostgres } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { CliError } from './cli-error.js';
import { refuseWhileServerRuns } from './embedded-owner.js';

/**
 * backup, restore, verify-backup and move-to-postgres (docs/operations.md, "Backups"). The
 * database is the one the settings name: DATABASE_URL (PostgreSQL, through pg_dump / pg_restore),
 * else the PGlite folder DATA_DIR, backed up by the server running on it (asked through its
 * control socket) or, when none runs, by this process.
 */

const args = (
  argv: string[],
  options: Record<string, { type: 'string' | 'boolean' }>,
  usage: string,
) => {
  try {
    return parseArgs({ args: argv, options, allowPositionals: false }).values;
  } catch (err) {
    throw new CliError(`${(err as Error).message}. Usage: ${usage}`);
  }
};

const hasDatabase = (dataDir: string) => existsSync(join(dataDir, 'PG_VERSION'));
const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** What kind of backup a file is, from its first bytes. */
async function fileKind(file: string): Promise<'pglite' | 'pg_dump'> {
  let head: Buffer;
  try {
    const handle = await open(file, 'r');
    head = Buffer.alloc(5);
    await handle.read(head, 0, 5, 0);
    await handle.close();
  } catch (err) {
    throw new CliError(`Cannot read ${file}: ${(err as Error).message}`);
  }
  if (head[0] === 0x1f && head[1] === 0x8b) return 'pglite';
  if (head.toString('latin1') === 'PGDMP') return 'pg_dump';
  throw new CliError(
    `${file} is neither a backup of the embedded database nor a pg_dump custom-format file`,
  );
}

/** Writes `source` to `file` (through `file.partial`, renamed when whole) while checking it. */
async function keepVerified(source: Readable, file: string) {
  const partial = `${file}.partial`;
  const toFile = new PassThrough();
  const toCheck = new PassThrough();
  source.pipe(toFile);
  source.pipe(toCheck);
  try {
    const [contents] = await Promise.all([
      readBackupArchive(toCheck),
      pipeline(toFile, createWriteStream(partial, { mode: 0o600 })),
    ]);
    renameSync(partial, file);
    return contents;
  } catch (err) {
    source.destroy();
    rmSync(partial, { force: true });
    if (err instanceof BackupArchiveError)
      throw new CliError(`The backup did not complete (${err.message}); nothing was kept.`);
    throw err;
  }
}

export async function backupCommand(argv: string[]): Promise<void> {
  const usage = 'backup --out FILE';
  const { out } = args(argv, { out: { type: 'string' } }, usage);
  if (typeof out !== 'string' || !out) throw new CliError(`Usage: ${usage}`);
  const file = resolve(out);
  if (!existsSync(dirname(file))) throw new CliError(`The folder of ${file} does not exist`);
  const config = loadConfig();
  const t0 = Date.now();
  if (config.databaseUrl) {
    try {
      await dumpPostgres(config.databaseUrl, `${file}.partial`);
      renameSync(`${file}.partial`, file);
    } catch (err) {
      rmSync(`${file}.partial`, { force: true });
      if (err instanceof PostgresToolError) throw new CliError(err.message);
      throw err;
    }
    console.log(
      `Backup written: ${file} (pg_dump custom format, ${megabytes(statSync(file).size)}, ${((Date.now() - t0) / 1000).toFixed(1)} s); consistent as of its start.`,
    );
    return;
  }
  const socket = await connectControlSocket(config.dataDir);
  let contents;
  if (socket) {
    // The server owns the folder: it takes the backup and streams it here.
    const answer = await answerLine(socket, 'backup');
    if (answer.ok !== true) {
      socket.destroy();
      throw new CliError(`The server refused the backup: ${String(answer.error)}`);
    }
    contents = await keepVerified(socket, file);
  } else {
    if (!hasDatabase(config.dataDir))
      throw new CliError(`DATA_DIR ${config.dataDir} holds no database to back up`);
    const db = await openPglite(config.dataDir);
    try {
      const stream = new PassThrough();
      const taking = writePgliteBackup(db, config.dataDir, stream);
      [contents] = await Promise.all([keepVerified(stream, file), taking]);
    } finally {
      await db.close();
    }
  }
  const m = contents.manifest;
  console.log(
    `Backup written: ${file} (${contents.files} files, ${megabytes(contents.bytes)} of data, ${megabytes(statSync(file).size)} compressed, ${((Date.now() - t0) / 1000).toFixed(1)} s${socket ? ', taken by the running server' : ''}); consistent at ${m.consistentAt}, schema ${m.migrations.at(-1) ?? 'none'}.`,
  );
}

async function tableCounts(db: Db): Promise<string> {
  const rows = await db.query<{
    organizations: number;
    users: number;
    bracelets: number;
    readings: number;
    alerts: number;
  }>(
    `SELECT (SELECT count(*) FROM organizations)::bigint AS organizations,
            (SELECT count(*) FROM users)::bigint AS users,
            (SELECT count(*) FROM bracelets)::bigint AS bracelets,
            (SELECT count(*) FROM readings)::bigint AS readings,
            (SELECT count(*) FROM alerts)::bigint AS alerts`,
  );
  const r = rows[0];
  return r
    ? `${r.organizations} organisations, ${r.users} people, ${r.bracelets} bracelets, ${r.readings} readings, ${r.alerts} alerts`
    : 'no rows';
}

/** Extracts a PGlite archive into a new folder, opens it (replaying its WAL) and migrates it. */
async function restorePgliteArchive(
  file: string,
  folder: string,
): Promise<{ db: Db; applied: string[] }> {
  try {
    await readBackupArchive(createReadStream(file), folder);
  } catch (err) {
    if (err instanceof BackupArchiveError)
      throw new CliError(`${file} cannot be restored: ${err.message}`);
    throw err;
  }
  const db = await openPglite(folder);
  try {
    return { db, applied: await migrate(db) };
  } catch (err) {
    await db.close();
    throw err;
  }
}

export async function restoreCommand(argv: string[]): Promise<void> {
  const usage = 'restore --in FILE';
  const values = args(argv, { in: { type: 'string' } }, usage);
  if (typeof values.in !== 'string' || !values.in) throw new CliError(`Usage: ${usage}`);
  const file = resolve(values.in);
  const kind = await fileKind(file);
  const config = loadConfig();
  if (config.databaseUrl) {
    const target = await openPostgres(config.databaseUrl, 1);
    try {
      const [tables] = await target.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`,
      );
      if ((tables?.n ?? 0) > 0)
        throw new CliError(
          'The database DATABASE_URL names already has tables: restore into a new, empty database (CREATE DATABASE ...) and point DATABASE_URL at it',
        );
    } finally {
      await target.close();
    }
    if (kind === 'pg_dump') {
      try {
        await restorePostgres(config.databaseUrl, file);
      } catch (err) {
        if (err instanceof PostgresToolError) throw new CliError(err.message);
        throw err;
      }
      const db = await openPostgres(config.databaseUrl, 1);
      try {
        const applied = await migrate(db);
        console.log(
          `Restored ${file} into PostgreSQL${applied.length ? `, then migrated (${applied.join(', ')})` : ''}: ${await tableCounts(db)}.`,
        );
      } finally {
        await db.close();
      }
      return;
    }
    // A backup of the embedded database restored into PostgreSQL: through a scratch folder.
    const scratch = mkdtempSync(join(dirname(file), '.restore-'));
    try {
      const { db: source } = await restorePgliteArchive(file, join(scratch, 'db'));
      const target2 = await openPostgres(config.databaseUrl, 2);
      try {
        const counts = await copyDatabase(source, target2);
        reportCounts(counts);
        console.log(`Restored ${file} into PostgreSQL: ${await tableCounts(target2)}.`);
      } finally {
        await target2.close();
        await source.close();
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    return;
  }
  if (kind === 'pg_dump')
    throw new CliError(
      `${file} is a pg_dump file: restore it into PostgreSQL (set DATABASE_URL to an empty database)`,
    );
  await refuseWhileServerRuns(config, 'restoring into its folder');
  if (existsSync(config.dataDir) && readdirSync(config.dataDir).length > 0)
    throw new CliError(
      `DATA_DIR ${config.dataDir} is not empty: move it away first (mv ${config.dataDir} ${config.dataDir}.old), then restore`,
    );
  // Into a folder beside it, renamed when whole: a failed restore leaves DATA_DIR as it was.
  const building = `${config.dataDir}.restoring-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  try {
    const { db, applied } = await restorePgliteArchive(file, building);
    const summary = await tableCounts(db);
    await db.close();
    rmSync(config.dataDir, { recursive: true, force: true });
    renameSync(building, config.dataDir);
    console.log(
      `Restored ${file} into ${config.dataDir}${applied.length ? `, then migrated (${applied.join(', ')})` : ''}: ${summary}.`,
    );
  } catch (err) {
    rmSync(building, { recursive: true, force: true });
    throw err;
  }
}

export async function verifyBackupCommand(argv: string[]): Promise<void> {
  const usage = 'verify-backup --in FILE';
  const values = args(argv, { in: { type: 'string' } }, usage);
  if (typeof values.in !== 'string' || !values.in) throw new CliError(`Usage: ${usage}`);
  const file = resolve(values.in);
  const kind = await fileKind(file);
  if (kind === 'pg_dump')
    throw new CliError(
      'A pg_dump file is verified by restoring it into a scratch database: createdb scratch && DATABASE_URL=postgres://…/scratch npm run cli -- restore --in FILE (docs/operations.md)',
    );
  // Restored for real into a scratch folder, opened, counted, thrown away.
  const scratch = mkdtempSync(join(dirname(file), '.verify-'));
  try {
    const contents = await readBackupArchive(createReadStream(file)).catch((err: unknown) => {
      if (err instanceof BackupArchiveError)
        throw new CliError(`${file} is not a whole backup: ${err.message}`);
      throw err;
    });
    const { db, applied } = await restorePgliteArchive(file, join(scratch, 'db'));
    try {
      const [latest] = await db.query<{ at: Date | null }>('SELECT max(at) AS at FROM readings');
      console.log(
        `${file} restores: ${contents.files} files, consistent at ${contents.manifest.consistentAt}, schema ${contents.manifest.migrations.at(-1) ?? 'none'}${applied.length ? ` (this release migrates it further: ${applied.length} migrations)` : ''}; ${await tableCounts(db)}; latest reading ${latest?.at ? new Date(latest.at).toISOString() : 'none'}.`,
      );
    } finally {
      await db.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function reportCounts(counts: TableCount[]): void {
  const wrong = counts.filter((c) => c.source !== c.target);
  const rows = counts.reduce((n, c) => n + c.source, 0);
  console.log(`Copied ${counts.length} tables, ${rows} rows; every table counted on both sides.`);
  if (wrong.length)
    throw new CliError(
      `Row counts differ: ${wrong.map((c) => `${c.table} ${c.source} -> ${c.target}`).join(', ')}`,
    );
}

export async function moveToPostgresCommand(argv: string[]): Promise<void> {
  args(
    argv,
    {},
    'move-to-postgres   (DATA_DIR: the embedded database; DATABASE_URL: the new, empty PostgreSQL database)',
  );
  const config = loadConfig();
  if (!config.databaseUrl)
    throw new CliError(
      'Set DATABASE_URL to the new, empty PostgreSQL database; DATA_DIR names the embedded one to move (docs/operations.md)',
    );
  await refuseWhileServerRuns(
    { dataDir: config.dataDir, databaseUrl: undefined },
    'moving its database',
  );
  if (!hasDatabase(config.dataDir))
    throw new CliError(`DATA_DIR ${config.dataDir} holds no database to move`);
  const source = await openPglite(config.dataDir);
  const target = await openPostgres(config.databaseUrl, 2);
  try {
    const counts = await copyDatabase(source, target, (line) => console.log(line));
    reportCounts(counts);
    console.log(
      `Moved into PostgreSQL: ${await tableCounts(target)}. Start the server with this DATABASE_URL; keep DATA_DIR until you have checked the console.`,
    );
  } catch (err) {
    if (err instanceof CopyRefusedError) throw new CliError(err.message);
    throw err;
  } finally {
    await target.close();
    await source.close();
  }
}
