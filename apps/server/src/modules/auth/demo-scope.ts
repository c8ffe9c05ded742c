import type { IncomingMessage } from 'node:http';

const DEMO_PREFIX = /^\/demo-api(?=\/v[23](?:[/?]|$))/;
// The mark of a raw request that came in under /demo-api: on the request itself (it lives and goes
// with it), under a symbol no header or body can set.
const DEMO = Symbol('demo request');
type Marked = IncomingMessage & { [DEMO]?: true };

/**
 * Fastify's rewriteUrl: /demo-api/v2/... and /demo-api/v3/... run the ordinary /v2 and /v3
 * routes, marked as demo requests (read-only, acting as the demo organisation's owner).
 */
export function rewriteDemoUrl(req: IncomingMessage): string {
  const url = req.url ?? '/';
  if (!url.startsWith('/demo-api/')) return url;
  const rewritten = url.replace(DEMO_PREFIX, '');
  if (rewritten !== url) (req as Marked)[DEMO] = true;
  return rewritten;
}

export const isDemoRequest = (req: IncomingMessage): boolean => (req as Marked)[DEMO] === true;
