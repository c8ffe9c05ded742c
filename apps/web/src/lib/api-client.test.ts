import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, NON_HTTP_FAILURE, NotSignedInError } from './api-client';
import { buildUrl, startEarlyGet } from './early-get';
import { getAccessToken, getRefreshToken } from './storage';

interface Call {
  url: string;
  method: string;
  authorization: string | undefined;
  body: unknown;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const pair = (n: number) => ({
  accessToken: `access-${n}`,
  refreshToken: `refresh-${n}`,
  tokenType: 'Bearer',
  expiresIn: 900,
  refreshExpiresIn: 86_400,
});

/** A stand-in for the server: answers by path, records what the client sent. */
function fakeServer(answer: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const call: Call = {
      url: input instanceof Request ? input.url : input.toString(),
      method: init?.method ?? 'GET',
      authorization: headers.Authorization,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    return answer(call);
  });
  return { calls, fetch: fetch as unknown as typeof globalThis.fetch };
}

function client(server: ReturnType<typeof fakeServer>, demo = false) {
  const onLogout = vi.fn();
  return { api: createApiClient({ fetch: server.fetch, isDemo: () => demo, onLogout }), onLogout };
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
});
afterEach(() => localStorage.clear());

describe('api client', () => {
  it('sends the stored access token as a bearer header to /v2 on the same origin', async () => {
    const server = fakeServer(() => json(200, { name: 'Hanako' }));
    const { api } = client(server);
    const result = await api.get<{ name: string }>('/v2/user', {
      query: { sort: 'name_asc', groupId: undefined },
    });
    expect(result).toEqual({ ok: true, status: 200, data: { name: 'Hanako' } });
    expect(server.calls).toEqual([
      {
        url: '/v2/user?sort=name_asc',
        method: 'GET',
        authorization: 'Bearer access-0',
        body: undefined,
      },
    ]);
  });

  it('with no token logs the user out and rejects without calling the server', async () => {
    localStorage.removeItem('accessToken');
    const server = fakeServer(() => json(200, {}));
    const { api, onLogout } = client(server);
    await expect(api.get('/v2/user')).rejects.toBeInstanceOf(NotSignedInError);
    expect(onLogout).toHaveBeenCalledOnce();
    expect(server.calls).toHaveLength(0);
  });

  it('sign-in goes out without a token', async () => {
    localStorage.clear();
    const server = fakeServer(() => json(200, pair(1)));
    const { api, onLogout } = client(server);
    const result = await api.post(
      '/v2/auth/signIn',
      { email: 'a@example.com', password: 'x' },
      { auth: false },
    );
    expect(result.ok).toBe(true);
    expect(server.calls[0]?.authorization).toBeUndefined();
    expect(onLogout).not.toHaveBeenCalled();
  });

  it('a network failure resolves to status 600', async () => {
    const server = fakeServer(() => {
      throw new TypeError('Failed to fetch');
    });
    const { api } = client(server);
    expect(await api.get('/v2/user')).toEqual({ ok: false, status: NON_HTTP_FAILURE, data: null });
  });

  it('a success with a body that is not JSON resolves to status 600', async () => {
    const server = fakeServer(() => new Response('<html>', { status: 200 }));
    const { api } = client(server);
    expect(await api.get('/v2/user')).toEqual({ ok: false, status: NON_HTTP_FAILURE, data: null });
  });

  it('an HTTP error keeps its status and the error body', async () => {
    const body = {
      statusCode: 400,
      error: 'Bad Request',
      message: 'body/email: invalid',
      code: 'VALIDATION_FAILED',
    };
    const server = fakeServer(() => json(400, body));
    const { api } = client(server);
    expect(await api.post('/v2/user/termsOfUse', {})).toEqual({
      ok: false,
      status: 400,
      data: body,
    });
  });

  it('on 401 refreshes once (rotating the refresh token) and retries once', async () => {
    const server = fakeServer((call) => {
      if (call.url === '/v2/auth/refresh') return json(200, pair(1));
      return call.authorization === 'Bearer access-1'
        ? json(200, { ok: 1 })
        : json(401, { code: 'UNAUTHENTICATED', message: 'expired' });
    });
    const { api, onLogout } = client(server);
    const result = await api.get('/v2/user');
    expect(result).toEqual({ ok: true, status: 200, data: { ok: 1 } });
    expect(server.calls.map((c) => [c.url, c.authorization])).toEqual([
      ['/v2/user', 'Bearer access-0'],
      ['/v2/auth/refresh', undefined],
      ['/v2/user', 'Bearer access-1'],
    ]);
    expect(server.calls[1]?.body).toEqual({ refreshToken: 'refresh-0' });
    expect([getAccessToken(), getRefreshToken()]).toEqual(['access-1', 'refresh-1']);
    expect(onLogout).not.toHaveBeenCalled();
  });

  it('when the refresh fails it logs out and returns the 401', async () => {
    const server = fakeServer((call) =>
      call.url === '/v2/auth/refresh'
        ? json(401, { code: 'INVALID_REFRESH_TOKEN', message: 'revoked' })
        : json(401, { code: 'UNAUTHENTICATED', message: 'expired' }),
    );
    const { api, onLogout } = client(server);
    const result = await api.get('/v2/user');
    expect(result.status).toBe(401);
    expect(onLogout).toHaveBeenCalledOnce();
    expect(server.calls.map((c) => c.url)).toEqual(['/v2/user', '/v2/auth/refresh']);
  });

  it('retries only once: a second 401 logs out', async () => {
    const server = fakeServer((call) =>
      call.url === '/v2/auth/refresh'
        ? json(200, pair(1))
        : json(401, { code: 'UNAUTHENTICATED', message: 'no' }),
    );
    const { api, onLogout } = client(server);
    expect((await api.get('/v2/user')).status).toBe(401);
    expect(server.calls.map((c) => c.url)).toEqual(['/v2/user', '/v2/auth/refresh', '/v2/user']);
    expect(onLogout).toHaveBeenCalledOnce();
  });

  it('parallel 401s share one refresh', async () => {
    const server = fakeServer((call) => {
      if (call.url === '/v2/auth/refresh') return json(200, pair(1));
      return call.authorization === 'Bearer access-1'
        ? json(200, {})
        : json(401, { code: 'UNAUTHENTICATED', message: 'x' });
    });
    const { api } = client(server);
    const results = await Promise.all([api.get('/v2/a'), api.get('/v2/b'), api.get('/v3/c')]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(server.calls.filter((c) => c.url === '/v2/auth/refresh')).toHaveLength(1);
  });

  it('in demo mode reads through /demo-api with no token at all', async () => {
    localStorage.clear();
    const server = fakeServer(() => json(200, { devices: [] }));
    const { api, onLogout } = client(server, true);
    expect((await api.get('/v2/user/device/list')).ok).toBe(true);
    expect(server.calls).toEqual([
      {
        url: '/demo-api/v2/user/device/list',
        method: 'GET',
        authorization: undefined,
        body: undefined,
      },
    ]);
    expect(onLogout).not.toHaveBeenCalled();
  });
});

describe('a GET started at load (early-get.ts)', () => {
  const path = '/v3/device/summary';
  const query = { format: 'columns' };
  const startEarly = (token: string, answer: () => Response | Promise<Response>) => {
    const early = fakeServer(answer);
    vi.stubGlobal('fetch', early.fetch);
    try {
      startEarlyGet(buildUrl('', path, query), token);
    } finally {
      vi.unstubAllGlobals();
    }
    return early;
  };

  it('answers the page’s same request once, without asking the server again', async () => {
    const early = startEarly('access-0', () => json(200, { from: 'load' }));
    const server = fakeServer(() => json(200, { from: 'page' }));
    const { api } = client(server);
    expect(await api.get(path, { query })).toMatchObject({ ok: true, data: { from: 'load' } });
    expect(early.calls).toEqual([
      {
        url: `${path}?format=columns`,
        method: 'GET',
        authorization: 'Bearer access-0',
        body: undefined,
      },
    ]);
    expect(server.calls).toEqual([]);
    // Taken once: the next request is the page's own.
    expect(await api.get(path, { query })).toMatchObject({ data: { from: 'page' } });
    expect(server.calls).toHaveLength(1);
  });

  it('is not taken for another token, and a network failure is asked again', async () => {
    startEarly('access-other', () => json(200, { from: 'load' }));
    const server = fakeServer(() => json(200, { from: 'page' }));
    const { api } = client(server);
    expect(await api.get(path, { query })).toMatchObject({ data: { from: 'page' } });
    startEarly('access-0', () => Promise.reject(new TypeError('network')));
    expect(await api.get(path, { query })).toMatchObject({ ok: true, data: { from: 'page' } });
    expect(server.calls).toHaveLength(2);
  });
});
