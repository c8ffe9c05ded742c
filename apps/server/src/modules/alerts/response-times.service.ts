import type { Actor, ResponseTimesQuery, ResponseTimesResponse } from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { responseTimesRows } from './response-times-figures.js';
import { responseTimesRepository } from './response-times.repository.js';

/** The longest period the figures cover, in months. */
export const RESPONSE_TIMES_MAX_MONTHS = 24;

const invalid = (path: string, message: string) =>
  new ApiError(400, 'VALIDATION_FAILED', `${path}: ${message}`, [{ path, message }]);

const monthIndex = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
const monthOf = (i: number) => `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;

/** The local month of an instant in a time zone (YYYY-MM). */
function localMonth(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
  }).formatToParts(at);
  return `${parts.find((p) => p.type === 'year')!.value}-${parts.find((p) => p.type === 'month')!.value}`;
}

export function responseTimesService(ctx: AppContext) {
  return {
    /**
     * Response-time figures of an organisation (or one of its groups): per local month and alert
     * type, median and 90th percentile of raised -> first notice sent, -> first delivered, -> confirmed.
     * SQL gives the alerts' times, TypeScript the exact percentiles (percentile_cont's); the period defaults to the
     * last 12 months including this one.
     */
    async responseTimesFor(actor: Actor, q: ResponseTimesQuery): Promise<ResponseTimesResponse> {
      const access = accessService(ctx.db);
      await access.require(actor, 'alertFigures:read', 'organization', q.clientId);
      if (q.groupId !== undefined) {
        const group = await access.require(actor, 'alertFigures:read', 'group', q.groupId);
        if (group.organizationId !== q.clientId)
          throw invalid(
            'querystring.groupId',
            `group ${q.groupId} is not of organisation ${q.clientId}`,
          );
      }
      if (q.uid !== undefined) {
        const wearer = await access.require(actor, 'alertFigures:read', 'wearer', q.uid);
        if (wearer.organizationId !== q.clientId)
          throw invalid('querystring.uid', `wearer ${q.uid} is not of organisation ${q.clientId}`);
      }
      const [org] = await ctx.db.query<{ time_zone: string }>(
        'SELECT time_zone FROM organizations WHERE id = $1',
        [q.clientId],
      );
      const timeZone = org!.time_zone;
      const current = monthIndex(localMonth(ctx.now(), timeZone));
      const to = q.to
        ? monthIndex(q.to)
        : q.from
          ? Math.max(monthIndex(q.from), Math.min(monthIndex(q.from) + 11, current))
          : current;
      const from = q.from ? monthIndex(q.from) : to - 11;
      if (from > to) throw invalid('querystring.to', 'must not be before from');
      if (to - from + 1 > RESPONSE_TIMES_MAX_MONTHS)
        throw invalid(
          'querystring.to',
          `the period is at most ${RESPONSE_TIMES_MAX_MONTHS} months`,
        );
      const starts = await responseTimesRepository(ctx.db).monthStarts(
        timeZone,
        monthOf(from),
        to - from + 1,
      );
      const types = await responseTimesRepository(ctx.db).responseTimesByType(actor, {
        organizationId: q.clientId,
        groupId: q.groupId,
        wearerId: q.uid,
        start: starts[0]!,
        stop: starts[starts.length - 1]!,
      });
      return {
        clientId: q.clientId,
        groupId: q.groupId ?? null,
        uid: q.uid ?? null,
        timeZone,
        from: monthOf(from),
        to: monthOf(to),
        rows: responseTimesRows(types, starts, (month) => monthOf(from + month)),
      };
    },
  };
}
