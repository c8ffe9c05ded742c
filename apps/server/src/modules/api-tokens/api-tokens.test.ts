import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { NEVER_FOR_API_TOKENS, type Role, tokenScopesFor } from '@wearable/domain';
import { createOrganization, createUser, type UserRecord } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

/**
 * Issue 19 item 2: personal API tokens. A token acts as its owner with the intersection of the
 * owner's current permissions and its scopes; it never makes tokens nor changes people; shown once,
 * stored hashed, revocable at once; every use is in the audit log as "via token <name>".
 */
let t: TestApp;
let orgId: string;
let owner: UserRecord;
beforeAll(async () => {
  t = await createTestApp();
  orgId = (await createOrganization(t.db)).id;
  owner = await createUser(t.ctx, { role: 'ORGANIZATION_OWNER', organizationId: orgId });
});
afterAll(() => t?.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
async function makeToken(
  user: UserRecord,
  scopes: string[],
  extra: Record<string, unknown> = {},
): Promise<{ id: string; token: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v2/user/apiTokens',
    headers: user.headers,
    payload: { name: 'nightly export', expiresInDays: 30, scopes, ...extra },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string; token: string }>();
}
const get = (headers: Record<string, string>, url: string) => t.app.inject({ url, headers });

describe('API tokens', () => {
  it('shown once, stored hashed, listed with last use', async () => {
    const made = await makeToken(owner, ['alert:read']);
    expect(made.token).toMatch(/^wct_[\w-]{43}$/);
    const [row] = await t.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM api_tokens WHERE id = $1',
      [made.id],
    );
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.token_hash).not.toContain(made.token);
    expect((await get(bearer(made.token), `/v2/alert/list?clientId=${orgId}`)).statusCode).toBe(
      200,
    );
    const list = await get(owner.headers, '/v2/user/apiTokens');
    expect(list.statusCode).toBe(200);
    expect(JSON.stringify(list.json())).not.toContain(made.token);
    const listed = list.json<{ tokens: { id: string; lastUsedAt: string | null }[] }>().tokens;
    expect(listed.find((x) => x.id === made.id)?.lastUsedAt).not.toBeNull();
  });

  it('acts within both its scopes and its owner’s role (a table over roles)', async () => {
    const roles: Role[] = [
      'ORGANIZATION_OWNER',
      'ORGANIZATION_GENERAL',
      'ORGANIZATION_GROUP',
      'ALL_GENERAL',
    ];
    for (const role of roles) {
      const user = await createUser(t.ctx, {
        role,
        organizationId: role.startsWith('ALL_') ? null : orgId,
      });
      const grantable = tokenScopesFor(user);
      const readOnly = await makeToken(user, ['alert:read']);
      // Read alerts: yes; confirm one: the token was not given it, whatever the role may.
      expect(
        (await get(bearer(readOnly.token), `/v2/alert/list?clientId=${orgId}`)).statusCode,
      ).toBe(200);
      const confirm = await t.app.inject({
        method: 'POST',
        url: '/v2/alert/confirm',
        headers: bearer(readOnly.token),
        payload: { alertIds: ['none'] },
      });
      expect(confirm.statusCode, role).toBe(403);
      expect(confirm.json<{ message: string }>().message).toMatch(
        /API token may not do alert:confirm/,
      );
      // What the role does not hold cannot be put on a token (a 400 naming the field).
      const beyond = await t.app.inject({
        method: 'POST',
        url: '/v2/user/apiTokens',
        headers: user.headers,
        payload: { name: 'too much', expiresInDays: 30, scopes: ['gateway:manage'] },
      });
      expect(beyond.statusCode, role).toBe(grantable.includes('gateway:manage') ? 201 : 400);
      if (beyond.statusCode === 400)
        expect(beyond.json<{ message: string }>().message).toContain('body.scopes');
    }
  });

  it('can never make tokens or change people, even when its owner can', async () => {
    for (const scope of NEVER_FOR_API_TOKENS) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/user/apiTokens',
        headers: owner.headers,
        payload: { name: 'x', expiresInDays: 1, scopes: [scope] },
      });
      expect(res.statusCode, scope).toBe(400);
    }
    const made = await makeToken(owner, tokenScopesFor(owner));
    // Every scope the owner could give, and still: no token endpoint, no people endpoint.
    expect((await get(bearer(made.token), '/v2/user/apiTokens')).statusCode).toBe(403);
    const another = await t.app.inject({
      method: 'POST',
      url: '/v2/user/apiTokens',
      headers: bearer(made.token),
      payload: { name: 'child', expiresInDays: 1, scopes: ['alert:read'] },
    });
    expect(another.statusCode).toBe(403);
    const invite = await t.app.inject({
      method: 'POST',
      url: '/v2/user/invite',
      headers: bearer(made.token),
      payload: { email: 'new@example.com', role: 'ORGANIZATION_GENERAL', clientId: orgId },
    });
    expect(invite.statusCode).toBe(403);
    const remove = await t.app.inject({
      method: 'DELETE',
      url: `/v2/user/organization/members?uid=${owner.uid}&clientId=${orgId}`,
      headers: bearer(made.token),
    });
    expect(remove.statusCode).toBe(403);
  });

  it('follows its owner: another organisation stays unreachable, a demoted owner’s token loses what the role lost', async () => {
    const other = (await createOrganization(t.db)).id;
    const general = await createUser(t.ctx, { role: 'ORGANIZATION_OWNER', organizationId: orgId });
    const made = await makeToken(general, ['organization:read', 'gateway:manage', 'gateway:read']);
    expect((await get(bearer(made.token), `/v2/client/${other}`)).statusCode).toBe(404);
    expect((await get(bearer(made.token), `/v2/client/${orgId}`)).statusCode).toBe(200);
    await t.db.query(`UPDATE users SET role = 'ORGANIZATION_GENERAL' WHERE id = $1`, [general.uid]);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/v2/gateway/nope',
      headers: bearer(made.token),
    });
    expect(res.statusCode).toBe(403);
  });

  it('revoked or expired: refused at once; unknown: 401', async () => {
    const made = await makeToken(owner, ['alert:read']);
    const url = `/v2/alert/list?clientId=${orgId}`;
    expect((await get(bearer(made.token), url)).statusCode).toBe(200);
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/v2/user/apiTokens/${made.id}`,
      headers: owner.headers,
    });
    expect(revoke.statusCode).toBe(200);
    expect((await get(bearer(made.token), url)).statusCode).toBe(401);
    expect((await get(bearer('wct_' + 'x'.repeat(43)), url)).statusCode).toBe(401);

    const expiring = await makeToken(owner, ['alert:read']);
    await t.db.query(
      `UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [expiring.id],
    );
    expect((await get(bearer(expiring.token), url)).statusCode).toBe(401);
    // Another user cannot revoke someone's token (it is not found for them).
    const stranger = await createUser(t.ctx, { role: 'ORGANIZATION_OWNER', organizationId: orgId });
    const mine = await makeToken(owner, ['alert:read']);
    const theirs = await t.app.inject({
      method: 'DELETE',
      url: `/v2/user/apiTokens/${mine.id}`,
      headers: stranger.headers,
    });
    expect(theirs.statusCode).toBe(404);
  });

  it('bad input names the field and creates nothing', async () => {
    const before = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_tokens'))[0]
      ?.n;
    for (const [payload, field] of [
      [{ name: 'x', expiresInDays: 366, scopes: ['alert:read'] }, 'expiresInDays'],
      [{ name: 'x', expiresInDays: 0, scopes: ['alert:read'] }, 'expiresInDays'],
      [{ name: '', expiresInDays: 30, scopes: ['alert:read'] }, 'name'],
      [{ name: 'x', expiresInDays: 30, scopes: [] }, 'scopes'],
      [{ name: 'x', expiresInDays: 30, scopes: ['alert:fly'] }, 'scopes'],
      [{ name: 'x'.repeat(101), expiresInDays: 30, scopes: ['alert:read'] }, 'name'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/user/apiTokens',
        headers: owner.headers,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json<{ message: string }>().message).toContain(field);
    }
    const after = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_tokens'))[0]
      ?.n;
    expect(after).toBe(before);
  });

  it('every use is in the audit log as via token <name>', async () => {
    const made = await makeToken(owner, ['alert:read', 'audit:read']);
    await get(bearer(made.token), `/v2/alert/list?clientId=${orgId}`);
    // Recorded once the answer has gone (onResponse): look for a moment.
    const read = () =>
      t.db.query<{ after: { via: string; route: string; status: number } }>(
        `SELECT after FROM audit_log WHERE kind = 'apiToken.use' AND target_id = $1 ORDER BY at`,
        [made.id],
      );
    let rows = await read();
    for (let i = 0; i < 50 && rows.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      rows = await read();
    }
    expect(rows[0]?.after).toMatchObject({
      via: 'token nightly export',
      route: '/v2/alert/list',
      status: 200,
    });
  });
});

