import { api } from '../../../lib/api';
import { getAccessToken } from '../../../lib/storage';
import type { AlertQuery } from './alert-filters';

const FALLBACK_NAME = 'alerts.csv';

function csvUrl(query: AlertQuery, demo: boolean, path = '/v2/alert/listCsv'): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined) params.set(key, String(value));
  return `${demo ? '/demo-api' : ''}${path}?${params.toString()}`;
}

/** The file name the server suggests in Content-Disposition. */
export function fileNameOf(disposition: string | null): string {
  const match = /filename="?([^";]+)"?/i.exec(disposition ?? '');
  return match?.[1] ?? FALLBACK_NAME;
}

async function fetchCsv(url: string, demo: boolean): Promise<Response> {
  const token = demo ? null : getAccessToken();
  return fetch(url, { headers: token === null ? {} : { Authorization: `Bearer ${token}` } });
}

/**
 * GET /v2/alert/listCsv with the bearer token. The API client reads JSON, so the CSV is fetched here;
 * on 401 a cheap client call lets the API client refresh the token, then this tries once more.
 * The bytes are saved untouched (the server's BOM keeps Excel reading UTF-8).
 */
export async function downloadAlertsCsv(
  query: AlertQuery,
  demo: boolean,
  /** Another CSV of the alerts API (the response-time figures), same handling. */
  path = '/v2/alert/listCsv',
): Promise<{ ok: boolean; status: number }> {
  const url = csvUrl(query, demo, path);
  let response = await fetchCsv(url, demo).catch(() => null);
  if (response?.status === 401 && !demo) {
    await api.get('/v2/alert/list', { query: { pageSize: 1 } });
    response = await fetchCsv(url, demo).catch(() => null);
  }
  if (response === null || !response.ok) return { ok: false, status: response?.status ?? 600 };
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileNameOf(response.headers.get('Content-Disposition'));
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return { ok: true, status: response.status };
}
