import type { FastifyPluginAsync } from 'fastify';
import { getNightRound, getNightRoundCsv, markNightRound } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { nightAlertsCsv } from './night-round-csv.js';
import { nightRoundService } from './night-round.service.js';

/** The care home's night round per group: the sheet, the marks, the night's alerts as CSV. */
export const nightRoundRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const round = nightRoundService(ctx);

  serve(app, getNightRound, (req) => round.sheet(req.actor, req.params.groupId, req.query.night), {
    reads: { what: 'night-round', peopleInAnswer: (sheet) => sheet.wearers.map((w) => w.uid) },
  });
  serve(app, markNightRound, (req) => round.mark(req.actor, req.params.groupId, req.body));
  serve(app, getNightRoundCsv, async (req, reply) => {
    const { night, timeZone, alerts } = await round.nightAlerts(
      req.actor,
      req.params.groupId,
      req.query.night,
    );
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="night-round-${night}.csv"`)
      .send(nightAlertsCsv(alerts, timeZone));
  });
};
