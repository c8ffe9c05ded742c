// Shared by the foundation benchmarks: machine facts, a free port, and the built server as a child process.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
// SERVER_MAIN as the shell gives it, so another build (e.g. main's, for a before/after pair in one session)
// can be measured beside this one.
export const SERVER_MAIN = resolve(
  process.env.SERVER_MAIN ?? join(ROOT, 'apps/server/dist/main.js'),
);
// WEB_DIST as the server reads it, so a build elsewhere can be measured.
export const WEB_DIST = resolve(process.env.WEB_DIST ?? join(ROOT, 'apps/web/dist'));

/** nproc, CPU model, memory, Node version and date: printed with every figure so results can be compared. */
export function machineFacts() {
  let model = cpus()[0]?.model ?? 'unknown';
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line) model = line.slice(line.indexOf(':') + 1).trim();
  } catch {
    // not Linux
  }
  return {
    date: new Date().toISOString(),
    nproc: cpus().length,
    cpu: model,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    // The machine is shared: a figure taken under load says little, so the load goes with it.
    loadAverage1m: Math.round((loadavg()[0] ?? 0) * 10) / 10,
  };
}

export function printMachine() {
  const m = machineFacts();
  console.log(
    `machine: ${m.nproc} cores, ${m.cpu}, ${m.memoryGiB} GiB, Node ${m.node}, load average ${m.loadAverage1m}, ${m.date}`,
  );
}

/** @param {string} path @param {string} what */
export function requireBuild(path, what) {
  if (!existsSync(path)) {
    console.error(`${path} is missing: run "npm run build" first (${what}).`);
    process.exit(1);
  }
}

/** @returns {Promise<number>} */
export function freePort() {
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

/** The environment for a deterministic server on the embedded database (no simulator, no MQTT listener). */
/**
 * @param {number} port
 * @param {string} dataDir
 * @param {Record<string, string>} [extra]
 * @returns {NodeJS.ProcessEnv}
 */
export function serverEnv(port, dataDir, extra = {}) {
  const { DATABASE_URL: _db, MQTT_URL: _mqtt, ...inherited } = process.env;
  return {
    ...inherited,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SIMULATOR: 'false',
    MQTT_PORT: '0',
    LOG_LEVEL: 'warn',
    // One process unless the shell asks for more (`WORKERS=2 npm run bench -- …`; the server's own
    // default is the core count on PostgreSQL). CPU figures then count the primary process only.
    WORKERS: inherited.WORKERS ?? '1',
    ...extra,
  };
}

/** @typedef {{ child: import('node:child_process').ChildProcessByStdio<null, import('node:stream').Readable, import('node:stream').Readable>, output: () => string }} Server */

/**
 * Spawns `node apps/server/dist/main.js start`; output is kept for error messages. `nodeArgs`: Node's own
 * options before the script (`--cpu-prof`, …).
 * @param {NodeJS.ProcessEnv} env
 * @param {string[]} [nodeArgs]
 * @returns {Server}
 */
export function startServer(env, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, SERVER_MAIN, 'start'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  /** @param {Buffer} chunk */
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return { child, output: () => output };
}

/**
 * Polls /readyz as fast as is reasonable; resolves with the time (performance.now()) it first answered 200.
 * @param {string} baseUrl
 * @param {Server} server
 * @returns {Promise<number>}
 */
export async function waitForReady(baseUrl, server, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) break;
    try {
      const res = await fetch(`${baseUrl}/readyz`);
      if (res.ok) return performance.now();
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(
    `server at ${baseUrl} not ready (exit ${server.child.exitCode}):\n${server.output()}`,
  );
}

/** @param {Server} server */
/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux; null elsewhere). On a shared machine
 * wall time depends on the neighbours; CPU time much less so, hence both are printed.
 * @param {number | undefined} pid
 * @returns {number | null}
 */
