// `npm start`: builds only when a source changed since the last build it made (a restart took 25 s
// rebuilding an unchanged tree). Inputs: the three packages' files (outside their outputs) and the
// root's manifests; the stamp is written after a successful `npm run build`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const stamp = join(root, 'apps/server/dist/.build-stamp');
const outputs = ['apps/server/dist/main.js', 'apps/web/dist/index.html', 'packages/domain/dist'];
const skip = new Set(['dist', 'node_modules', '.tmp', 'test-results', 'coverage']);

function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let latest = 0;
  for (const name of readdirSync(path)) {
    if (skip.has(name)) continue;
    latest = Math.max(latest, newest(join(path, name)));
  }
  return latest;
}

const inputs = [
  'packages/domain',
  'apps/web',
  'apps/server',
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
];
const current =
  existsSync(stamp) &&
  outputs.every((o) => existsSync(join(root, o))) &&
  inputs.every((i) => newest(join(root, i)) <= statSync(stamp).mtimeMs);

if (current) {
  console.log('The build is current (no source changed since it was made): starting it.');
} else {
  const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
