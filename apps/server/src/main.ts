#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createContext } from './context.js';
import { openDb } from './db/client.js';
import { migrate } from './db/migrate.js';
import { startMqtt } from './mqtt/mqtt.js';
import { backtestCommand } from './cli/backtest.command.js';
import { CliError, createAdminCommand, seedCommand, seedOnStart } from './cli/identity-commands.js';
import { type DemoSimulator, startDemoSimulator } from './simulator/demo-simulator.js';
import { SimulateUsageError, simulateCommand } from './simulator/simulate.command.js';

/** Commands: start (default), migrate, seed, create-admin, simulate, backtest. All read the environment (README). */
const COMMANDS: Record<string, (args: string[]) => Promise<void>> = {
  start,
  seed: seedCommand,
  'create-admin': createAdminCommand,
  simulate: simulateCommand,
  backtest: backtestCommand,
  migrate: async () => {
    const config = loadConfig();
    const db = await openDb(config);
    const applied = await migrate(db);
    console.log(applied.length ? `Applied ${applied.join(', ')}` : 'Database is up to date');
    await db.close();
  },
};

async function start(args: string[]): Promise<void> {
  parseArgs({ args, options: {} });
  const config = loadConfig();
  const db = await openDb(config);
  await migrate(db);
  await seedOnStart(db, config.seedDemo, (msg) => console.log(msg));
  const ctx = createContext(config, db);
  const app = await buildApp(ctx);
  // Gateways over MQTT: the embedded broker on MQTT_PORT, or a client of MQTT_URL.
  const mqttService = await startMqtt(ctx, {
    info: (m) => app.log.info(m),
    warn: (m) => app.log.warn(m),
    error: (m) => app.log.error(m),
  });
  let simulator: DemoSimulator | null = null;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // The simulator feeds ingestion: stop it before the app and the database close.
    await simulator?.stop();
    await mqttService?.close();
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  // The live demo: simulated wearers of the demo organisation (SIMULATOR=false turns it off).
  if (config.simulator && !stopping) simulator = await startDemoSimulator(ctx, app.log);
}

const [command = 'start', ...rest] = process.argv.slice(2);
const run = COMMANDS[command];
if (!run) {
  console.error(`Unknown command "${command}". Commands: ${Object.keys(COMMANDS).join(', ')}`);
  process.exit(2);
}
run(rest).catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof CliError || err instanceof SimulateUsageError) {
    console.error(err.message);
  } else console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
