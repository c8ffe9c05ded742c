import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { freePort } from './private-nats.js';

const ROOT = resolve(import.meta.dirname, '../../../..');
const MAIN = join(ROOT, 'apps/server/src/main.ts');
const TSCONFIG = join(ROOT, 'apps/server/src/testing/tsx.tsconfig.json');

export interface SpawnedServer {
  baseUrl: string;
  port: number;
  child: ChildProcess;
  /** Resolves once /readyz answers 200 (rejects with the server's last output after `ms`). */
  ready(ms?: number): Promise<void>;
  /** kill -9 (no shutdown code runs) and wait for the exit. */
  kill9(): Promise<void>;
  /** SIGTERM, then SIGKILL after 15 s. */
  stop(): Promise<void>;
  output(): string;
}

/**
 * The real server as a child process (`node --import tsx apps/server/src/main.ts start`, the domain
 * package from source, so no build is needed), its output in `logFile`. For the crash and
 * WORKERS tests: a process that can be killed with -9.
 */
export async function spawnServer(
  env: Record<string, string>,
  logFile: string,
  port?: number,
): Promise<SpawnedServer> {
  const p = port ?? (await freePort());
  const {
    DATABASE_URL: _a,
    MQTT_URL: _b,
    NATS_URL: _c,
    WORKERS: _d,
    TEST_DATABASE_URL: _e,
    ...inherited
  } = process.env;
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'start'], {
    cwd: ROOT,
    env: {
      ...inherited,
      TSX_TSCONFIG_PATH: TSCONFIG,
      PORT: String(p),
      HOST: '127.0.0.1',
      SIMULATOR: 'false',
      MQTT_PORT: '0',
      LOG_LEVEL: 'warn',
      AUTH_SECRET: 'spawned-server-secret-0123456789abcdef',
      NODE_ENV: 'test',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const baseUrl = `http://127.0.0.1:${p}`;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const output = () => {
    try {
      return readFileSync(logFile, 'utf8');
    } catch {
      return '';
    }
  };
  return {
    baseUrl,
    port: p,
    child,
    output,
    async ready(ms = 90_000) {
      const end = Date.now() + ms;
      while (Date.now() < end && child.exitCode === null && child.signalCode === null) {
        const ok = await fetch(`${baseUrl}/readyz`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) return;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(
        `server on ${baseUrl} not ready (exit ${child.exitCode ?? child.signalCode}):\n${output().split('\n').slice(-30).join('\n')}`,
      );
    },
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(t);
      }
    },
  };
}

/**
 * A fresh PostgreSQL database of the test's own on TEST_DATABASE_URL's server (a crash test may
 * cut it off without disturbing the other test files), dropped by `drop()`.
 */
export async function freshPostgresDatabase(
  tag: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `wc_${tag}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** `npm run cli -- <args>` as a child process (from source); its exit code and output. */
export function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const {
    DATABASE_URL: _a,
    MQTT_URL: _b,
    NATS_URL: _c,
    WORKERS: _d,
    TEST_DATABASE_URL: _e,
    ...inherited
  } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
      cwd: ROOT,
      env: {
        ...inherited,
        TSX_TSCONFIG_PATH: TSCONFIG,
        AUTH_SECRET: 'spawned-server-secret-0123456789abcdef',
        NODE_ENV: 'test',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}
