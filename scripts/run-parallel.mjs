#!/usr/bin/env node
// Runs npm scripts side by side and fails if any fails: node scripts/run-parallel.mjs <script> [<script> ...]
// `npm run check` uses it for the type check, ESLint and the formatter's check, which read the same files but
// depend on nothing of each other: each is one single-threaded process, so on two cores they take the time of the
// longest (ESLint) rather than the sum. Each script's output is printed in one piece when it ends, with its time,
// so the log reads as if they had run one after the other.
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/run-parallel.mjs <npm script> [<npm script> ...]');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(script) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
    });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const status = code === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`;
      process.stdout.write(`\n> npm run ${script}: ${status} in ${seconds} s\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(scripts.map(run));
const failed = scripts.filter((_, i) => !results[i]);
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.map((s) => `npm run ${s}`).join(', ')}`);
  process.exit(1);
}
