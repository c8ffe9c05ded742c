import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { ApiError } from '../errors.js';

// The gateway route refuses such items one by one (modules/ingestion/batch-items.ts), keeping the valid ones;
// the monitoring tunnel stores nothing and relays envelopes whose binary items (replays) may hold zero bytes.
const EXEMPT = new Set(['/gateway/v1/batches', '/monitoring']);
const MAX_DEPTH = 8;

function nulPath(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  // A vendor gateway's body is bytes (no text until its decoder reads it): walking it visited every byte.
  if (ArrayBuffer.isView(value)) return null;
  for (const [key, inner] of Object.entries(value)) {
    const found = nulPath(inner, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * PostgreSQL text cannot hold U+0000: a NUL byte in any parameter (`%00` in a path or query, `\u0000` in
 * JSON) made the first query touching it fail with a 500. Refused here as a 400 naming the field, before
 * any route runs, so no endpoint can forget it.
 */
const nulGuard: FastifyPluginAsync = async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.url && EXEMPT.has(request.routeOptions.url)) return;
    const where =
      nulPath(request.params, 'params') ??
      nulPath(request.query, 'querystring') ??
      nulPath(request.body, 'body');
    if (where) {
      const issues = [{ path: where, message: 'must not contain a NUL character' }];
      throw new ApiError(
        400,
        'VALIDATION_FAILED',
        `${where}: must not contain a NUL character`,
        issues,
      );
    }
  });
};
// Not encapsulated: the hook applies to every route of the app.
Object.assign(nulGuard, { [Symbol.for('skip-override')]: true });
export { nulGuard };
