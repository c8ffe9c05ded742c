#!/usr/bin/env node
// The JavaScript /phone loads first, read from the build output (apps/web/dist/phone): every script of its
// index.html (the entry and the service worker's registration) and every chunk they import statically. The
// enrolment call (and the schemas it checks the answer with) is a lazy chunk, loaded only from an enrolment link,
// so it is not counted. Each file is gzipped at level 9, as check-login-bundle.mjs does. Fails above the limit
// (issue 16: 150 kB gzip).
// Usage: node apps/web/scripts/check-phone-bundle.mjs [--limit-kb 150] [--dist apps/web/dist/phone]
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    'limit-kb': { type: 'string', default: '150' },
    dist: { type: 'string', default: join(here, '..', 'dist', 'phone') },
  },
});
const LIMIT_KB = Number(values['limit-kb']);
const dist = values.dist;
const BASE = '/phone/';

const indexHtml = join(dist, 'index.html');
if (!existsSync(indexHtml)) {
  console.error(`${indexHtml} is missing: build the web app first (npm run build -w apps/web).`);
  process.exit(1);
}

function staticImports(file) {
  const code = readFileSync(join(dist, file), 'utf8');
  const found = new Set();
  for (const match of code.matchAll(/(?:\bfrom|\bimport)\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]/g))
    found.add(posix.join(posix.dirname(file), match[1]));
  return [...found];
}

const html = readFileSync(indexHtml, 'utf8');
const entries = [...html.matchAll(/<script[^>]*\bsrc="([^"]+\.js)"/g)].map((m) =>
  m[1].startsWith(BASE) ? m[1].slice(BASE.length) : m[1].replace(/^\//, ''),
);
if (entries.length === 0) {
  console.error(`${indexHtml} names no script.`);
  process.exit(1);
}
const files = new Set();
const queue = [...entries];
while (queue.length > 0) {
  const file = queue.pop();
  if (files.has(file)) continue;
  files.add(file);
  queue.push(...staticImports(file));
}

let raw = 0;
let gzip = 0;
const rows = [...files].map((file) => {
  const body = readFileSync(join(dist, file));
  const gz = gzipSync(body, { level: 9 }).length;
  raw += body.length;
  gzip += gz;
  return { file, gz };
});
rows.sort((a, b) => b.gz - a.gz);
for (const { file, gz } of rows)
  console.log(`  ${(gz / 1000).toFixed(1).padStart(6)} kB gzip  ${file}`);
const kB = gzip / 1000;
console.log(
  `/phone loads ${rows.length} JS files first: ${kB.toFixed(1)} kB gzip (${(raw / 1000).toFixed(1)} kB raw); ` +
    `limit ${LIMIT_KB} kB.`,
);
if (kB > LIMIT_KB) {
  console.error(
    `FAIL: /phone's first-load JavaScript is ${kB.toFixed(1)} kB gzip, above ${LIMIT_KB} kB. ` +
      'Load what only some visits need lazily (docs/phone-gateway.md).',
  );
  process.exit(1);
}
