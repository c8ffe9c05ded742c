#!/usr/bin/env node
import cluster from 'node:cluster';
import { parseArgs } from 'node:util';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createContext } from './context.js';
import { openDb } from './db/client.js';
import { migrate } from './db/migrate.js';
import { makeFolderPrivate } from './db/private-folder.js';
import { demoIsPresent } from './db/seed/demo-remove.js';
import { startMqtt } from './mqtt/mqtt.js';
import { backtestCommand } from './cli/backtest.command.js';
import { CliError } from './cli/cli-error.js';
import { refuseWhileServerRuns } from './cli/embedded-owner.js';
import {
  backupCommand,
  moveToPostgresCommand,
  restoreCommand,
  verifyBackupCommand,
} from './cli/backup-commands.js';
import { closeControlSocket, listenControlSocket } from './db/backup/control-socket.js';
import { backupRunning, writePgliteBackup } from './db/backup/pglite-backup.js';
import { startWarnings } from './cli/start-warnings.js';
import { verifyAccessLogCommand } from './cli/verify-access-log.command.js';
import {
  createAdminCommand,
  demoCommand,
  seedCommand,
  seedOnStart,
} from './cli/identity-commands.js';
import { type DemoSimulator, startDemoSimulator } from './simulator/demo-simulator.js';
import { SimulateUsageError, simulateCommand } from './simulator/simulate.command.js';

/** The CLI's commands, each with the line `--help` prints. All read the environment (README). */
const COMMANDS: Record<string, { help: string; run: (args: string[]) => Promise<void> }> = {
  start: { help: 'serve the console, the API and gateway ingestion (the default)', run: start },
  migrate: { help: 'apply the database migrations without starting', run: migrateCommand },
  'create-admin': {
    help: 'create a platform owner: --email E --password P (12+ characters) [--name N]',
    run: createAdminCommand,
  },
  seed: {
    help: 'seed the demo organisations and accounts into an empty database',
    run: seedCommand,
  },
  demo: {
    help: 'demo remove: delete the demo organisations, their data and the demo accounts (before real use)',
    run: demoCommand,
  },
  simulate: {
    help: 'drive a running server with simulated gateways (docs/simulator.md)',
    run: simulateCommand,
  },
  backtest: {
    help: 'replay stored readings through proposed alert rules: --from --to --organization [--rules] [--json]',
    run: backtestCommand,
  },
  backup: {
    help: 'back up the database while the server runs: --out FILE (docs/operations.md, Backups)',
    run: backupCommand,
  },
  restore: {
    help: 'restore a backup into an empty DATA_DIR or DATABASE_URL: --in FILE',
    run: restoreCommand,
  },
  'verify-backup': {
    help: 'restore a backup into a scratch folder and count what it holds: --in FILE',
    run: verifyBackupCommand,
  },
  'move-to-postgres': {
    help: 'copy the embedded database (DATA_DIR) into an empty PostgreSQL (DATABASE_URL), rows counted',
    run: moveToPostgresCommand,
  },
  'verify-access-log': {
    help: "check the access log's hash chains: [--org ID]; exits 1 on a changed or deleted entry (docs/access-log.md)",
    run: verifyAccessLogCommand,
  },
};

async function migrateCommand(): Promise<void> {
  const config = loadConfig();
  await refuseWhileServerRuns(config, 'migrating');
  const db = await openDb(config);
  const applied = await migrate(db);
  console.log(applied.length ? `Applied ${applied.join(', ')}` : 'Database is up to date');
  await db.close();
}

