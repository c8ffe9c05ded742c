// chat: delivery latency from an SOS to each chat channel's fake (Slack chat.postMessage, a Teams Workflows
// webhook, LINE WORKS token + "send message to channel", and LINE's push message to a family member who chose
// LINE), through the real server: a gateway sends the SOS, the server opens the alert and tells the group's chat
// recipients, then the wearer's family; the time from the gateway's send to each fake's arrival, --runs SOS
// (median and worst), the machine and its load.
// Usage: npm run bench -- chat [--db pglite|postgres] [--runs 5] [--pg postgres://postgres@127.0.0.1:5432/postgres]
// Needs the built server (npm run build -w packages/domain && npm run build:tested -w apps/server).
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  SERVER_MAIN,
  freePort,
  median,
  printMachine,
  requireBuild,
  serverEnv,
  startServer,
  stopServer,
  waitForReady,
} from '../foundation/_lib.mjs';
import { gatewayCredential, openFreshDb, seedOrganization } from '../summary/seed.mjs';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    runs: { type: 'string', default: '5' },
    pg: { type: 'string' },
  },
});
const DB = values.db;
const PG_URL =
  DB === 'postgres' ? (values.pg ?? 'postgres://postgres@127.0.0.1:5432/postgres') : undefined;
const RUNS = Number(values.runs);
requireBuild(SERVER_MAIN, 'the server');
const KEY = 'bench-chat-encryption-key-0123456789';
const dist = (p) => import(new URL(`../../apps/server/dist/${p}`, import.meta.url).href);

