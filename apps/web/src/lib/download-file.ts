import { bareGetUserInfo, type Endpoint, endpointPath } from '@wearable/domain';
import { type CallInput, callResult } from './call';
import { getAccessToken } from './storage';

/** The file name the server suggests in Content-Disposition. */
export function fileNameFrom(disposition: string | null, fallback: string): string {
  const match = /filename="?([^";]+)"?/i.exec(disposition ?? '');
  return match?.[1] ?? fallback;
}

async function fetchWithToken(url: string, demo: boolean): Promise<Response | null> {
  const token = demo ? null : getAccessToken();
  return fetch(url, { headers: token === null ? {} : { Authorization: `Bearer ${token}` } }).catch(
    () => null,
  );
}

/**
 * Downloads a file answer of the API (a CSV, say) with the bearer token, saved under the server's file name with its
 * bytes untouched (a CSV's BOM keeps Excel reading UTF-8). The API client reads JSON, so the file is fetched here; on
 * 401 a cheap client call lets the API client refresh the token, then this tries once more. `path` is /v2/...; inside
 * the demo it goes to /demo-api.
 */
async function downloadApiFile(
  path: string,
  demo: boolean,
  fallbackName: string,
): Promise<{ ok: boolean; status: number }> {
  const url = `${demo ? '/demo-api' : ''}${path}`;
  let response = await fetchWithToken(url, demo);
  if (response?.status === 401 && !demo) {
    await callResult(bareGetUserInfo);
    response = await fetchWithToken(url, demo);
  }
  if (response === null || !response.ok) return { ok: false, status: response?.status ?? 600 };
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileNameFrom(response.headers.get('Content-Disposition'), fallbackName);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return { ok: true, status: response.status };
}

/** The same for a file endpoint of a contract (`raw`, a CSV): the path from its params, then its query. */
export function downloadFile<E extends Endpoint>(
  endpoint: E,
  input: CallInput<E>,
  demo: boolean,
  fallbackName: string,
): Promise<{ ok: boolean; status: number }> {
  const { params, query } = input as { params?: Record<string, unknown>; query?: object };
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined) search.set(key, String(value));
  const path = endpointPath(endpoint.path, params);
  return downloadApiFile(`${path}?${search.toString()}`, demo, fallbackName);
}
