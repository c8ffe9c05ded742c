import { once } from 'node:events';
import { type FileHandle, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import type { Db } from '../client.js';
import {
  BACKUP_END,
  BACKUP_FORMAT,
  BACKUP_MANIFEST,
  type BackupManifest,
} from './backup-format.js';
import { CONTROL_SOCKET } from './control-socket.js';

/**
 * An online base backup of the embedded database, taken by the process that has it open (the
 * running server, asked through its control socket, or the CLI when no server runs): PostgreSQL's
 * own non-exclusive backup (pg_backup_start / pg_backup_stop), so reading and writing go on while
 * the files are copied. A temporary replication slot keeps the WAL from the start until the copy
 * has it; restoring replays that WAL to the end of the backup (backup_label), which makes the copy
 * consistent at the moment pg_backup_stop returned (`consistentAt`).
 *
 * The archive (a gzipped tar, read by backup-archive.ts): `backup.json` (BackupManifest), the
 * folder under `pgdata/` (PostgreSQL's files and the server's own: mail/, sms/), the WAL segments
 * from the start to the end of the backup, `pgdata/backup_label`, and `backup-end.json` last: an
 * archive without it was cut short.
 */

/** Files never copied (PostgreSQL's list for base backups, and this product's socket). */
const SKIPPED_FILES = new Set([
  'postmaster.pid',
  'postmaster.opts',
  'backup_label',
  'tablespace_map',
  CONTROL_SOCKET,
]);
/** Folders whose contents are rebuilt at start (kept empty); pg_wal is copied after the stop. */
const EMPTIED_FOLDERS = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
]);
const skippedName = (name: string) => name === 'pg_internal.init' || name.startsWith('pgsql_tmp');

const CHUNK = 1 << 20;

/** One backup at a time per process: PostgreSQL allows one non-exclusive backup per session. */
let running = false;

export class BackupBusyError extends Error {}

export const backupRunning = (): boolean => running;

export interface BackupResult {
  manifest: BackupManifest;
  files: number;
  /** Bytes of the files copied (before compression). */
  bytes: number;
}

