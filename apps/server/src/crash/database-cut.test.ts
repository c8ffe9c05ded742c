import { createServer, type AddressInfo, connect, type Server, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createContext } from '../context.js';
import { type Db, openPostgres } from '../db/client.js';
import { createOrganization, createWearer, type WearerRecord } from '../testing/factories.js';

/**
 * A server cut off from its database (issue 34 item 7: a network namespace cut made batches take up
 * to 12 s and /readyz never answered). The cut here is a TCP proxy between the server and
 * PostgreSQL that, while cut, drops every byte both ways and answers nothing, as a lost route does
 * (no reset, no refusal). The server must answer 503 DATABASE_UNAVAILABLE within ~2 s, /readyz too,
 * and recover at once when the proxy forwards again.
 */
function blackHoleProxy(target: URL) {
  let cut = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client);
    sockets.add(upstream);
    client.on('data', (d) => void (cut || upstream.write(d)));
    upstream.on('data', (d) => void (cut || client.write(d)));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const s of [client, upstream]) {
      s.on('error', end);
      s.on('close', end);
    }
  });
  return {
    listen: () =>
      new Promise<number>((r) =>
        server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port)),
      ),
    cut: (on: boolean) => void (cut = on),
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

describe.runIf(!!process.env.TEST_DATABASE_URL)('a server cut off from its database', () => {
  const direct = new URL(
    process.env.TEST_DATABASE_URL ? inject('testDatabaseUrl') : 'postgres://x',
  );
  const proxy = blackHoleProxy(direct);
  const dataDir = mkdtempSync(join(tmpdir(), 'wearable-cut-'));
  let app: FastifyInstance;
  let db: Db;
  let w: WearerRecord;

  beforeAll(async () => {
    const port = await proxy.listen();
    const viaProxy = new URL(direct);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(port);
    const base = loadConfig({ LOG_LEVEL: 'silent', SIMULATOR: 'false' });
    db = await openPostgres(viaProxy.toString(), 4, 2, {
      queryTimeoutMs: base.databaseQueryTimeoutMs,
      connectTimeoutMs: base.databaseConnectTimeoutMs,
    });
    const ctx = createContext(
      {
        ...base,
        authSecret: 'test-secret-test-secret-test-secret-0123',
        dataDir,
        rollupFlushMs: 0,
        webhooks: { ...base.webhooks, worker: false },
        alertOutboxOnlyOwn: true,
      },
      db,
    );
    app = await buildApp(ctx, { serveWeb: false, logger: false });
    await app.ready();
    const org = await createOrganization(db);
    w = await createWearer(db, { organizationId: org.id });
  });
  afterAll(async () => {
    proxy.cut(false);
    await app?.close();
    await db?.close();
    await proxy.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const batch = () =>
    app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}` },
      payload: {
        readings: [
          { serialNumber: w.bracelet.serialNumber, at: new Date().toISOString(), heartRate: 70 },
        ],
      },
    });
  const timed = async <T>(work: () => Promise<T>) => {
    const started = Date.now();
    const result = await work();
    return { result, ms: Date.now() - started };
  };

  it('answers 503 DATABASE_UNAVAILABLE and /readyz within ~2 s while cut, and is back at once when the network heals', async () => {
    expect((await batch()).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);

    proxy.cut(true);
    const ready = await timed(() => app.inject({ method: 'GET', url: '/readyz' }));
    expect(ready.result.statusCode).toBe(503);
    expect(ready.ms).toBeLessThan(2_000);
    for (let i = 0; i < 2; i++) {
      const cutBatch = await timed(batch);
      expect(cutBatch.result.statusCode).toBe(503);
      expect(cutBatch.result.json()).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
      expect(cutBatch.result.headers['retry-after']).toBeDefined();
      // The statement timeout (2 s) plus a loaded machine's slack.
      expect(cutBatch.ms).toBeLessThan(3_000);
    }

    proxy.cut(false);
    const healed = await timed(batch);
    expect(healed.result.statusCode).toBe(200);
    expect(healed.ms).toBeLessThan(2_000);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  }, 60_000);
});
