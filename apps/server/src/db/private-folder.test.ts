import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openPglite } from './client.js';
import { makeFolderPrivate } from './private-folder.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'private-folder-'));
  made.push(dir);
  return dir;
};
const openToOthers = (dir: string): string[] => {
  const found: string[] = [];
  const walk = (p: string) => {
    const s = statSync(p);
    if ((s.mode & 0o077) !== 0) found.push(p);
    if (s.isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
  };
  walk(dir);
  return found;
};

describe('DATA_DIR is private (issue 35: PGlite wrote pg_hba.conf and its tables -rw-rw-rw-)', () => {
  it('a new PGlite data folder holds no file or folder open to group or others', async () => {
    const dir = join(folder(), 'data');
    const db = await openPglite(dir);
    await db.close();
    expect(openToOthers(dir)).toEqual([]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    // A fresh folder's initdb in WebAssembly: 6 s on a quiet machine, over a minute on a loaded one.
  }, 180_000);

  it('an existing folder with looser permissions is reported and tightened, owner bits kept', () => {
    const dir = folder();
    chmodSync(dir, 0o755);
    mkdirSync(join(dir, 'mail'), { mode: 0o775 });
    writeFileSync(join(dir, 'mail', 'a.eml'), 'x', { mode: 0o664 });
    writeFileSync(join(dir, 'run.sh'), 'x', { mode: 0o755 });
    expect(makeFolderPrivate(dir)).toBe(true);
    expect(openToOthers(dir)).toEqual([]);
    expect(statSync(join(dir, 'run.sh')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'mail', 'a.eml')).mode & 0o777).toBe(0o600);
    // Once private, nothing to report.
    expect(makeFolderPrivate(dir)).toBe(false);
  });
});