export async function writePgliteBackup(
  db: Db,
  dataDir: string,
  out: Writable,
  now: () => Date = () => new Date(),
): Promise<BackupResult> {
  if (running) throw new BackupBusyError('a backup of this database is already running');
  running = true;
  const slot = `backup_${process.pid}_${Date.now()}`;
  const pack = tar.pack();
  const written = pipeline(pack, createGzip({ level: 6 }), out);
  // A failure of the output (disk full, the CLI gone) must stop the copy, not hang it.
  let outputError: Error | undefined;
  written.catch(
    (err: unknown) => (outputError = err instanceof Error ? err : new Error(String(err))),
  );
  let files = 0;
  let bytes = 0;
  let started = false;
  try {
    const migrations = (
      await db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version')
    ).map((r) => r.version);
    // The slot first: it holds every WAL segment from here until it is dropped.
    await db.query('SELECT pg_create_physical_replication_slot($1, true, true)', [slot]);
    const startedAt = now();
    await db.query('SELECT pg_backup_start($1, true)', [
      `wearable-console ${startedAt.toISOString()}`,
    ]);
    started = true;

    const addFile = async (relative: string): Promise<void> => {
      if (outputError) throw outputError;
      let handle: FileHandle;
      try {
        handle = await open(join(dataDir, relative), 'r');
      } catch (err) {
        // Deleted since it was listed (a dropped table, a removed mail): the WAL replay agrees.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      try {
        const stat = await handle.stat();
        const size = stat.size;
        const entry = pack.entry({
          name: `pgdata/${relative}`,
          size,
          mode: 0o600,
          mtime: stat.mtime,
        });
        let at = 0;
        while (at < size) {
          const buffer = Buffer.alloc(Math.min(CHUNK, size - at));
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
          // A file shortened while copied (VACUUM truncates): zeros, as pg_basebackup sends; the
          // WAL replay writes the true pages (full_page_writes is on).
          if (bytesRead === 0) buffer.fill(0);
          const chunk = bytesRead === 0 ? buffer : buffer.subarray(0, bytesRead);
          at += chunk.length;
          if (!entry.write(chunk)) await once(entry, 'drain');
        }
        entry.end(Buffer.alloc(0));
        files++;
        bytes += size;
      } finally {
        await handle.close();
      }
    };
    const addFolder = (relative: string) =>
      new Promise<void>((resolve, reject) =>
        pack.entry({ name: `pgdata/${relative}`, type: 'directory', mode: 0o700 }, (err) =>
          err ? reject(err) : resolve(),
        ),
      );
    const walk = async (relative: string): Promise<void> => {
      const entries = await readdir(join(dataDir, relative), { withFileTypes: true }).catch(
        (err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT') return [];
          throw err;
        },
      );
      for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        const path = relative ? `${relative}/${e.name}` : e.name;
        if (e.isDirectory()) {
          await addFolder(path);
          if (!(relative === '' && EMPTIED_FOLDERS.has(e.name))) await walk(path);
          else if (e.name === 'pg_wal') {
            await addFolder('pg_wal/archive_status');
            await addFolder('pg_wal/summaries');
          }
        } else if (
          e.isFile() &&
          !(relative === '' && SKIPPED_FILES.has(e.name)) &&
          !skippedName(e.name)
        )
          await addFile(path);
      }
    };
    await walk('');

    const [stop] = await db.query<{ lsn: string; labelfile: string; spcmapfile: string }>(
      'SELECT lsn::text, labelfile, spcmapfile FROM pg_backup_stop(false)',
    );
    started = false;
    const consistentAt = now();
    if (!stop) throw new Error('pg_backup_stop answered nothing');
    const [names] = await db.query<{ first: string; last: string }>(
      `SELECT substring($1 from 'START WAL LOCATION: \\S+ \\(file ([0-9A-F]{24})\\)') AS first,
              pg_walfile_name($2::pg_lsn) AS last`,
      [stop.labelfile, stop.lsn],
    );
    if (!names?.first || !names.last) throw new Error('the backup label names no WAL segment');
    // The segments from the backup's start to its end (later ones are recycled files).
    const segments = (await readdir(join(dataDir, 'pg_wal')))
      .filter((n) => /^[0-9A-F]{24}$/.test(n) && n >= names.first && n <= names.last)
      .sort();
    if (segments[0] !== names.first)
      throw new Error(`WAL segment ${names.first} is gone: the backup cannot be restored`);
    for (const segment of segments) await addFile(`pg_wal/${segment}`);
    pack.entry({ name: 'pgdata/backup_label', mode: 0o600 }, stop.labelfile);
    if (stop.spcmapfile)
      pack.entry({ name: 'pgdata/tablespace_map', mode: 0o600 }, stop.spcmapfile);

    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: 1,
      kind: 'pglite',
      startedAt: startedAt.toISOString(),
      consistentAt: consistentAt.toISOString(),
      migrations,
      walFrom: names.first,
      walTo: names.last,
    };
    // The manifest last but one (its times are known only now), the end marker last.
    pack.entry({ name: BACKUP_MANIFEST, mode: 0o600 }, JSON.stringify(manifest, null, 2));
    pack.entry({ name: BACKUP_END, mode: 0o600 }, JSON.stringify({ files, bytes }));
    pack.finalize();
    await written;
    return { manifest, files, bytes };
  } catch (err) {
    pack.destroy(err instanceof Error ? err : new Error(String(err)));
    await written.catch(() => undefined);
    throw err;
  } finally {
    if (started) await db.query('SELECT pg_backup_stop(false)').catch(() => undefined);
    await db
      .query('SELECT pg_drop_replication_slot($1)', [slot])
      .catch(() => undefined /* never created, or a temporary slot already gone */);
    running = false;
  }
}
