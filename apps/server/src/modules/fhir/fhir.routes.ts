import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { exportFhir } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { fhirService } from './fhir.service.js';

/** A wearer's vital signs for another system (a health record) as FHIR R4 (docs/api.md). */
export const fhirRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const fhir = fhirService(ctx);
  serve(
    app,
    exportFhir,
    async (request, reply) => {
      const chunks = await fhir.fhirExport(request.actor, request.query);
      return reply
        .type('application/fhir+json; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(Readable.from(chunks));
    },
    { reads: { what: 'fhir', people: (req) => [req.query.uid] } },
  );
};
