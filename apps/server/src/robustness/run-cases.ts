import type { FastifyInstance } from 'fastify';
import { errorBody } from '@wearable/domain';
import type { RobustCase } from './variants.js';

export interface Outcome {
  c: RobustCase;
  status: number;
  body: string;
}

// The suite's failed sign-ins count against one client address; a random one per file keeps them from
// reaching the address limit that other test files sharing the database sign in from.
const octet = () => 1 + Math.floor(Math.random() * 250);
const remoteAddress = `10.${octet()}.${octet()}.${octet()}`;

/** Sends the cases through app.inject a few at a time (no sockets, no sleeps). */
export async function runCases(
  app: FastifyInstance,
  cases: RobustCase[],
  concurrency = 16,
): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (let i = 0; i < cases.length; i += concurrency) {
    const chunk = cases.slice(i, i + concurrency);
    const results = await Promise.all(
      chunk.map(async (c) => {
        const res = await app.inject({
          method: c.method as 'GET',
          url: c.url,
          headers: c.headers,
          remoteAddress,
          ...(c.payload !== undefined ? { payload: c.payload } : {}),
        });
        return { c, status: res.statusCode, body: res.body };
      }),
    );
    out.push(...results);
  }
  return out;
}

const clip = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n)}...(${s.length} chars)` : s);

/** What is wrong with one answer, or null: the message says method, path and payload so it is actionable. */
export function problemOf({ c, status, body }: Outcome, wantStatus?: number): string | null {
  const where = `${c.method} ${clip(c.url)} [${c.what}] payload=${clip(c.payload ?? '')}`;
  if (status >= 500) return `${where} -> ${status} ${clip(body, 300)}`;
  if (wantStatus !== undefined && status !== wantStatus)
    return `${where} -> ${status}, expected ${wantStatus}: ${clip(body, 200)}`;
  if (c.expect !== 'safe' && status < 400) return `${where} -> ${status}, expected a 4xx`;
  if (c.expect === 'invalid' && wantStatus === undefined && status !== 400)
    return `${where} -> ${status}, expected 400: ${clip(body, 200)}`;
  // A HEAD answer has no body to check.
  if (status < 400 || c.method === 'HEAD') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `${where} -> ${status} with a non-JSON body: ${clip(body)}`;
  }
  const shape = errorBody.safeParse(parsed);
  if (!shape.success) return `${where} -> ${status} without the error shape: ${clip(body)}`;
  if (shape.data.statusCode !== status || shape.data.message.trim() === '') {
    return `${where} -> ${status} with statusCode ${shape.data.statusCode} / empty message: ${clip(body)}`;
  }
  if (
    status === 400 &&
    c.expect === 'invalid' &&
    c.names &&
    !shape.data.message.includes(c.names)
  ) {
    return `${where} -> 400 whose message does not name ${c.names}: ${clip(shape.data.message, 200)}`;
  }
  return null;
}
