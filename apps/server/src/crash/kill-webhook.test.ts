import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { type Db, openPglite, openPostgres } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { pgliteFolderFromTemplate } from '../testing/test-db.js';
import { secretBoxService } from '../modules/auth/secret-box.service.js';
import { createOrganization, createWearer, type WearerRecord } from '../testing/factories.js';
import { freshPostgresDatabase, type SpawnedServer, spawnServer } from '../testing/spawn-server.js';

/**
 * kill -9 between an event and its webhook: a server stores an SOS with its delivery, sends it,
 * and is killed while the receiver holds the request unanswered (nothing recorded it as
 * delivered); the restarted server sends it again once the claim's lease ran out. The receiver gets the same webhook-id every time, each signed with the
 * endpoint's secret, and the delivery ends `delivered`. Nothing here measures time.
 */
const postgres = !!process.env.TEST_DATABASE_URL;
const KEY = 'kill-webhook-encryption-key-0123456789abcdef';
const SECRET = `whsec_${Buffer.from('kill-webhook-test-secret-bytes!!').toString('base64')}`;

interface Seeded {
  wearer: WearerRecord;
  endpointId: string;
}

async function seed(db: Db, url: string): Promise<Seeded> {
  const org = await createOrganization(db);
  const wearer = await createWearer(db, { organizationId: org.id });
  const sealed = await secretBoxService({
    config: { totpEncryptionKey: KEY },
    db,
  } as AppContext).seal(SECRET);
  const endpointId = `whk_kill_${Date.now()}`;
  await db.query(
    `INSERT INTO webhook_endpoints (id, organization_id, url, event_types, secret_sealed, created_at, updated_at)
     VALUES ($1, $2, $3, ARRAY['alert.opened'], $4, now(), now())`,
    [endpointId, org.id, url, sealed],
  );
  return { wearer, endpointId };
}

/** A receiver that leaves the first request unanswered (the server dies meanwhile), then answers 200. */
async function holdingReceiver() {
  const ids: string[] = [];
  const bodies: string[] = [];
  const held: ServerResponse[] = [];
  let firstArrived: () => void = () => undefined;
  const first = new Promise<void>((r) => (firstArrived = r));
  let delivered: () => void = () => undefined;
  const done = new Promise<void>((r) => (delivered = r));
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      new Webhook(SECRET).verify(body, req.headers as Record<string, string>);
      ids.push(req.headers['webhook-id'] as string);
      bodies.push(body);
      if (ids.length === 1) {
        held.push(res);
        firstArrived();
        return;
      }
      res.end('ok');
      delivered();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    ids,
    bodies,
    first,
    done,
    close: () => {
      for (const r of held) r.destroy();
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function sendSos(server: SpawnedServer, w: WearerRecord): Promise<void> {
  const res = await fetch(`${server.baseUrl}/gateway/v1/batches`, {
    method: 'POST',
    headers: {
      authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      events: [
        {
          serialNumber: w.bracelet.serialNumber,
          type: 'SOS',
          at: new Date(Date.now() - 1000).toISOString(),
        },
      ],
    }),
  });
  expect(res.status, await res.text()).toBe(200);
}

async function pending(db: Db, endpointId: string) {
  return db.query<{ id: string; status: string; attempts: number }>(
    'SELECT id, status, attempts FROM webhook_deliveries WHERE endpoint_id = $1',
    [endpointId],
  );
}

describe('kill -9 between an event and its webhook', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wearable-kill-webhook-'));
  const servers: SpawnedServer[] = [];
  let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
  afterAll(async () => {
    for (const s of servers) await s.kill9();
    await fresh?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers after restart with the same webhook-id', async () => {
    const rx = await holdingReceiver();
    try {
      let env: Record<string, string>;
      let open: () => Promise<Db>;
      if (postgres) {
        fresh = await freshPostgresDatabase('killwebhook');
        env = { DATABASE_URL: fresh.url, WORKERS: '1', DATA_DIR: dir };
        // The server migrates; the seed waits for it.
        open = () => openPostgres(fresh!.url, 2);
      } else {
        const dataDir = join(dir, 'db');
        pgliteFolderFromTemplate(dataDir);
        const db = await openPglite(dataDir);
        await migrate(db);
        await db.close();
        env = { DATA_DIR: dataDir, SEED_DEMO: 'false' };
        open = () => openPglite(dataDir);
      }
      env = {
        ...env,
        TOTP_ENCRYPTION_KEY: KEY,
        WEBHOOKS_ALLOW_PRIVATE: 'true',
        WEBHOOKS_TIMEOUT_MS: '1000',
        WEBHOOKS_POLL_MS: '200',
      };
      const start = async () => {
        const s = await spawnServer(env, join(dir, 'server.log'));
        servers.push(s);
        await s.ready();
        return s;
      };
      let seeded: Seeded;
      let server: SpawnedServer;
      if (postgres) {
        server = await start();
        const db = await open();
        seeded = await seed(db, rx.url);
        await db.close();
      } else {
        const db = await open();
        seeded = await seed(db, rx.url);
        await db.close();
        server = await start();
      }

      // The SOS is stored with its delivery; the server sends it and dies while the receiver holds it.
      await sendSos(server, seeded.wearer);
      await rx.first;
      await server.kill9();
      let db = await open();
      const [queued] = await pending(db, seeded.endpointId);
      await db.close();
      expect(queued).toMatchObject({ status: 'pending', attempts: 0 });
      expect(rx.ids).toEqual([queued!.id]);

      // Once the claim's lease runs out, the restarted server sends it again: same id, same body.
      server = await start();
      await rx.done;
      expect(rx.ids).toEqual([queued!.id, queued!.id]);
      expect(rx.bodies[1]).toBe(rx.bodies[0]);
      expect(JSON.parse(rx.bodies[0]!)).toMatchObject({
        type: 'alert.opened',
        data: { alert: { type: 'SOS_CALL', wearer: { uid: seeded.wearer.uid } } },
      });
      await server.stop();
      db = await open();
      try {
        const [after] = await pending(db, seeded.endpointId);
        expect(after).toMatchObject({ id: queued!.id, status: 'delivered' });
      } finally {
        await db.close();
      }
    } finally {
      await rx.close();
    }
  }, 400_000);
});
