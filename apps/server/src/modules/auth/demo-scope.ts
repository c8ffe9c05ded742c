import type { IncomingMessage } from 'node:http';

// Raw requests that came in under /demo-api; the auth plugin gives them the demo actor.
const demoRequests = new WeakSet<IncomingMessage>();
const DEMO_PREFIX = /^\/demo-api(?=\/v[23](?:[/?]|$))/;

/**
 * Fastify's rewriteUrl: /demo-api/v2/... and /demo-api/v3/... run the ordinary /v2 and /v3
 * routes, remembered as demo requests (read-only, acting as the demo organisation's owner).
 */
export function rewriteDemoUrl(req: IncomingMessage): string {
  const url = req.url ?? '/';
  if (!url.startsWith('/demo-api/')) return url;
  const rewritten = url.replace(DEMO_PREFIX, '');
  if (rewritten !== url) demoRequests.add(req);
  return rewritten;
}

export const isDemoRequest = (req: IncomingMessage): boolean => demoRequests.has(req);
