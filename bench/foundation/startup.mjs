// startup: time from spawning `node apps/server/dist/main.js start` on an EXISTING, seeded data folder until
// /readyz answers. The first start (initdb + migrations + demo seed) is reported apart and not counted.
// Usage: npm run bench -- startup [--runs 5]      Target: <= 3 s per restart.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  SERVER_MAIN,
  cpuMs,
  freePort,
  median,
  printMachine,
  requireBuild,
  serverEnv,
  startServer,
  stopServer,
  waitForReady,
} from './_lib.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
const TARGET_MS = 3000;

requireBuild(SERVER_MAIN, 'the server');
const folder = await mkdtemp(join(tmpdir(), 'wearable-bench-startup-'));
const dataDir = join(folder, 'db');
try {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = serverEnv(port, dataDir);

  const firstStart = performance.now();
  const first = startServer(env);
  const firstReady = await waitForReady(baseUrl, first);
  await stopServer(first);
  console.log(
    `first start (create + migrate + seed): ${((firstReady - firstStart) / 1000).toFixed(2)} s`,
  );

  const times = [];
  const cpuTimes = [];
  for (let i = 0; i < runs; i += 1) {
    const spawnedAt = performance.now();
    const server = startServer(env);
    const readyAt = await waitForReady(baseUrl, server);
    const cpu = cpuMs(server.child.pid);
    await stopServer(server);
    times.push(readyAt - spawnedAt);
    if (cpu !== null) cpuTimes.push(cpu);
    console.log(
      `restart ${i + 1}: ${((readyAt - spawnedAt) / 1000).toFixed(2)} s` +
        (cpu === null ? '' : ` (server CPU ${(cpu / 1000).toFixed(2)} s)`),
    );
  }
  const med = median(times);
  const max = Math.max(...times);
  console.log(
    `startup on existing data (${runs} restarts): median ${(med / 1000).toFixed(2)} s, ` +
      `min ${(Math.min(...times) / 1000).toFixed(2)} s, max ${(max / 1000).toFixed(2)} s ` +
      `(target <= ${TARGET_MS / 1000} s: ${max <= TARGET_MS ? 'met' : 'MISSED'})` +
      (cpuTimes.length
        ? `; server CPU until ready: median ${(median(cpuTimes) / 1000).toFixed(2)} s`
        : ''),
  );
  printMachine();
} finally {
  await rm(folder, { recursive: true, force: true });
}
