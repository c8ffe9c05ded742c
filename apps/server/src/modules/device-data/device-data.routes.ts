import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  getDeviceSummary,
  historyQuery,
  historyResponse,
  monthlyReportCsvQuery,
  monthlyReportQuery,
  monthlyReportResponse,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { historyFor, monthlyReportFor, summaryFor } from './device-data.service.js';
import { monthlyReportCsv, monthlyReportFileName } from './monthly-report-csv.js';
import { startPlannerStats } from './planner-stats.job.js';

/** If-None-Match names these bytes (a list, `*`, weak or strong: compared weakly, RFC 9110 13.1.2). */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

/** Wearers' latest state, history and monthly report. */
export const deviceDataRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (base, { ctx }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Device data'];
  const stopStats = startPlannerStats(ctx, app.log);
  app.addHook('onClose', async () => {
    stopStats();
  });

  serve(app, getDeviceSummary, async (request, reply) => {
    const acceptsGzip = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
    const { body, gzip, etag } = await summaryFor(
      ctx,
      request.actor,
      { organizationId: request.query.clientId, groupId: request.query.groupId },
      acceptsGzip,
      request.query.format,
    );
    void reply.header('vary', 'accept-encoding');
    // A caller that kept the bytes (in memory: the answer stays `no-store`, it is personal data)
    // asks again with If-None-Match: unchanged means a 304 and nothing sent.
    if (etag !== undefined) {
      void reply.header('etag', etag);
      if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
    }
    if (gzip) void reply.header('content-encoding', 'gzip');
    // Serialised once per snapshot by the database in the contract's shape (checked by the tests);
    // Fastify sends bytes as they are, so the schema documents the answer without re-validating rows.
    return reply.type('application/json; charset=utf-8').send(body);
  });

  app.get(
    '/v3/device/history',
    {
      config: { permission: 'wearer:read' },
      schema: { tags, querystring: historyQuery, response: { 200: historyResponse } },
    },
    (request) => historyFor(ctx, request.actor, request.query),
  );

  app.get(
    '/v2/device/monthlyReport',
    {
      config: { permission: 'wearer:read' },
      schema: { tags, querystring: monthlyReportQuery, response: { 200: monthlyReportResponse } },
    },
    (request) => monthlyReportFor(ctx, request.actor, request.query.uid, request.query.month),
  );

  app.get(
    '/v2/device/monthlyReportCsv',
    {
      config: { permission: 'wearer:read' },
      schema: {
        tags,
        summary:
          "A wearer's monthly report as CSV for Excel (UTF-8 with BOM, CRLF; days in the organisation's zone)",
        querystring: monthlyReportCsvQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { uid, month, lng } = request.query;
      const report = await monthlyReportFor(ctx, request.actor, uid, month);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${monthlyReportFileName(uid, month)}"`,
        )
        .send(monthlyReportCsv(report, lng));
    },
  );
};
