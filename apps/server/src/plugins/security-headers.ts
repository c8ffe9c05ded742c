import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

// Tokens live in the browser's storage, so one injected script would be an account takeover:
// scripts only from our own origin, never inline. Inline styles stay allowed (React and the chart
// library set style attributes; styles cannot run code). Monitoring goes through our own
// /monitoring tunnel, so connect-src needs no other origin; its session replay runs a blob: worker.
const CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    workerSrc: ["'self'", 'blob:'],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    // The confirm screens must not be framed (clickjacking).
    frameAncestors: ["'none'"],
  },
};

const API_PATH = /^\/v[23]\//;

/**
 * Browser security headers on every response (helmet: CSP, nosniff, Referrer-Policy: no-referrer,
 * X-Frame-Options: DENY, …) and `Cache-Control: no-store` on every /v2 and /v3 answer: they carry
 * personal data, which neither a shared proxy nor the browser's disk cache should keep.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // The console is plain HTTP on localhost out of the box; HSTS belongs to the TLS proxy in front.
    strictTransportSecurity: false,
  });
  app.addHook('onSend', async (request, reply) => {
    if (API_PATH.test(request.url)) reply.header('cache-control', 'no-store');
  });
}
