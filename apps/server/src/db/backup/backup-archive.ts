import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import {
  BACKUP_DATA_PREFIX,
  BACKUP_END,
  BACKUP_FORMAT,
  BACKUP_MANIFEST,
  type BackupManifest,
} from './backup-format.js';

/** A file that is not a whole backup of this product (the message says what is wrong). */
export class BackupArchiveError extends Error {}

export interface ArchiveContents {
  manifest: BackupManifest;
  /** Files of the data folder in the archive, and their bytes. */
  files: number;
  bytes: number;
}

const MAX_META_BYTES = 1 << 20;

/** A data-folder path of the archive, refused when it would land outside the folder. */
function safeRelative(name: string): string {
  const relative = name.slice(BACKUP_DATA_PREFIX.length).replace(/\/+$/, '');
  const normal = normalize(relative);
  if (relative === '' || normal.startsWith('..') || normal.startsWith('/') || normal !== relative)
    throw new BackupArchiveError(`the archive holds a path outside the data folder: ${name}`);
  return relative;
}

function parseManifest(text: string): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BackupArchiveError(`${BACKUP_MANIFEST} is not JSON`);
  }
  const m = value as Partial<BackupManifest> | null;
  if (m?.format !== BACKUP_FORMAT || m.version !== 1 || m.kind !== 'pglite')
    throw new BackupArchiveError(
      `${BACKUP_MANIFEST} does not describe a backup of the embedded database (format ${BACKUP_FORMAT} 1)`,
    );
  if (!Array.isArray(m.migrations) || typeof m.consistentAt !== 'string')
    throw new BackupArchiveError(`${BACKUP_MANIFEST} lacks its migrations or its time`);
  return m as BackupManifest;
}

/**
 * Reads a backup archive to its end: checks that it is whole (the manifest and the end marker,
 * every entry inside the data folder) and, with `extractTo`, writes the data folder there (the
 * folder must be empty; files 0600, folders 0700). Throws BackupArchiveError for a file that is
 * not a whole backup.
 */
export async function readBackupArchive(
  input: Readable,
  extractTo?: string,
): Promise<ArchiveContents> {
  const extract = tar.extract();
  let manifest: BackupManifest | undefined;
  let end: { files: number; bytes: number } | undefined;
  let files = 0;
  let bytes = 0;
  if (extractTo) mkdirSync(extractTo, { recursive: true, mode: 0o700 });
  const reading = (async () => {
    for await (const entry of extract) {
      const { name, type, size = 0 } = entry.header;
      if (end) throw new BackupArchiveError(`the archive goes on after ${BACKUP_END}`);
      if (name === BACKUP_MANIFEST || name === BACKUP_END) {
        if (size > MAX_META_BYTES) throw new BackupArchiveError(`${name} is too large`);
        const chunks: Buffer[] = [];
        for await (const chunk of entry) chunks.push(chunk as Buffer);
        const text = Buffer.concat(chunks).toString('utf8');
        if (name === BACKUP_MANIFEST) manifest = parseManifest(text);
        else {
          const parsed = JSON.parse(text) as { files: number; bytes: number };
          end = { files: Number(parsed.files), bytes: Number(parsed.bytes) };
        }
        continue;
      }
      if (!name.startsWith(BACKUP_DATA_PREFIX))
        throw new BackupArchiveError(`the archive holds an unexpected entry: ${name}`);
      if (type === 'directory' && name.replace(/\/+$/, '/') === BACKUP_DATA_PREFIX) {
        entry.resume();
        continue;
      }
      const relative = safeRelative(name);
      if (type === 'directory') {
        if (extractTo) mkdirSync(join(extractTo, relative), { recursive: true, mode: 0o700 });
        entry.resume();
        continue;
      }
      if (type !== 'file')
        throw new BackupArchiveError(`the archive holds a ${type ?? 'special'} entry: ${name}`);
      if (extractTo) {
        const target = join(extractTo, relative);
        mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
        await pipeline(entry, createWriteStream(target, { mode: 0o600, flags: 'wx' }));
      } else {
        for await (const _ of entry) void _;
      }
      // backup_label and tablespace_map are written by the stop, not counted as copied files.
      if (relative !== 'backup_label' && relative !== 'tablespace_map') {
        files++;
        bytes += size;
      }
    }
  })();
  try {
    await Promise.all([pipeline(input, createGunzip(), extract), reading]);
  } catch (err) {
    extract.destroy();
    if (err instanceof BackupArchiveError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'Z_BUF_ERROR' || code === 'Z_DATA_ERROR' || code === 'ERR_STREAM_PREMATURE_CLOSE')
      throw new BackupArchiveError('the file is not a gzip archive, or it was cut short');
    if (err instanceof Error && /unexpected end|Invalid tar header|end of data/i.test(err.message))
      throw new BackupArchiveError(`the archive is damaged or cut short (${err.message})`);
    throw err;
  }
  if (!manifest) throw new BackupArchiveError(`the archive has no ${BACKUP_MANIFEST}: cut short?`);
  if (!end) throw new BackupArchiveError(`the archive has no ${BACKUP_END}: it was cut short`);
  if (end.files !== files || end.bytes !== bytes)
    throw new BackupArchiveError(
      `the archive holds ${files} files (${bytes} bytes) where its end marker says ${end.files} (${end.bytes})`,
    );
  return { manifest, files, bytes };
}
