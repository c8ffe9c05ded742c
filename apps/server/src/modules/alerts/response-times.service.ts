import type { Actor, DurationFigures, ResponseTimesQuery, ResponseTimesResponse } from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { responseTimes } from './response-times.repository.js';

/** The longest period the figures cover, in months. */
export const RESPONSE_TIMES_MAX_MONTHS = 24;

const invalid = (path: string, message: string) =>
  new ApiError(400, 'VALIDATION_FAILED', `${path}: ${message}`, [{ path, message }]);

const monthIndex = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
const monthOf = (i: number) => `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;

/** The local month of an instant in a time zone (YYYY-MM). */
function localMonth(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).formatToParts(at);
  return `${parts.find((p) => p.type === 'year')!.value}-${parts.find((p) => p.type === 'month')!.value}`;
}

const round = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);
const fig = (n: number, p: (number | null)[] | null): DurationFigures => ({
  count: n,
  medianSeconds: round(p?.[0] ?? null),
  p90Seconds: round(p?.[1] ?? null),
});

/**
 * Response-time figures of an organisation (or one of its groups): per local month and alert
 * type, median and 90th percentile of raised -> first notice sent, -> first delivered, -> confirmed.
 * Computed in SQL (percentile_cont); the period defaults to the last 12 months including this one.
 */
export async function responseTimesFor(ctx: AppContext, actor: Actor, q: ResponseTimesQuery): Promise<ResponseTimesResponse> {
  const access = accessService(ctx.db);
  await access.require(actor, 'alertFigures:read', 'organization', q.clientId);
  if (q.groupId !== undefined) {
    const group = await access.require(actor, 'alertFigures:read', 'group', q.groupId);
    if (group.organizationId !== q.clientId) throw invalid('querystring.groupId', `group ${q.groupId} is not of organisation ${q.clientId}`);
  }
  const [org] = await ctx.db.query<{ time_zone: string }>('SELECT time_zone FROM organizations WHERE id = $1', [q.clientId]);
  const timeZone = org!.time_zone;
  const current = monthIndex(localMonth(ctx.now(), timeZone));
  const to = q.to ? monthIndex(q.to) : q.from ? Math.max(monthIndex(q.from), Math.min(monthIndex(q.from) + 11, current)) : current;
  const from = q.from ? monthIndex(q.from) : to - 11;
  if (from > to) throw invalid('querystring.to', 'must not be before from');
  if (to - from + 1 > RESPONSE_TIMES_MAX_MONTHS) throw invalid('querystring.to', `the period is at most ${RESPONSE_TIMES_MAX_MONTHS} months`);
  const rows = await responseTimes(ctx.db, actor, {
    organizationId: q.clientId,
    groupId: q.groupId,
    timeZone,
    fromMonth: monthOf(from),
    toMonth: monthOf(to),
  });
  return {
    clientId: q.clientId,
    groupId: q.groupId ?? null,
    timeZone,
    from: monthOf(from),
    to: monthOf(to),
    rows: rows.map((r) => ({
      month: r.month,
      type: r.type,
      alerts: r.alerts,
      toNotice: fig(r.notice_n, r.notice_p),
      toDelivery: fig(r.delivery_n, r.delivery_p),
      toConfirm: fig(r.confirm_n, r.confirm_p),
    })),
  };
}