const usage = (): string =>
  [
    'Usage: npm run cli -- <command> [options]   (settings come from the environment: README, Configuration)',
    '',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(17)} ${c.help}`),
  ].join('\n');

async function start(args: string[]): Promise<void> {
  parseArgs({ args, options: {} });
  const config = loadConfig();
  // Before anything is written there (the primary's check holds for its workers).
  // A second server on a PGlite folder would corrupt it: refused before anything opens it.
  if (cluster.isPrimary) await refuseWhileServerRuns(config, 'starting another');
  const dataDirWasOpen = cluster.isPrimary && makeFolderPrivate(config.dataDir);
  if (config.workers > 1 && cluster.isPrimary) {
    for (const warning of startWarnings(config, dataDirWasOpen)) console.warn(warning);
    return startPrimary(config.workers);
  }
  const db = await openDb(config);
  // With WORKERS=N the primary migrated and seeded before forking.
  if (cluster.isPrimary) {
    await migrate(db);
    await seedOnStart(db, config.seedDemo, (msg) => console.log(msg));
  }
  const ctx = createContext(config, db);
  const app = await buildApp(ctx);
  if (config.workers <= 1)
    for (const warning of startWarnings(config, dataDirWasOpen)) app.log.warn(warning);
  if (cluster.isPrimary && (await demoIsPresent(db)))
    app.log.warn(
      'The demo organisations and their accounts (published password demo-pass-2026) are in this database: remove them before real use with `npm run cli -- demo remove`, then create your platform owner with `npm run cli -- create-admin`.',
    );
  // Gateways over MQTT: a client of MQTT_URL in every worker, or the embedded broker on MQTT_PORT in
  // one process only (worker slot 0 of WORKERS=N): its sessions and subscriptions live in memory.
  const runsBroker = config.mqttUrl !== undefined || config.workerIndex === 0;
  const mqttService = runsBroker
    ? await startMqtt(ctx, {
        info: (m) => app.log.info(m),
        warn: (m) => app.log.warn(m),
        error: (m) => app.log.error(m),
      })
    : null;
  // The embedded database's owner answers the CLI (backup; "is a server running here?").
  const control =
    db.kind === 'pglite'
      ? await listenControlSocket(
          config.dataDir,
          {
            backupRefusal: () => (backupRunning() ? 'a backup is already running' : null),
            backup: (out) => writePgliteBackup(db, config.dataDir, out),
          },
          { warn: (m) => app.log.warn(m) },
        )
      : null;
  if (db.kind === 'pglite' && !control)
    app.log.warn(
      `DATA_DIR ${config.dataDir} is too long a path for the control socket: \`backup\` cannot reach this server (stop it to back up).`,
    );
  let simulator: DemoSimulator | null = null;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // The simulator feeds ingestion: stop it before the app and the database close.
    await simulator?.stop();
    await mqttService?.close();
    await closeControlSocket(control);
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  // The live demo: simulated wearers of the demo organisation (SIMULATOR=false turns it off); one
  // worker of WORKERS=N runs it.
  if (config.simulator && config.workerIndex === 0 && !stopping)
    simulator = await startDemoSimulator(ctx, app.log);
}

/**
 * WORKERS=N (PostgreSQL only): this process migrates and seeds once, then forks N workers that
 * share PORT (node:cluster hands out the connections). A worker that dies is forked again in
 * the same slot (WORKER_INDEX) after a second; SIGTERM/SIGINT stop every worker, then this process.
 */
async function startPrimary(workers: number): Promise<void> {
  const config = loadConfig();
  const db = await openDb(config);
  await migrate(db);
  await seedOnStart(db, config.seedDemo, (msg) => console.log(msg));
  await db.close();
  let stopping = false;
  const slots = new Map<number, number>(); // cluster worker id -> slot
  const fork = (slot: number) => {
    const worker = cluster.fork({ WORKER_INDEX: String(slot) });
    slots.set(worker.id, slot);
  };
  cluster.on('exit', (worker, code, signal) => {
    const slot = slots.get(worker.id);
    slots.delete(worker.id);
    if (stopping || slot === undefined) {
      if (stopping && slots.size === 0) process.exit(0);
      return;
    }
    console.error(
      `worker ${slot} (pid ${worker.process.pid}) exited (${signal ?? code}); starting it again`,
    );
    setTimeout(() => {
      if (!stopping) fork(slot);
    }, 1_000);
  });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    if (slots.size === 0) process.exit(0);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    // A worker that does not stop in 20 s is killed.
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
    }, 20_000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  console.log(`Starting ${workers} workers on port ${config.port}`);
  for (let slot = 0; slot < workers; slot++) fork(slot);
}

const [command = 'start', ...rest] = process.argv.slice(2);
if (command === '--help' || command === '-h' || command === 'help') {
  console.log(usage());
  process.exit(0);
}
const run = COMMANDS[command]?.run;
if (!run) {
  console.error(`Unknown command "${command}".\n\n${usage()}`);
  process.exit(2);
}
run(rest).catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof CliError || err instanceof SimulateUsageError) {
    console.error(err.message);
  } else console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
