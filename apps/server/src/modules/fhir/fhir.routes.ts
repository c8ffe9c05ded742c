import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, fhirExportQuery } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { fhirExport } from './fhir.service.js';

/** A wearer's vital signs for another system (a health record) as FHIR R4 (docs/api.md). */
export const fhirRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/v2/device/fhir',
    {
      config: { permission: 'wearer:exportFhir' },
      schema: {
        tags: ['Device data'],
        summary:
          "A wearer's data for a period (at most 31 days) as a FHIR R4 Bundle of type collection: Patient, Device and Observations (heart rate 8867-4, skin temperature 39106-0, steps 55423-8 per interval and 41950-7 per day) from the per-minute or per-hour rollups; streamed",
        security: [{ bearer: [] }],
        querystring: fhirExportQuery,
        produces: ['application/fhir+json'],
        response: {
          200: z.unknown().describe('A FHIR R4 Bundle (JSON), streamed'),
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
        },
      },
    },
    async (request, reply) => {
      const chunks = await fhirExport(ctx, request.actor, request.query);
      return reply
        .type('application/fhir+json; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(Readable.from(chunks));
    },
  );
};
