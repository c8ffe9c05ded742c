import { type ApiErrorBody, bareRefreshSession, type TokenPair } from '@wearable/domain';
import { buildUrl, type QueryValue, takeEarlyGet } from './early-get';
import { getAccessToken, getRefreshToken, storeTokens } from './storage';

/** Every call resolves to this; status 600 stands for a failure outside HTTP. */
export type ApiResult<T> =
  { ok: true; status: number; data: T } | { ok: false; status: number; data: ApiErrorBody | null };

export const NON_HTTP_FAILURE = 600;

/** Thrown when a call needs a token and there is none (the user has been logged out). */
export class NotSignedInError extends Error {
  constructor() {
    super('Not signed in');
    this.name = 'NotSignedInError';
  }
}

/**
 * The one error of a refused call (thrown by `call` and `unwrap`): the HTTP status (600 for a
 * failure outside HTTP) and the server's error body, whose code and issues the forms show.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | null,
  ) {
    super(body?.message ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
  }

  /** The server's error code (`GROUP_NOT_EMPTY`), or null when it sent no error body. */
  get code(): string | null {
    return this.body?.code ?? null;
  }

  /** The server's own message, or null when it sent no error body. */
  get serverMessage(): string | null {
    return this.body?.message ?? null;
  }
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, QueryValue>;
  /** false for the calls made before there is a token (sign-in, refresh). */
  auth?: boolean;
  /** 'blob': the success answer is a file (an image), not JSON. */
  answer?: 'json' | 'blob';
}

export interface ApiClientOptions {
  fetch?: typeof fetch;
  /** Demo mode reads from /demo-api and needs no token. */
  isDemo: () => boolean;
  /** Ends the session: called when there is no token or the refresh failed. */
  onLogout: () => void;
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export function createApiClient(options: ApiClientOptions) {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  // One refresh at a time: refresh tokens rotate, so parallel refreshes would revoke each other.
  let refreshing: Promise<boolean> | null = null;

  async function send<T>(
    method: HttpMethod,
    url: string,
    body: unknown,
    token: string | null,
    answer: 'json' | 'blob' = 'json',
  ): Promise<ApiResult<T>> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token !== null) headers.Authorization = `Bearer ${token}`;
    // A file (a plan image) travels as its bytes; the server reads its type from the content.
    const file = typeof Blob !== 'undefined' && body instanceof Blob;
    if (body !== undefined)
      headers['Content-Type'] = file ? 'application/octet-stream' : 'application/json';
    let response: Response;
    const ask = () =>
      doFetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : file ? body : JSON.stringify(body),
      });
    // The same GET started at load (early-get.ts): its answer, or on a network failure a new ask.
    const early = method === 'GET' && token !== null ? takeEarlyGet(url, token) : undefined;
    try {
      response = await (early ?? ask()).catch((err: unknown) => {
        if (early === undefined) throw err;
        return ask();
      });
    } catch {
      return { ok: false, status: NON_HTTP_FAILURE, data: null };
    }
    if (answer === 'blob' && response.ok) {
      try {
        return { ok: true, status: response.status, data: (await response.blob()) as T };
      } catch {
        return { ok: false, status: NON_HTTP_FAILURE, data: null };
      }
    }
    let data: unknown = null;
    try {
      const text = await response.text();
      data = text === '' ? null : (JSON.parse(text) as unknown);
    } catch {
      // A success we cannot read is no success; an HTTP error keeps its own status.
      if (response.ok) return { ok: false, status: NON_HTTP_FAILURE, data: null };
    }
    if (response.ok) return { ok: true, status: response.status, data: data as T };
    return { ok: false, status: response.status, data: isErrorBody(data) ? data : null };
  }

  async function refresh(): Promise<boolean> {
    const refreshToken = getRefreshToken();
    if (refreshToken === null) return false;
    const { method, path } = bareRefreshSession;
    const result = await send<TokenPair>(method, path, { refreshToken }, null);
    if (!result.ok) return false;
    storeTokens(result.data);
    return true;
  }

  async function request<T>(
    method: HttpMethod,
    path: string,
    opts: RequestOptions = {},
  ): Promise<ApiResult<T>> {
    const answer = opts.answer ?? 'json';
    if (options.isDemo()) {
      return send<T>(method, buildUrl('/demo-api', path, opts.query), opts.body, null, answer);
    }
    const url = buildUrl('', path, opts.query);
    if (opts.auth === false) return send<T>(method, url, opts.body, null, answer);
    const token = getAccessToken();
    if (token === null) {
      options.onLogout();
      throw new NotSignedInError();
    }
    const first = await send<T>(method, url, opts.body, token, answer);
    if (first.status !== 401) return first;
    refreshing ??= refresh().finally(() => {
      refreshing = null;
    });
    const refreshed = await refreshing;
    const newToken = getAccessToken();
    if (!refreshed || newToken === null) {
      options.onLogout();
      return first;
    }
    const second = await send<T>(method, url, opts.body, newToken, answer);
    if (second.status === 401) options.onLogout();
    return second;
  }

  return {
    request,
    get: <T>(path: string, opts?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, opts),
    post: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('POST', path, { ...opts, body }),
    patch: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('PATCH', path, { ...opts, body }),
    put: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('PUT', path, { ...opts, body }),
    delete: <T>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, opts),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

function isErrorBody(value: unknown): value is ApiErrorBody {
  return typeof value === 'object' && value !== null && 'code' in value && 'message' in value;
}

/** For query functions: the data, or an ApiError TanStack Query can show and retry. */
export function unwrap<T>(result: ApiResult<T>): T {
  if (!result.ok) throw new ApiError(result.status, result.data);
  return result.data;
}
