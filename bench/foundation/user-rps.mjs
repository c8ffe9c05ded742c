// user-rps: GET /v2/user with a bearer token, autocannon with 50 connections for 10 s, server on PGlite with
// SIMULATOR=false. Usage: npm run bench -- user-rps [--connections 50] [--duration 10]   Target: >= 3,000 req/s.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import {
  SERVER_MAIN,
  cpuMs,
  freePort,
  printMachine,
  requireBuild,
  serverEnv,
  startServer,
  stopServer,
  waitForReady,
} from './_lib.mjs';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '50' },
    duration: { type: 'string', default: '10' },
    email: { type: 'string', default: 'org-owner@example.com' },
  },
});
const TARGET_RPS = 3000;

requireBuild(SERVER_MAIN, 'the server');
const folder = await mkdtemp(join(tmpdir(), 'wearable-bench-rps-'));
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const server = startServer(serverEnv(port, join(folder, 'db')));
try {
  await waitForReady(baseUrl, server);
  const signIn = await fetch(`${baseUrl}/v2/auth/signIn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: values.email, password: 'demo-pass-2026' }),
  });
  if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
  const { accessToken } = await signIn.json();
  const check = await fetch(`${baseUrl}/v2/user`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  if (!check.ok) throw new Error(`GET /v2/user failed: ${check.status} ${await check.text()}`);

  const cpuBefore = cpuMs(server.child.pid);
  const result = await autocannon({
    url: `${baseUrl}/v2/user`,
    connections: Number(values.connections),
    duration: Number(values.duration),
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const cpuAfter = cpuMs(server.child.pid);
  const non2xx = result.non2xx + result.errors + result.timeouts;
  if (cpuBefore !== null && cpuAfter !== null) {
    const perRequest = (cpuAfter - cpuBefore) / result.requests.total;
    console.log(
      `server CPU: ${((cpuAfter - cpuBefore) / 1000).toFixed(2)} s for ${result.requests.total} requests = ` +
        `${perRequest.toFixed(3)} ms/request, i.e. about ${Math.round(1000 / perRequest)} req per server CPU-second`,
    );
  }
  console.log(
    `GET /v2/user, ${values.connections} connections, ${values.duration} s: ` +
      `${Math.round(result.requests.average)} req/s average (total ${result.requests.total}), ` +
      `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms, ` +
      `non-2xx/errors/timeouts ${non2xx} ` +
      `(target >= ${TARGET_RPS} req/s: ${result.requests.average >= TARGET_RPS && non2xx === 0 ? 'met' : 'MISSED'})`,
  );
  printMachine();
} finally {
  await stopServer(server);
  await rm(folder, { recursive: true, force: true });
}
