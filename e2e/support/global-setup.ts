import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'apps/server/dist/main.js');
const WEB_INDEX = join(
  process.env.WEB_DIST ? resolve(process.env.WEB_DIST) : join(ROOT, 'apps/web/dist'),
  'index.html',
);
const READY_TIMEOUT_MS = 180_000;

/** Asks the kernel for a port nobody listens on. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => ok(port));
    });
  });
}

async function waitForReady(baseUrl: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`${baseUrl}/readyz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const log = await readFile(logFile, 'utf8').catch(() => '');
  throw new Error(
    `The server did not become ready at ${baseUrl}/readyz (exit code ${child.exitCode}).\n` +
      `Last server output:\n${log.split('\n').slice(-40).join('\n')}`,
  );
}

/**
 * Starts the built server once for the whole run on a fresh embedded database (seeded with the demo dataset on
 * first start), and returns the teardown that stops it and removes the folder.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (process.env.E2E_BASE_URL) return async () => {};
  for (const built of [MAIN, WEB_INDEX]) {
    if (!existsSync(built))
      throw new Error(`${built} is missing: run "npm run build" first (npm run test:e2e does it).`);
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'wearable-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = join(dataDir, 'server.log');
  const log = createWriteStream(logFile);
  // The embedded database, whatever the caller's shell says.
  const { DATABASE_URL: _ignored, MQTT_URL: _ignoredToo, ...inherited } = process.env;
  const child = spawn(process.execPath, [MAIN, 'start'], {
    cwd: ROOT,
    env: {
      ...inherited,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(dataDir, 'db'),
      SIMULATOR: 'false',
      MQTT_PORT: '0',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      // Links in mails (DATA_DIR/mail/*.eml) point at this very server.
      PUBLIC_URL: baseUrl,
      // Web Push to a push service faked on this machine (tests/push.spec.ts): http://127.0.0.1.
      PUSH_ALLOW_PRIVATE: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForReady(baseUrl, child, logFile);
  } catch (err) {
    await stop();
    throw err;
  }
  // Workers start after global setup and inherit this environment.
  process.env.E2E_BASE_URL = baseUrl;
  // Where the server writes mails (mail/*.eml) and SMS (sms/*.txt) a test may read.
  process.env.E2E_DATA_DIR = join(dataDir, 'db');
  return stop;
}
