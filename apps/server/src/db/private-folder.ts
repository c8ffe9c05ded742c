import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * DATA_DIR holds password hashes, health data, the generated AUTH_SECRET, and working sign-in links
 * in mail/ and sms/: only the server's user may read it. PGlite writes its files 0666 whatever the
 * umask (its WebAssembly file system sets the mode itself), so the folder is made 0700 and every file
 * in it 0600 (owner bits kept) at each start and after PGlite has created its files. Returns whether
 * the folder was open to others before (the start warns).
 */
export function makeFolderPrivate(dir: string): boolean {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return tighten(dir);
}

function tighten(path: string): boolean {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return false;
  const open = (stat.mode & 0o077) !== 0;
  if (open) chmodSync(path, stat.mode & 0o700);
  if (!stat.isDirectory()) return open;
  let anyOpen = open;
  for (const name of readdirSync(path)) anyOpen = tighten(join(path, name)) || anyOpen;
  return anyOpen;
}
