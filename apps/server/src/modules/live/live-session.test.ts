import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createUser, type UserRecord } from '../../testing/factories.js';
import { connectSse, type SseClient, until } from '../../testing/sse-client.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { LIVE_SESSION_CHECK_MS, LIVE_STREAMS_PER_SESSION } from './live-sessions.js';

/** The stream's lifetime follows the session that opened it (issue 9: it outlived sign-out). */
let t: TestApp;
let base: string;
let orgId: string;

async function listen(app: TestApp) {
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
}
const owner = (app: TestApp = t) =>
  createUser(app, { role: 'ORGANIZATION_OWNER', organizationId: orgId });

async function ticketFor(user: UserRecord, app: TestApp = t): Promise<string> {
  const res = await app.app.inject({
    method: 'POST',
    url: '/v3/live/ticket',
    headers: user.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ ticket: string }>().ticket;
}
async function open(user: UserRecord, url = base, app: TestApp = t): Promise<SseClient> {
  const client = connectSse(`${url}/v3/live?ticket=${await ticketFor(user, app)}`);
  await until(() => (client.status() ? true : undefined));
  expect(client.status()).toBe(200);
  return client;
}
/** Ends within the documented bound (one session check) plus slack for a loaded machine. */
const endsSoon = (c: SseClient) =>
  until(() => (c.isEnded() ? true : undefined), LIVE_SESSION_CHECK_MS + 5_000);

beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t);
  orgId = (await createOrganization(t)).id;
});
afterAll(() => t.close());

describe('live stream tickets', () => {
  it('a ticket opens one stream once; the bearer token in the URL is refused', async () => {
    const user = await owner();
    const ticket = await ticketFor(user);
    const first = connectSse(`${base}/v3/live?ticket=${ticket}`);
    await until(() => (first.status() ? true : undefined));
    expect(first.status()).toBe(200);
    const again = await fetch(`${base}/v3/live?ticket=${ticket}`);
    expect(again.status).toBe(401);
    expect((await fetch(`${base}/v3/live?access_token=${user.accessToken}`)).status).toBe(401);
    expect((await fetch(`${base}/v3/live?ticket=nope`)).status).toBe(401);
    first.close();
  });

  it('a ticket is refused after 30 seconds', async () => {
    const user = await owner();
    const ticket = await ticketFor(user);
    const realNow = t.ctx.now;
    t.ctx.now = () => new Date(Date.now() + 31_000);
    try {
      expect((await fetch(`${base}/v3/live?ticket=${ticket}`)).status).toBe(401);
    } finally {
      t.ctx.now = realNow;
    }
  });

  it('needs a bearer token to get a ticket', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v3/live/ticket' });
    expect(res.statusCode).toBe(401);
  });
});

describe('the stream ends with its session', () => {
  it('on sign-out, on refresh-token reuse and when the user is removed', async () => {
    const [signedOut, reused, removed, bystander] = await Promise.all([
      owner(),
      owner(),
      owner(),
      owner(),
    ]);
    const streams = {
      signedOut: await open(signedOut),
      reused: await open(reused),
      removed: await open(removed),
      bystander: await open(bystander),
    };
    const signOut = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/signOut',
      headers: signedOut.headers,
      payload: {},
    });
    expect(signOut.statusCode).toBeLessThan(300);
    const refresh = (token: string) =>
      t.app.inject({ method: 'POST', url: '/v2/auth/refresh', payload: { refreshToken: token } });
    expect((await refresh(reused.refreshToken)).statusCode).toBe(200);
    expect((await refresh(reused.refreshToken)).statusCode).toBe(401);
    await t.db.query('UPDATE users SET deleted_at = now() WHERE id = $1', [removed.uid]);

    await Promise.all([
      endsSoon(streams.signedOut),
      endsSoon(streams.reused),
      endsSoon(streams.removed),
    ]);
    expect(streams.bystander.isEnded()).toBe(false);
    streams.bystander.close();
  });

  it(`keeps at most ${LIVE_STREAMS_PER_SESSION} streams per session: a new one closes the oldest`, async () => {
    const user = await owner();
    const streams: SseClient[] = [];
    for (let i = 0; i <= LIVE_STREAMS_PER_SESSION; i++) streams.push(await open(user));
    await until(() => (streams[0]?.isEnded() ? true : undefined), 10_000);
    expect(streams.slice(1).map((s) => s.isEnded())).toEqual(
      new Array(LIVE_STREAMS_PER_SESSION).fill(false),
    );
    // Another session of the same user is counted apart.
    const other = await open({ ...user, ...(await signIn(user)) });
    expect(streams[1]?.isEnded()).toBe(false);
    for (const s of [...streams, other]) s.close();
  });
});

async function signIn(user: UserRecord) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v2/auth/signIn',
    payload: { email: user.email, password: user.password },
  });
  const { accessToken } = res.json<{ accessToken: string }>();
  return { accessToken, headers: { authorization: `Bearer ${accessToken}` } };
}

describe('the stream ends when its access token expires', () => {
  it('with ACCESS_TOKEN_TTL=2 the stream is closed after about two seconds', async () => {
    const short = await createTestApp({ accessTokenTtl: 2 });
    try {
      const url = await listen(short);
      const org = await createOrganization(short);
      const user = await createUser(short, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
      const stream = await open(user, url, short);
      const headerStream = connectSse(`${url}/v3/live`, user.headers);
      await until(() => (headerStream.status() ? true : undefined));
      expect(headerStream.status()).toBe(200);
      await Promise.all([
        until(() => (stream.isEnded() ? true : undefined), 15_000),
        until(() => (headerStream.isEnded() ? true : undefined), 15_000),
      ]);
    } finally {
      await short.close();
    }
  });
});
