// Copies the SQL migrations next to the compiled code, which reads them at start. The folder is
// replaced, not merged: a migration renamed or removed in src must not linger in dist and run twice.
import { cpSync, rmSync } from 'node:fs';
const dist = new URL('../dist/db/migrations', import.meta.url);
rmSync(dist, { recursive: true, force: true });
cpSync(new URL('../src/db/migrations', import.meta.url), dist, { recursive: true });
