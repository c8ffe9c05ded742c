import { execFile, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './global-setup.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'apps/server/dist/main.js');
const READY_TIMEOUT_MS = 120_000;

export interface Installation {
  /** A DATA_DIR holding the migrated database with one platform owner: copied, never started. */
  template: string;
  owner: { email: string; password: string };
  remove: () => Promise<void>;
}

export interface OwnServer {
  baseUrl: string;
  /** The server's DATA_DIR: mail/*.eml and sms/*.txt land here. */
  dataDir: string;
  owner: Installation['owner'];
  stop: () => Promise<void>;
}

/** The server's environment: the embedded database, whatever the caller's shell says, no demo. */
function serverEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  const { DATABASE_URL: _ignored, MQTT_URL: _ignoredToo, ...inherited } = process.env;
  return {
    ...inherited,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    SIMULATOR: 'false',
    MQTT_PORT: '0',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    // Web Push to a push service faked on this machine: http://127.0.0.1.
    PUSH_ALLOW_PRIVATE: 'true',
  };
}

/**
 * A new installation as its operator makes it: an empty database and one platform owner from the
 * CLI's `create-admin` (which migrates it). Kept as a template, so each story starts its own copy
 * without paying for the migrations again (most of a start on a busy machine).
 */
export async function createInstallation(): Promise<Installation> {
  const folder = await mkdtemp(join(tmpdir(), 'wearable-installation-'));
  const template = join(folder, 'db');
  const owner = { email: 'platform-owner@example.com', password: 'platform-owner-pass-2026' };
  const remove = () => rm(folder, { recursive: true, force: true });
  try {
    await promisify(execFile)(
      process.execPath,
      [MAIN, 'create-admin', '--email', owner.email, '--password', owner.password],
      { cwd: ROOT, env: serverEnv(template, 3000), timeout: READY_TIMEOUT_MS },
    );
  } catch (err) {
    await remove();
    throw err;
  }
  return { template, owner, remove };
}

/**
 * A server of a story's own on a copy of the installation: one platform owner and nothing else.
 * Unlike the run's shared server (global-setup.ts), nothing another story does is seen here.
 */
export async function startServer(
  installation: Installation,
  /** More of the server's environment (e.g. WEBHOOKS_ALLOW_PRIVATE for a fake on 127.0.0.1). */
  env: NodeJS.ProcessEnv = {},
): Promise<OwnServer> {
  const folder = await mkdtemp(join(tmpdir(), 'wearable-empty-'));
  const dataDir = join(folder, 'db');
  await cp(installation.template, dataDir, { recursive: true });
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const owner = installation.owner;
  const removeFolder = () => rm(folder, { recursive: true, force: true });

  const logFile = join(folder, 'server.log');
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [MAIN, 'start'], {
    cwd: ROOT,
    env: { ...serverEnv(dataDir, port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
    await removeFolder();
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && child.exitCode === null) {
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) return { baseUrl, dataDir, owner, stop };
    await new Promise((r) => setTimeout(r, 200));
  }
  const output = await readFile(logFile, 'utf8').catch(() => '');
  await stop();
  throw new Error(
    `The story's own server did not become ready at ${baseUrl}/readyz (exit code ${child.exitCode}).\n${output.split('\n').slice(-40).join('\n')}`,
  );
}
