import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { AccessWhat } from '../modules/access-log/access-log-chain.js';
import { accessLogService } from '../modules/access-log/access-log.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The people this read shows, set by `serve()` from the endpoint's `reads` (docs/access-log.md). */
    accessRead: { what: AccessWhat; personIds: string[] } | null;
  }
}

/** A handler that sends its own reply names the people it shows before sending. */
export function noteRead(request: FastifyRequest, personIds: readonly string[]): void {
  if (request.accessRead) request.accessRead.personIds = [...personIds];
}

/**
 * Writes the access-log entry of a successful read before its answer leaves (onSend): a read
 * whose entry cannot be written is answered with an error, never sent unrecorded. Refused reads
 * (4xx, 5xx) and the public demo (no real person) write nothing.
 */
const accessLogPlugin: FastifyPluginAsync<{ ctx: AppContext }> = async (
  app: FastifyInstance,
  { ctx },
) => {
  const accessLog = accessLogService(ctx);
  app.decorateRequest('accessRead', null);
  app.addHook('onSend', async (request, reply, payload) => {
    const read = request.accessRead;
    if (!read || request.isDemo || reply.statusCode >= 400 || !request.actor) return payload;
    request.accessRead = null;
    await accessLog.recordRead(
      {
        actor: request.actor,
        sessionId: request.sessionId,
        apiTokenId: request.apiToken?.id ?? null,
        ip: request.ip,
      },
      read.what,
      read.personIds,
    );
    return payload;
  });
};
// Not encapsulated: the hook applies to every route of the app.
Object.assign(accessLogPlugin, { [Symbol.for('skip-override')]: true });

export { accessLogPlugin };