// Two servers need one PostgreSQL: PGlite is one process, so this runs in server-postgres only.
describe.runIf(!!process.env.TEST_DATABASE_URL)('a token revoked on one server', () => {
  it('is refused by a second server within a second', async () => {
    const databaseUrl = inject('testDatabaseUrl');
    const a = await createTestApp({ databaseUrl });
    await a.ctx.cluster.listening();
    const b = await createTestApp({ databaseUrl });
    await b.ctx.cluster.listening();
    try {
      const org = (await createOrganization(a.db)).id;
      const user = await createUser(a.ctx, { role: 'ORGANIZATION_OWNER', organizationId: org });
      const made = (
        await a.app.inject({
          method: 'POST',
          url: '/v2/user/apiTokens',
          headers: user.headers,
          payload: { name: 'cluster', expiresInDays: 1, scopes: ['alert:read'] },
        })
      ).json<{ id: string; token: string }>();
      const onB = () =>
        b.app.inject({ url: `/v2/alert/list?clientId=${org}`, headers: bearer(made.token) });
      expect((await onB()).statusCode).toBe(200); // cached on B now
      await a.app.inject({
        method: 'DELETE',
        url: `/v2/user/apiTokens/${made.id}`,
        headers: user.headers,
      });
      const revokedAt = Date.now();
      let status = 200;
      while (status === 200 && Date.now() - revokedAt < 3_000) {
        status = (await onB()).statusCode;
        if (status === 200) await new Promise((r) => setTimeout(r, 20));
      }
      expect(status).toBe(401);
      expect(Date.now() - revokedAt).toBeLessThan(1_000);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
