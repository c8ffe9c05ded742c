import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { type ResolvedHost, resolvePublicHost } from './webhook-address.js';

/** At most this much of a receiver's answer is read (then the connection is dropped). */
export const RESPONSE_READ_MAX = 64 * 1024;

export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface SignedDelivery {
  id: string;
  url: string;
  /** The endpoint's secret, whsec_… */
  secret: string;
  payload: string;
}

/** Standard Webhooks headers for one attempt (the timestamp is the attempt's; the id never changes). */
export function signedHeaders(d: SignedDelivery, at: Date): Record<string, string> {
  const signature = new Webhook(d.secret).sign(d.id, at, d.payload);
  return {
    'webhook-id': d.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

/** A lookup that answers the address already checked, so the connection goes where we checked. */
const pinned =
  (to: ResolvedHost): LookupFunction =>
  (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      callback(null, [{ address: to.address, family: to.family }]);
    else callback(null, to.address, to.family);
  };

/**
 * One attempt: resolve and check the host (SSRF, webhook-address.ts), POST the signed body to the
 * checked address (TLS still verifies the URL's host name), no redirects followed, an overall
 * deadline, and at most RESPONSE_READ_MAX of the answer read. Never throws.
 */
export async function sendAttempt(
  d: SignedDelivery,
  opts: { allowPrivate: boolean; timeoutMs: number; now: () => Date },
): Promise<AttemptResult> {
  const started = Date.now();
  const took = () => Date.now() - started;
  let to: ResolvedHost;
  try {
    to = await resolvePublicHost(d.url, opts.allowPrivate);
  } catch (err) {
    return { statusCode: null, durationMs: took(), error: (err as Error).message };
  }
  const url = new URL(d.url);
  const body = Buffer.from(d.payload);
  const headers = {
    'content-type': 'application/json',
    'content-length': String(body.length),
    'user-agent': 'wearable-console-webhooks/1',
    ...signedHeaders(d, opts.now()),
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...r, durationMs: took() });
    };
    const req = client.request(
      url,
      { method: 'POST', headers, lookup: pinned(to), agent: false },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > RESPONSE_READ_MAX) {
            finish({ statusCode: res.statusCode ?? null, error: null });
            res.destroy();
          }
        });
        res.on('end', () => finish({ statusCode: res.statusCode ?? null, error: null }));
        res.on('error', () => finish({ statusCode: res.statusCode ?? null, error: null }));
      },
    );
    const deadline = setTimeout(() => {
      finish({ statusCode: null, error: `no answer within ${opts.timeoutMs} ms` });
      req.destroy();
    }, opts.timeoutMs);
    req.on('error', (err) => finish({ statusCode: null, error: err.message }));
    req.end(body);
  });
}
