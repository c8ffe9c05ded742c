// engine-tick: the alert engine's minute tick (DISCONNECTION / NON_WEARING timers) over every wearer with a
// bracelet, run in-process on the built runner: locks and reads the states and profiles in chunks of 500, steps
// each wearer, saves the states that changed. Usage: npm run bench -- engine-tick [--wearers 10000] [--db pglite|postgres]
// [--pg postgres://postgres@127.0.0.1:5432/postgres]. No target in the task; it must stay well under the 60 s tick.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ROOT, SERVER_MAIN, printMachine, requireBuild } from '../foundation/_lib.mjs';
import { openFreshDb } from '../summary/seed.mjs';
import { seedGateways } from '../ingestion/seed.mjs';

const { values } = parseArgs({
  options: {
    wearers: { type: 'string', default: '10000' },
    db: { type: 'string', default: 'postgres' },
    pg: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
requireBuild(SERVER_MAIN, 'the server');
const dist = (p) => import(pathToFileURL(join(ROOT, 'apps/server/dist', p)).href);
const { loadConfig } = await dist('config.js');
const { createContext } = await dist('context.js');
const { tickAll } = await dist('modules/alerts/engine-turn.js');

printMachine();
const folder = await mkdtemp(join(tmpdir(), 'wearable-bench-tick-'));
const fresh = await openFreshDb({
  pgUrl: values.db === 'postgres' ? values.pg : undefined,
  dataDir: join(folder, 'db'),
});
const wearers = Number(values.wearers);
await seedGateways(fresh.db, { gateways: Math.ceil(wearers / 20), bracelets: 20 });
const ctx = createContext(loadConfig({ LOG_LEVEL: 'silent' }), fresh.db);
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  const cpu = process.cpuUsage();
  await tickAll(ctx, new Date(Date.now() + i * 60_000));
  const used = process.cpuUsage(cpu);
  console.log(
    `tick ${i + 1}${i === 0 ? ' (creates the engine_state rows)' : ''}: ${wearers} wearers on ${values.db} in ` +
      `${Math.round(performance.now() - t)} ms, server CPU ${Math.round((used.user + used.system) / 1000)} ms`,
  );
}
await fresh.db.close();
await fresh.drop();
await rm(folder, { recursive: true, force: true });
