import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createContext } from '../context.js';
import type { Db } from '../db/client.js';
import {
  createGateway,
  createOrganization,
  createUser,
  type UserRecord,
} from '../testing/factories.js';
import { openTestDb } from '../testing/test-db.js';
import { redactUrl } from './logging.js';

/** Issue 9: `?access_token=` on /v3/live was logged in full at info level. */
let db: Db;
let app: FastifyInstance;
let user: UserRecord;
const lines: string[] = [];

beforeAll(async () => {
  db = await openTestDb();
  const config = {
    // Every request is logged at debug (logRequests); errors and slow requests at info.
    ...loadConfig({ LOG_LEVEL: 'debug', SIMULATOR: 'false' }),
    authSecret: 'test-secret-test-secret-test-secret-0123',
  };
  const ctx = createContext(config, db);
  app = await buildApp(ctx, {
    serveWeb: false,
    logStream: { write: (line) => void lines.push(line) },
  });
  await app.ready();
  const org = await createOrganization(ctx);
  user = await createUser(ctx, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
});
afterAll(async () => {
  await app.close();
  await db.close();
});

describe('logs carry no token or credential', () => {
  it('masks tokens, tickets and credentials in logged requests', async () => {
    const gateway = await createGateway(db, { organizationId: user.organizationId ?? '' });
    await app.inject({ method: 'GET', url: `/v3/live?access_token=${user.accessToken}&x=1` });
    await app.inject({ method: 'GET', url: '/v3/live?ticket=ticket-secret-123' });
    await app.inject({
      method: 'GET',
      url: `/v2/user?anything=${user.accessToken}`,
      headers: user.headers,
    });
    await app.inject({
      method: 'POST',
      url: '/v2/auth/signIn',
      payload: { email: user.email, password: 'password-secret-456' },
    });
    await app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { authorization: `Gateway ${gateway.id}:${gateway.credential}` },
      payload: { readings: [] },
    });
    // A vendor gateway's secret path segment (issue 18), right or wrong, is never logged.
    await app.inject({
      method: 'POST',
      url: '/gateway/v1/ingics/gw-someone/path-secret-789',
      headers: { 'content-type': 'text/plain' },
      payload: '$HBRP,AAAAAAAAAAAA,BBBBBBBBBBBB,-50,\r\n',
    });
    const log = lines.join('');
    expect(log).toContain('/gateway/v1/ingics/gw-someone/[REDACTED]');
    // The requests were logged (so the test can fail), without their secrets.
    expect(log).toContain('/v3/live?access_token=%5BREDACTED%5D&x=1');
    expect(log).toContain('/v2/user');
    for (const secret of [
      user.accessToken,
      'ticket-secret-123',
      'password-secret-456',
      gateway.credential,
      'path-secret-789',
    ]) {
      expect(log).not.toContain(secret);
    }
  });

  it('redactUrl keeps the path and harmless parameters', () => {
    expect(redactUrl('/v3/device/history?from=1&to=2')).toBe('/v3/device/history?from=1&to=2');
    expect(redactUrl('/x?refresh_token=abc&code=def')).toBe(
      '/x?refresh_token=%5BREDACTED%5D&code=%5BREDACTED%5D',
    );
    expect(redactUrl('/x')).toBe('/x');
  });
});

describe('requests at info: errors and slow ones only (issue 39)', () => {
  it('an ordinary request is not logged at info, a slow one is, every one at debug', async () => {
    const infoLines: string[] = [];
    const infoDb = await openTestDb();
    const config = {
      ...loadConfig({ LOG_LEVEL: 'info', SIMULATOR: 'false', SLOW_REQUEST_MS: '1' }),
      authSecret: 'test-secret-test-secret-test-secret-0123',
    };
    const infoApp = await buildApp(createContext({ ...config, slowRequestMs: 60_000 }, infoDb), {
      serveWeb: false,
      logStream: { write: (line) => void infoLines.push(line) },
    });
    await infoApp.inject({ url: '/healthz' });
    await infoApp.inject({ url: '/v2/nothing-here' });
    expect(infoLines.join('')).not.toContain('request completed');
    expect(infoLines.join('')).not.toContain('/healthz');
    await infoApp.close();

    const slowLines: string[] = [];
    const slowApp = await buildApp(createContext({ ...config, slowRequestMs: 1 }, infoDb), {
      serveWeb: false,
      logStream: { write: (line) => void slowLines.push(line) },
    });
    // /readyz asks the database: over a millisecond.
    await slowApp.inject({ url: '/readyz' });
    expect(slowLines.join('')).toContain('slow request');
    await slowApp.close();
    await infoDb.close();
    // At debug (the app above), each request has its line.
    expect(lines.join('')).toContain('request completed');
  });
});
