import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { authPlugin } from '../plugins/auth.js';
import { registerErrorHandler } from '../plugins/error-handler.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { createOrganization, createUser } from '../testing/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('routes declare their permission (fail closed)', () => {
  it('a /v2 route without a permission cannot even be registered', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    await app.register(authPlugin, { ctx: t.ctx });
    expect(() => app.get('/v2/undeclared', () => ({ leaked: true }))).toThrow(
      /GET \/v2\/undeclared declares no permission/,
    );
    await app.close();
  });

  it('a route that declares one is refused with 403 to a role that never holds it, before its handler runs', async () => {
    const org = await createOrganization(t.db);
    const personal = await createUser(t, { role: 'PERSONAL' });
    const owner = await createUser(t, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
    let ran = 0;
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    await app.register(authPlugin, { ctx: t.ctx });
    app.get('/v2/probe', { config: { permission: 'member:invite' } }, () => ({ ran: ++ran }));
    await app.ready();
    const asPersonal = await app.inject({
      url: '/v2/probe',
      headers: { authorization: `Bearer ${personal.accessToken}` },
    });
    expect(asPersonal.statusCode).toBe(403);
    expect(ran).toBe(0);
    const asOwner = await app.inject({
      url: '/v2/probe',
      headers: { authorization: `Bearer ${owner.accessToken}` },
    });
    expect(asOwner.statusCode).toBe(200);
    expect(ran).toBe(1);
    const anonymous = await app.inject({ url: '/v2/probe' });
    expect(anonymous.statusCode).toBe(401);
    await app.close();
  });
});
