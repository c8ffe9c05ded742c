import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { erasePersonData, exportPersonData } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { personDataService } from './person-data.service.js';

/** A person's data on request (docs/privacy.md): the export as a streamed ZIP, and the erasure. */
export const personDataRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const personData = personDataService(ctx);

  serve(
    app,
    exportPersonData,
    async (req, reply) => {
      const { filename, chunks } = await personData.export(req.actor, req.params.uid);
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(Readable.from(chunks));
    },
    { reads: { what: 'data-export', people: (req) => [req.params.uid] } },
  );
  serve(app, erasePersonData, async (req) => {
    await personData.erase(req.actor, req.params.uid);
    return { ok: true as const };
  });
};
