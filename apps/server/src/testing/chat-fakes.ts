import { createVerify, generateKeyPairSync } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local fakes of the chat services' APIs (tests and the bench), one HTTP server on 127.0.0.1, each
 * built from the vendor's published request and answer examples:
 *
 * - Slack chat.postMessage (https://api.slack.com/methods/chat.postMessage): `Authorization: Bearer
 *   xoxb-…`, JSON `{ channel, text, blocks }`, answer `{"ok":true,"channel":"C123ABC456","ts":
 *   "1503435956.000247",…}`; a wrong token answers 200 `{"ok":false,"error":"invalid_auth"}`.
 * - Slack incoming webhook ("Sending messages using incoming webhooks"): answer 200 `ok`.
 * - Slack's response_url: records what the button press was answered.
 * - Microsoft Teams Workflows webhook ("Create incoming webhooks with Workflows for Microsoft Teams"):
 *   a message with an Adaptive Card attachment, answer 202 Accepted.
 * - LINE WORKS API 2.0: the token endpoint ("Service Account Authentication (JWT)",
 *   https://auth.worksmobile.com/oauth2/v2.0/token, form-encoded; the RS256 assertion is verified with
 *   the app's public key) answering `{"access_token":"kr1AAA…","refresh_token":"…","scope":"bot",
 *   "token_type":"Bearer","expires_in":"86400"}`; "Bot - Send message to channel" and "… to user"
 *   (POST /bots/{botId}/channels/{channelId}/messages, /users/{userId}/messages) answering 201.
 *
 * Bad answers are scripted per route (`script`): a status with optional Retry-After, or `hang` (no answer).
 */
export interface FakeRequest {
  route: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export type ScriptedAnswer = { status: number; retryAfter?: string } | 'hang';

export const FAKE_SLACK_TOKEN = 'xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy';
export const FAKE_LINE_WORKS_TOKEN = 'kr1AAABZQzQd2wQHIJcc24xT7XwBTg6pEk2AAA';

export async function startChatFakes() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const received: FakeRequest[] = [];
  const scripts = new Map<string, ScriptedAnswer[]>();
  const waiters: { route: string; n: number; resolve: () => void }[] = [];
  const hanging = new Set<ServerResponse>();

  const routeOf = (url: string): string => {
    if (url.startsWith('/slack/api/chat.postMessage')) return 'slack.postMessage';
    if (url.startsWith('/slack/hook/')) return 'slack.webhook';
    if (url.startsWith('/slack/response/')) return 'slack.response';
    if (url.startsWith('/teams/')) return 'teams.workflow';
    if (url === '/lw/auth/token') return 'lineWorks.token';
    if (/^\/lw\/api\/bots\/[^/]+\/channels\/[^/]+\/messages$/.test(url)) return 'lineWorks.channel';
    if (/^\/lw\/api\/bots\/[^/]+\/users\/[^/]+\/messages$/.test(url)) return 'lineWorks.user';
    return 'unknown';
  };

  /** The vendor's own checks of a request: the token, the assertion's signature. */
  function refusal(route: string, headers: IncomingHttpHeaders, body: string): string | null {
    if (route === 'slack.postMessage' && headers.authorization !== `Bearer ${FAKE_SLACK_TOKEN}`)
      return 'invalid_auth';
    if (route === 'lineWorks.token') {
      const form = new URLSearchParams(body);
      const [head, claims, signature] = (form.get('assertion') ?? '').split('.');
      const ok =
        form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer' &&
        head &&
        claims &&
        signature &&
        createVerify('RSA-SHA256')
          .update(`${head}.${claims}`)
          .verify(publicKey, Buffer.from(signature, 'base64url'));
      return ok ? null : 'invalid_grant';
    }
    if (
      route.startsWith('lineWorks.') &&
      headers.authorization !== `Bearer ${FAKE_LINE_WORKS_TOKEN}`
    )
      return 'UNAUTHORIZED';
    return null;
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const route = routeOf(req.url ?? '');
      const body = Buffer.concat(chunks).toString();
      received.push({ route, headers: req.headers, body, at: Date.now() });
      for (const w of [...waiters]) {
        if (received.filter((r) => r.route === w.route).length >= w.n) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
      const scripted = scripts.get(route)?.shift();
      if (scripted === 'hang') {
        hanging.add(res);
        return;
      }
      if (scripted) {
        res.writeHead(scripted.status, {
          'content-type': 'application/json',
          ...(scripted.retryAfter ? { 'retry-after': scripted.retryAfter } : {}),
        });
        res.end(JSON.stringify({ code: `FAKE_${scripted.status}` }));
        return;
      }
      const refused = refusal(route, req.headers, body);
      if (route === 'slack.postMessage') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            refused
              ? { ok: false, error: refused }
              : {
                  ok: true,
                  channel: 'C123ABC456',
                  ts: `1503435956.${String(received.length).padStart(6, '0')}`,
                },
          ),
        );
      } else if (refused) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: refused, description: 'Authentication failed' }));
      } else if (route === 'slack.webhook' || route === 'slack.response') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      } else if (route === 'teams.workflow') {
        res.writeHead(202);
        res.end();
      } else if (route === 'lineWorks.token') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            access_token: FAKE_LINE_WORKS_TOKEN,
            refresh_token: 'kr1AAAIj5Zk8lWm0sXyBgAAA',
            scope: 'bot',
            token_type: 'Bearer',
            expires_in: '86400',
          }),
        );
      } else if (route.startsWith('lineWorks.')) {
        res.writeHead(201);
        res.end();
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    base,
    /** The LINE WORKS app's private key (PEM) whose public half the token endpoint checks. */
    lineWorksPrivateKey: privatePem,
    slackApiUrl: `${base}/slack/api`,
    slackWebhookUrl: `${base}/slack/hook/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX`,
    slackResponseUrl: (n: string) => `${base}/slack/response/T00000000/${n}`,
    teamsWebhookUrl: `${base}/teams/workflows/a1b2c3/triggers/manual/paths/invoke?sig=fake`,
    lineWorksApiUrl: `${base}/lw/api`,
    lineWorksAuthUrl: `${base}/lw/auth/token`,
    received,
    of: (route: string) => received.filter((r) => r.route === route),
    /** The next answers of a route, before its normal one. */
    script(route: string, answers: ScriptedAnswer[]) {
      scripts.set(route, [...(scripts.get(route) ?? []), ...answers]);
    },
    clear() {
      received.length = 0;
      scripts.clear();
    },
    waitFor(route: string, n = 1, ms = 10_000): Promise<void> {
      if (received.filter((r) => r.route === route).length >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${n} requests on ${route}`)), ms);
        waiters.push({
          route,
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
export type ChatFakes = Awaited<ReturnType<typeof startChatFakes>>;