/** One fake for the three services: answers as each documents (see apps/server/src/testing/chat-fakes.ts). */
async function fakes() {
  const arrivals = { SLACK: [], TEAMS: [], LINE_WORKS: [], LINE: [] };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      const note = (channel) => arrivals[channel].push(now);
      if (req.url.startsWith('/slack/api/chat.postMessage')) {
        note('SLACK');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, channel: 'C123ABC456', ts: '1503435956.000247' }));
      } else if (req.url.startsWith('/teams/')) {
        note('TEAMS');
        res.writeHead(202);
        res.end();
      } else if (req.url === '/lw/auth/token') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            access_token: 'kr1AAA-bench',
            token_type: 'Bearer',
            expires_in: '86400',
          }),
        );
      } else if (req.url.startsWith('/lw/api/bots/')) {
        note('LINE_WORKS');
        res.writeHead(201);
        res.end();
      } else if (req.url === '/line/v2/bot/message/push') {
        // Messaging API "Send push message": 200 with the sent messages' ids.
        note('LINE');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ sentMessages: [{ id: '461230966842064897', quoteToken: 'q' }] }));
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}`;
  return { base, arrivals, close: () => new Promise((r) => server.close(() => r())) };
}

const folder = await mkdtemp(join(tmpdir(), 'wearable-bench-chat-'));
const dataDir = join(folder, 'db');
const fake = await fakes();
const fresh = await openFreshDb({ pgUrl: PG_URL, dataDir });
await seedOrganization(fresh.db, { wearers: RUNS + 1, groups: 1, withLatest: false });
const { secretBoxService } = await dist('modules/auth/secret-box.service.js');
const box = secretBoxService({ config: { totpEncryptionKey: KEY }, db: fresh.db });
const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const channels = [
  [
    'SLACK',
    { channelId: 'C123ABC456' },
    { botToken: 'xoxb-bench-0000', signingSecret: 'bench-signing-secret' },
  ],
  ['TEAMS', {}, { webhookUrl: `${fake.base}/teams/workflows/bench/triggers/manual/paths/invoke` }],
  [
    'LINE_WORKS',
    {
      clientId: 'bench',
      serviceAccount: 'bench.serviceaccount@example',
      botId: '1',
      channelId: 'c1',
    },
    { clientSecret: 'bench-client-secret', privateKey, botSecret: 'bench-bot-secret' },
  ],
];
for (const [kind, settings, secrets] of channels) {
  await fresh.db.query(
    `INSERT INTO chat_channels (organization_id, kind, settings, secrets_sealed, secret_hints, updated_at)
     VALUES ('org-bench', $1, $2::jsonb, $3, '{}'::jsonb, now())`,
    [kind, JSON.stringify(settings), await box.seal(JSON.stringify(secrets))],
  );
  await fresh.db.query(
    `INSERT INTO group_alert_notice_settings (id, organization_id, group_id, channel, alert_types, schedule, step, position)
     VALUES ($1, 'org-bench', 'bg-1', $2, '["SOS_CALL"]'::jsonb, $3::jsonb, 1, 0)`,
    [
      `bench-chat-${kind}`,
      kind,
      JSON.stringify(
        Object.fromEntries(
          ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map(
            (d) => [d, { enabled: true, startTime: '00:00', endTime: '23:59' }],
          ),
        ),
      ),
    ],
  );
}
// The family: one PERSONAL user watching every wearer, linked to a LINE user, who chose LINE (decision 0024).
await fresh.db.query(
  `INSERT INTO chat_channels (organization_id, kind, settings, secrets_sealed, secret_hints, updated_at)
   VALUES ('org-bench', 'LINE', '{}'::jsonb, $1, '{}'::jsonb, now())`,
  [
    await box.seal(
      JSON.stringify({
        channelAccessToken: 'bench-line-token',
        channelSecret: 'bench-line-secret',
      }),
    ),
  ],
);
await fresh.db.query(
  `INSERT INTO users (id, organization_id, role, name, email, email_verified)
   VALUES ('bf-1', 'org-bench', 'PERSONAL', '家族 一郎', 'bench-family@example.test', true)`,
);
await fresh.db.query(
  `INSERT INTO user_links (user_id, wearer_id) SELECT 'bf-1', 'bw-' || i FROM generate_series(1, $1) i`,
  [RUNS + 1],
);
await fresh.db.query(
  `INSERT INTO family_notice_preferences (user_id, wearer_id, organization_id, channel)
   SELECT 'bf-1', 'bw-' || i, 'org-bench', 'LINE' FROM generate_series(1, $1) i`,
  [RUNS + 1],
);
await fresh.db.query(
  `INSERT INTO chat_user_links (organization_id, kind, chat_user_id, user_id, created_at)
   VALUES ('org-bench', 'LINE', 'U4af4980629bench', 'bf-1', now())`,
);
await fresh.db.close();

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const server = startServer(
  serverEnv(port, dataDir, {
    SEED_DEMO: 'false',
    TOTP_ENCRYPTION_KEY: KEY,
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    CHAT_SLACK_API_URL: `${fake.base}/slack/api`,
    CHAT_LINE_WORKS_API_URL: `${fake.base}/lw/api`,
    CHAT_LINE_WORKS_AUTH_URL: `${fake.base}/lw/auth/token`,
    CHAT_LINE_API_URL: `${fake.base}/line`,
    ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}),
  }),
);
const results = { SLACK: [], TEAMS: [], LINE_WORKS: [], LINE: [] };
try {
  await waitForReady(baseUrl, server);
  for (let run = 1; run <= RUNS; run++) {
    const before = Object.fromEntries(Object.entries(fake.arrivals).map(([k, m]) => [k, m.length]));
    const sent = performance.now();
    const res = await fetch(`${baseUrl}/gateway/v1/batches`, {
      method: 'POST',
      headers: {
        authorization: `Gateway bgw-1:${gatewayCredential(1)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        events: [{ serialNumber: `BBR-${run}`, type: 'SOS', at: new Date().toISOString() }],
      }),
    });
    if (!res.ok) throw new Error(`gateway batch: HTTP ${res.status} ${await res.text()}`);
    const deadline = Date.now() + 30_000;
    for (const channel of Object.keys(results)) {
      while (fake.arrivals[channel].length <= before[channel]) {
        if (Date.now() > deadline) throw new Error(`${channel}: nothing arrived for run ${run}`);
        await new Promise((r) => setTimeout(r, 2));
      }
      const at = fake.arrivals[channel][before[channel]];
      results[channel].push(at - sent);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
} finally {
  await stopServer(server);
  await fake.close();
  await fresh.drop();
  await rm(folder, { recursive: true, force: true });
}

printMachine();
console.log(
  `load average (1/5/15 min): ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')}`,
);
console.log(
  `database: ${DB}; ${RUNS} SOS, each told to Slack, Teams and LINE WORKS, then the family by LINE (local fakes)`,
);
console.log('| channel | runs (ms) | median | worst |');
console.log('| --- | --- | --- | --- |');
for (const [channel, ms] of Object.entries(results)) {
  console.log(
    `| ${channel} | ${ms.map((v) => v.toFixed(0)).join(', ')} | ${median(ms).toFixed(0)} ms | ${Math.max(...ms).toFixed(0)} ms |`,
  );
}
