/**
 * A GET started by the console's first script, before the page's code, the user and the
 * translations have loaded: the page's own request (api-client) takes its response instead of
 * asking again. Only for the same URL and access token, and only while it is fresh.
 */
interface Early {
  token: string;
  startedAt: number;
  response: Promise<Response>;
}

export type QueryValue = string | number | boolean | undefined;

/** A request's URL: the path and its query (api-client builds every URL so, early ones too). */
export function buildUrl(base: string, path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${base}${path}${search ? `?${search}` : ''}`;
}

/** Older than this, an unused early answer is dropped (the page was not opened after all). */
const FRESH_MS = 10_000;
const started = new Map<string, Early>();

export function startEarlyGet(url: string, token: string): void {
  const response = fetch(url, {
    headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
  });
  // Nobody may take it: its failure is then nobody's (the page asks again on its own).
  response.catch(() => undefined);
  started.set(url, { token, startedAt: Date.now(), response });
}

/** The early response for this URL and token, once; undefined when there is none to take. */
export function takeEarlyGet(url: string, token: string): Promise<Response> | undefined {
  const early = started.get(url);
  if (early === undefined) return undefined;
  started.delete(url);
  if (early.token !== token || Date.now() - early.startedAt > FRESH_MS) return undefined;
  return early.response;
}
