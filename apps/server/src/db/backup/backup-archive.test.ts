import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, describe, expect, it } from 'vitest';
import { BackupArchiveError, readBackupArchive } from './backup-archive.js';
import { BACKUP_END, BACKUP_FORMAT, BACKUP_MANIFEST } from './backup-format.js';

/**
 * A backup file is read before anything is restored from it: one that was cut short, is not a
 * backup, or would write outside the data folder (a crafted archive: `pgdata/../x`) is refused
 * with a message naming what is wrong, and nothing lands outside the target folder.
 */
type Entry = {
  name: string;
  body?: string;
  type?: 'file' | 'directory' | 'symlink';
  linkname?: string;
};

const manifest = JSON.stringify({
  format: BACKUP_FORMAT,
  version: 1,
  kind: 'pglite',
  startedAt: '2026-12-03T00:00:00.000Z',
  consistentAt: '2026-12-03T00:00:01.000Z',
  migrations: ['001_organizations_identity'],
  walFrom: '000000010000000000000001',
  walTo: '000000010000000000000001',
});

async function archive(entries: Entry[]): Promise<Buffer> {
  const pack = tar.pack();
  for (const e of entries) {
    if (e.type === 'directory') pack.entry({ name: e.name, type: 'directory' });
    else if (e.type === 'symlink')
      pack.entry({ name: e.name, type: 'symlink', linkname: e.linkname });
    else pack.entry({ name: e.name }, e.body ?? '');
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(Buffer.from(chunk as Uint8Array));
  return gzipSync(Buffer.concat(chunks));
}

const whole = (extra: Entry[] = [], files = 1, bytes = 3): Entry[] => [
  { name: 'pgdata/', type: 'directory' },
  { name: 'pgdata/PG_VERSION', body: '17\n' },
  ...extra,
  { name: BACKUP_MANIFEST, body: manifest },
  {
    name: BACKUP_END,
    body: JSON.stringify({
      files: files + extra.length,
      bytes: bytes + extra.reduce((n, e) => n + (e.body?.length ?? 0), 0),
    }),
  },
];

describe('reading a backup archive', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wearable-archive-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a whole archive is read and extracted into the folder', async () => {
    const target = join(dir, 'ok');
    const contents = await readBackupArchive(Readable.from(await archive(whole())), target);
    expect(contents).toMatchObject({ files: 1, bytes: 3, manifest: { kind: 'pglite' } });
    expect(readFileSync(join(target, 'PG_VERSION'), 'utf8')).toBe('17\n');
  });

  it.each([
    [
      'no end marker (cut short)',
      async () => (await archive(whole())).subarray(0, 200),
      /cut short|damaged|not a gzip/,
    ],
    [
      'not gzip at all',
      () => Promise.resolve(Buffer.from('PGDMP\u0001 not a tarball')),
      /not a gzip archive/,
    ],
    [
      'an end marker that disagrees with the files',
      () => archive([...whole().slice(0, -1), { name: BACKUP_END, body: '{"files":5,"bytes":3}' }]),
      /holds 1 files .* says 5/,
    ],
    [
      'no manifest',
      () => archive(whole().filter((e) => e.name !== BACKUP_MANIFEST)),
      /no backup\.json/,
    ],
    [
      'a manifest of something else',
      () =>
        archive(
          whole().map((e) => (e.name === BACKUP_MANIFEST ? { ...e, body: '{"format":"x"}' } : e)),
        ),
      /does not describe a backup/,
    ],
    [
      'a path outside the data folder',
      () => archive(whole([{ name: 'pgdata/../escaped', body: 'x' }])),
      /outside the data folder/,
    ],
    [
      'an absolute path',
      () => archive(whole([{ name: 'pgdata//etc/passwd', body: 'x' }])),
      /outside the data folder/,
    ],
    [
      'a symbolic link',
      () => archive(whole([{ name: 'pgdata/link', type: 'symlink', linkname: '/etc/passwd' }])),
      /symlink entry/,
    ],
    [
      'an entry outside pgdata/',
      () => archive(whole([{ name: 'other/file', body: 'x' }])),
      /unexpected entry/,
    ],
  ])('refused: %s', async (_what, make, message) => {
    const target = join(dir, `bad-${Math.random().toString(36).slice(2)}`);
    const err = await readBackupArchive(Readable.from(await make()), target).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BackupArchiveError);
    expect(String((err as Error).message)).toMatch(message);
    expect(existsSync(join(dir, 'escaped'))).toBe(false);
  });
});