export function cpuMs(pid) {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
// USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK).
const CLOCK_TICKS = 100;

/** @param {Server} server */
export async function stopServer(server) {
  // Already gone (a signal leaves exitCode null): its 'exit' has been emitted and will not come again.
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** @param {number[]} values */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const at = (/** @type {number} */ i) => sorted[i] ?? Number.NaN;
  return sorted.length % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
};

/**
 * The p95 of each run, their median and worst, against a target: the verdict line every request bench prints.
 * @param {string} label
 * @param {{ p95: number }[]} runs
 * @param {number} target
 */
export function p95Verdict(label, runs, target) {
  const p95s = runs.map((r) => r.p95).sort((a, b) => a - b);
  const median = p95s[Math.floor(p95s.length / 2)] ?? NaN;
  const worst = p95s[p95s.length - 1] ?? NaN;
  const verdict = worst <= target ? 'met' : median <= target ? 'met by the median' : 'MISSED';
  return `${label}: p95 median of ${runs.length} runs ${median} ms, worst ${worst} ms (target <= ${target}: ${verdict})`;
}

/**
 * `runs` runs of `requests` sequential requests (`once(query)` answers `{ ms }`, queries taken in turn), each run
 * printed with its percentiles, the server's CPU per request (next to wall time: on a shared machine the neighbours
 * move the latter) and the load average; then the verdict over the runs' p95.
 * @param {{ runs: number, requests: number, queries: unknown[], once: (q: any) => Promise<{ ms: number }>,
 *   percentiles: (ms: number[]) => { n: number, p50: number, p95: number, max: number }, pid: number | undefined,
 *   label: string, target: number }} o
 */
export async function requestRuns(o) {
  const runs = [];
  for (let run = 0; run < o.runs; run++) {
    const ms = [];
    const cpu0 = cpuMs(o.pid);
    for (let i = 0; i < o.requests; i++)
      ms.push((await o.once(o.queries[i % o.queries.length])).ms);
    const cpu1 = cpuMs(o.pid);
    const cpu =
      cpu0 === null || cpu1 === null ? 'n/a' : `${((cpu1 - cpu0) / ms.length).toFixed(1)} ms`;
    const p = o.percentiles(ms);
    runs.push(p);
    console.log(
      `run ${run + 1}: n=${p.n} p50 ${p.p50} ms, p95 ${p.p95} ms, max ${p.max} ms, server CPU ${cpu}/request, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  }
  console.log(p95Verdict(o.label, runs, o.target));
}

/**
 * GET `url` with `headers`, timed: `{ ms, body }` (the parsed JSON); throws with the status and body unless 2xx.
 * @param {string} url
 * @param {Record<string, string>} headers
 */
export async function timedGet(url, headers) {
  const start = performance.now();
  const res = await fetch(url, { headers });
  const body = await res.json();
  if (!res.ok) throw new Error(`GET ${url} failed: ${res.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - start, body };
}

/**
 * Starts Chromium's CPU profiler on a page (the page's JavaScript, sampled every `intervalUs`);
 * `stop()` writes the profile to `file` (.cpuprofile: DevTools' Performance panel opens it).
 * @param {import('@playwright/test').BrowserContext} context
 * @param {import('@playwright/test').Page} page
 * @param {string} file
 * @param {number} intervalUs
 */
export async function startCpuProfile(context, page, file, intervalUs) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: intervalUs });
  await cdp.send('Profiler.start');
  return {
    async stop() {
      const { profile } = await cdp.send('Profiler.stop');
      await writeFile(file, JSON.stringify(profile));
    },
  };
}

/**
 * Opens `path` in the page, or with `from` the console at `from` (loaded, its requests answered)
 * then clicks the menu's entry for `path`: how staff move between pages. Returns when the
 * measured navigation began, in the page's performance.now() (0 for a page load).
 * @param {import('@playwright/test').Page} page
 * @param {string} baseUrl
 * @param {string} path
 * @param {string | undefined} from
 */
export async function openPage(page, baseUrl, path, from) {
  if (!from) {
    await page.goto(`${baseUrl}${path}`);
    return 0;
  }
  await page.goto(`${baseUrl}${from}`, { waitUntil: 'networkidle' });
  const menu = page.locator(`nav a[href="${path}"]`).first();
  await menu.waitFor({ state: 'visible', timeout: 60_000 });
  return menu.evaluate((a) => {
    const at = performance.now();
    /** @type {HTMLAnchorElement} */ (a).click();
    return at;
  });
}
