import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local fake of the LINE Messaging API (tests), built from LINE's published reference:
 *
 * - "Send push message" (https://developers.line.biz/en/reference/messaging-api/#send-push-message):
 *   POST /v2/bot/message/push, `Authorization: Bearer {channel access token}`, `{ to, messages }`, answer
 *   200 `{"sentMessages":[{"id":"461230966842064897","quoteToken":"IStG5h1Tz7b..."}]}`; a bad token answers
 *   401 `{"message":"Authentication failed. Confirm that the access token in the authorization header is valid."}`.
 * - "Retry failed API requests" (https://developers.line.biz/en/docs/messaging-api/retrying-api-request/):
 *   a push with an `X-Line-Retry-Key` already accepted is not sent again and answers 409
 *   `{"message":"The retry key is already accepted","sentMessages":[…]}` with `x-line-accepted-request-id`.
 * - "Send reply message" (POST /v2/bot/message/reply) and "Validate message objects of a push message"
 *   (POST /v2/bot/message/validate/push): 200 `{}`.
 *
 * Bad answers are scripted per route: a status (with Retry-After), `hang` (no answer), or `acceptThenHang`
 * (the push is accepted, sent to the user, and the answer never comes: what a timeout may hide).
 */
export const FAKE_LINE_TOKEN = 'line-channel-access-token-0123456789abcdef';

export type LineScript = { status: number; retryAfter?: string } | 'hang' | 'acceptThenHang';

export interface LineRequest {
  route: 'push' | 'reply' | 'validate' | 'unknown';
  headers: IncomingHttpHeaders;
  body: string;
}

export async function startLineFake() {
  const received: LineRequest[] = [];
  /** The pushes LINE sent to users, once per retry key. */
  const delivered: { retryKey: string | undefined; body: string; id: string }[] = [];
  const accepted = new Map<string, { requestId: string; id: string }>();
  const scripts = new Map<string, LineScript[]>();
  const hanging = new Set<ServerResponse>();

  const routeOf = (url: string): LineRequest['route'] =>
    url === '/v2/bot/message/push'
      ? 'push'
      : url === '/v2/bot/message/reply'
        ? 'reply'
        : url === '/v2/bot/message/validate/push'
          ? 'validate'
          : 'unknown';

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const route = routeOf(req.url ?? '');
      received.push({ route, headers: req.headers, body });
      const json = (status: number, answer: object, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(answer));
      };
      if (route === 'unknown') return json(404, { message: 'Not found' });
      if (req.headers.authorization !== `Bearer ${FAKE_LINE_TOKEN}`)
        return json(401, {
          message:
            'Authentication failed. Confirm that the access token in the authorization header is valid.',
        });
      const retryKey = req.headers['x-line-retry-key'] as string | undefined;
      const known = retryKey ? accepted.get(retryKey) : undefined;
      if (route === 'push' && known)
        return json(
          409,
          {
            message: 'The retry key is already accepted',
            sentMessages: [{ id: known.id, quoteToken: 'q' }],
          },
          { 'x-line-accepted-request-id': known.requestId },
        );
      const scripted = scripts.get(route)?.shift();
      const accept = () => {
        const id = String(461230966842064897n + BigInt(delivered.length));
        delivered.push({ retryKey, body, id });
        if (retryKey) accepted.set(retryKey, { requestId: randomUUID(), id });
        return id;
      };
      if (scripted === 'hang' || scripted === 'acceptThenHang') {
        if (scripted === 'acceptThenHang' && route === 'push') accept();
        hanging.add(res);
        return;
      }
      if (scripted) {
        res.writeHead(scripted.status, {
          'content-type': 'application/json',
          ...(scripted.retryAfter ? { 'retry-after': scripted.retryAfter } : {}),
        });
        return res.end(JSON.stringify({ message: 'scripted' }));
      }
      if (route !== 'push') return json(200, {});
      const id = accept();
      return json(200, { sentMessages: [{ id, quoteToken: 'IStG5h1Tz7b' }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}`,
    received,
    delivered,
    script: (route: LineRequest['route'], ...answers: LineScript[]) => scripts.set(route, answers),
    reset() {
      received.length = 0;
      scripts.clear();
    },
    async close() {
      for (const res of hanging) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type LineFake = Awaited<ReturnType<typeof startLineFake>>;
