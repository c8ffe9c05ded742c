import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

// Tokens live in the browser's storage, so one injected script would be an account takeover:
// scripts only from our own origin, never inline. Inline styles stay allowed (React and the chart
// library set style attributes; styles cannot run code). Monitoring goes through our own
// /monitoring tunnel, so connect-src needs no other origin; its session replay runs a blob: worker.
const contentSecurityPolicy = (tileOrigin: string | null) => ({
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    // /map's outdoor tiles: the configured tile server's origin, and nothing more (MAP_TILE_URL).
    imgSrc: ["'self'", 'data:', 'blob:', ...(tileOrigin ? [tileOrigin] : [])],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    workerSrc: ["'self'", 'blob:'],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    // The confirm screens must not be framed (clickjacking).
    frameAncestors: ["'none'"],
  },
});

/**
 * The origin of a tile URL template as CSP writes it: `https://{s}.tile.example.org/{z}/{x}/{y}.png`
 * → `https://*.tile.example.org` (a subdomain placeholder becomes the CSP wildcard).
 */
export function tileOriginOf(template: string | null | undefined): string | null {
  if (!template) return null;
  const match = /^(https:\/\/[^/]+)\//i.exec(template);
  if (!match?.[1]) return null;
  return match[1].replace(/\{[a-z]+\}/gi, '*').toLowerCase();
}

const API_PATH = /^\/v[23]\//;

/**
 * Browser security headers on every response (helmet: CSP, nosniff, Referrer-Policy: no-referrer,
 * X-Frame-Options: DENY, …) and `Cache-Control: no-store` on every /v2 and /v3 answer: they carry
 * personal data, which neither a shared proxy nor the browser's disk cache should keep.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  tileUrl: string | null = null,
): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: contentSecurityPolicy(tileOriginOf(tileUrl)),
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // The console is plain HTTP on localhost out of the box; HSTS belongs to the TLS proxy in front.
    strictTransportSecurity: false,
  });
  app.addHook('onSend', async (request, reply) => {
    if (API_PATH.test(request.url)) reply.header('cache-control', 'no-store');
  });
}
