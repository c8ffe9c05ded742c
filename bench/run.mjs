#!/usr/bin/env node
// Benchmark dispatcher: `npm run bench -- <name> [args]` -> `node bench/run.mjs <name> [args]`.
// A case is either a folder `bench/<name>/run.mjs` (one per area) or one of the foundation's files
// `bench/foundation/<name>.mjs`. Each prints its figures and the machine facts; results go in bench/RESULTS.md.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

function cases() {
  const found = new Map();
  for (const entry of readdirSync(here, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const runner = join(here, entry.name, 'run.mjs');
    if (existsSync(runner)) found.set(entry.name, runner);
  }
  const foundation = join(here, 'foundation');
  if (existsSync(foundation)) {
    for (const file of readdirSync(foundation)) {
      if (file.endsWith('.mjs') && !file.startsWith('_'))
        found.set(file.slice(0, -4), join(foundation, file));
    }
  }
  return found;
}

const [name, ...args] = process.argv.slice(2);
const all = cases();
const script = name ? all.get(name) : undefined;
if (!script) {
  console.error(
    `${name ? `Unknown benchmark "${name}". ` : ''}Usage: npm run bench -- <name> [args]`,
  );
  console.error(`Benchmarks: ${[...all.keys()].sort().join(', ')}`);
  process.exit(2);
}
const child = spawn(process.execPath, [script, ...args], { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
