// The top self-time and total-time entries of the server's CPU profile over the measured window of
// `npm run bench -- gateway-cost --cpu-prof <dir>`: node bench/gateway-cost/profile-top.mjs <dir> [--top 20] [--by function|module]
// Self time: samples whose innermost frame is the entry. Total time: samples with the entry anywhere on the stack
// (counted once per sample). Percentages are of the window's wall time, i.e. of one core, so they add up to the
// bench's figure (less what the sampler does not see: the kernel's share of system time).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '20' }, by: { type: 'string', default: 'function' } },
});
const dir = positionals[0];
if (!dir) {
  console.error('usage: profile-top.mjs <dir> [--top 20] [--by function|module]');
  process.exit(2);
}
const TOP = Number(values.top);

/** @param {string} url */
const place = (url) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, '')
    .replace(/^.*\/apps\/server\/dist\//, 'server/')
    .replace(/^.*\/packages\/domain\/dist\//, 'domain/');
/** @param {{ functionName: string, url: string, lineNumber: number }} f */
const entryOf = (f) => {
  if (!f.url) return `(${f.functionName.replace(/[()]/g, '') || 'anonymous'})`;
  if (values.by === 'module') {
    const p = place(f.url);
    return p.startsWith('server/') || p.startsWith('domain/') || p.startsWith('node:')
      ? p
      : p.replace(/^((@[^/]+\/)?[^/]+).*$/, '$1');
  }
  return `${f.functionName || '(anonymous)'} ${place(f.url)}:${f.lineNumber + 1}`;
};

const self = new Map();
const total = new Map();
let windowUs = 0;
let sampledUs = 0;
let idleUs = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const window = JSON.parse(
    readFileSync(join(dir, file.replace(/\.cpuprofile$/, '.window.json')), 'utf8'),
  );
  windowUs += window.endUs - window.startUs;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    // A sample stands for the time until the next one.
    const us = profile.timeDeltas[i + 1] ?? 0;
    if (at < window.startUs || at >= window.endUs) continue;
    const leaf = entryOf(nodes.get(profile.samples[i]).callFrame);
    sampledUs += us;
    if (leaf === '(idle)') {
      idleUs += us;
      continue;
    }
    self.set(leaf, (self.get(leaf) ?? 0) + us);
    const seen = new Set();
    for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
      const entry = entryOf(nodes.get(id).callFrame);
      if (entry === '(root)' || seen.has(entry)) continue;
      seen.add(entry);
      total.set(entry, (total.get(entry) ?? 0) + us);
    }
  }
}
const pct = (us) => `${((us / windowUs) * 100).toFixed(2).padStart(6)} %`;
console.log(
  `${dir}: window ${(windowUs / 1e6).toFixed(1)} s, sampled ${(sampledUs / 1e6).toFixed(1)} s, ` +
    `busy (not idle) ${pct(sampledUs - idleUs)} of a core`,
);
for (const [title, map] of [
  ['self time', self],
  ['total time', total],
]) {
  console.log(`\n${title} (% of one core over the window)`);
  for (const [entry, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`${pct(us)}  ${entry}`);
}
