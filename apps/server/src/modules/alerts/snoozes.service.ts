import { randomUUID } from 'node:crypto';
import {
  type Actor,
  ALERT_LEVEL_OF,
  type AlertType,
  isFlagSet,
  isSnoozable,
  type SnoozeBody,
  type SnoozeListQuery,
  type SnoozeView,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { accessService } from '../../access/access.service.js';
import { SqlParams, wearerScope } from '../../access/scope-sql.js';
import { ApiError, conflict, notFound } from '../../errors.js';
import { auditService } from '../audit/audit.service.js';

/** How far back includeEnded (and the handover) look for snoozes that are over. */
const ENDED_LOOKBACK_MS = 7 * 24 * 3600_000;

interface SnoozeRow {
  id: string;
  wearer_id: string;
  wearer_name: string;
  group_id: string | null;
  group_name: string | null;
  organization_id: string;
  alert_type: AlertType;
  reason: string;
  created_by: string | null;
  created_by_name: string | null;
  created_at: Date | string;
  until: Date | string;
  ended_at: Date | string | null;
  ended_by: string | null;
  ended_by_name: string | null;
}

const iso = (v: Date | string): string => new Date(v).toISOString();
const person = (uid: string | null, name: string | null) =>
  uid ? { uid, name: name ?? '' } : null;

function toView(r: SnoozeRow, now: Date): SnoozeView {
  return {
    id: r.id,
    wearer: { uid: r.wearer_id, name: r.wearer_name },
    groupId: r.group_id,
    groupName: r.group_name,
    clientId: r.organization_id,
    alertType: r.alert_type,
    level: ALERT_LEVEL_OF[r.alert_type],
    reason: r.reason,
    createdBy: person(r.created_by, r.created_by_name),
    createdAt: iso(r.created_at),
    until: iso(r.until),
    endedAt: r.ended_at === null ? null : iso(r.ended_at),
    endedBy: person(r.ended_by, r.ended_by_name),
    active: r.ended_at === null && new Date(r.until).getTime() > now.getTime(),
  };
}

const SELECT = `
  SELECT s.id, s.wearer_id, u.name AS wearer_name, u.group_id, g.name AS group_name, s.organization_id,
         s.alert_type, s.reason, s.created_by, cb.name AS created_by_name, s.created_at, s.until,
         s.ended_at, s.ended_by, eb.name AS ended_by_name
    FROM alert_snoozes s
    JOIN users u ON u.id = s.wearer_id
    LEFT JOIN groups g ON g.id = u.group_id
    LEFT JOIN users cb ON cb.id = s.created_by
    LEFT JOIN users eb ON eb.id = s.ended_by`;

/** Snoozes of the wearers the actor may see: active ones, or (since) also those created or ended since then. */
async function findSnoozes(
  db: Queryable,
  actor: Actor,
  f: {
    organizationId?: string | undefined;
    groupId?: string | undefined;
    wearerId?: string | undefined;
    ids?: string[];
  },
  now: Date,
  since?: Date,
): Promise<SnoozeView[]> {
  const p = new SqlParams();
  const where = [
    wearerScope(
      actor,
      p,
      { organizationId: f.organizationId, groupId: f.groupId, wearerId: f.wearerId },
      'u',
    ),
  ];
  if (f.ids) {
    where.push(`s.id = ANY(${p.add(f.ids)}::text[])`);
  } else {
    const active = `(s.ended_at IS NULL AND s.until > ${p.add(now)})`;
    where.push(
      since
        ? `(${active} OR s.created_at >= ${p.add(since)} OR s.ended_at >= ${p.add(since)})`
        : active,
    );
  }
  const rows = await db.query<SnoozeRow>(
    `${SELECT} WHERE ${where.join(' AND ')} ORDER BY s.created_at DESC, s.id LIMIT 500`,
    p.values,
  );
  return rows.map((r) => toView(r, now));
}

function listSnoozes(ctx: AppContext, actor: Actor, q: SnoozeListQuery): Promise<SnoozeView[]> {
  const now = ctx.now();
  const since = isFlagSet(q.includeEnded) ? new Date(now.getTime() - ENDED_LOOKBACK_MS) : undefined;
  return findSnoozes(
    ctx.db,
    actor,
    { organizationId: q.clientId, groupId: q.groupId, wearerId: q.uid },
    now,
    since,
  );
}

/**
 * Snoozes one alert type of one wearer for `minutes` (at most 720) with a reason, audited in the same
 * transaction. EMERGENCY and CRITICAL types: 400 naming the field and why. One active snooze per
 * wearer and type: another is 409 (end it first), so a snooze is never silently extended.
 */
async function createSnooze(ctx: AppContext, actor: Actor, body: SnoozeBody): Promise<SnoozeView> {
  const at = await accessService(ctx.db).require(actor, 'alert:snooze', 'wearer', body.uid);
  if (!isSnoozable(body.alertType)) {
    const message = `${body.alertType} is a ${ALERT_LEVEL_OF[body.alertType]} alert: EMERGENCY and CRITICAL alerts can never be snoozed`;
    throw new ApiError(400, 'ALERT_TYPE_NOT_SNOOZABLE', `body.alertType: ${message}`, [
      { path: 'body.alertType', message },
    ]);
  }
  const now = ctx.now();
  const until = new Date(now.getTime() + body.minutes * 60_000);
  const id = randomUUID();
  await ctx.db.transaction(async (tx) => {
    // Two snoozes of one wearer at once take turns: the second sees the first.
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [body.uid]);
    const [active] = await tx.query<{ until: Date | string }>(
      'SELECT until FROM alert_snoozes WHERE wearer_id = $1 AND alert_type = $2 AND ended_at IS NULL AND until > $3',
      [body.uid, body.alertType, now],
    );
    if (active) {
      throw conflict(
        `${body.alertType} of this wearer is already snoozed until ${iso(active.until)}; end that snooze first`,
        'ALREADY_SNOOZED',
      );
    }
    await tx.query(
      `INSERT INTO alert_snoozes (id, organization_id, wearer_id, alert_type, reason, created_by, created_at, until)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [id, at.organizationId, body.uid, body.alertType, body.reason, actor.uid, now, until],
    );
    await auditService(tx).record({
      organizationId: at.organizationId,
      actorId: actor.uid,
      kind: 'alert.snooze',
      targetId: body.uid,
      after: {
        snoozeId: id,
        alertType: body.alertType,
        until: until.toISOString(),
        reason: body.reason,
      },
    });
  });
  const [view] = await findSnoozes(ctx.db, actor, { ids: [id] }, now);
  if (!view) throw new Error(`snooze ${id} vanished`);
  return view;
}

/** Ends a snooze early (audited); one already over is answered as it is. */
async function endSnooze(ctx: AppContext, actor: Actor, snoozeId: string): Promise<SnoozeView> {
  const [row] = await ctx.db.query<{ wearer_id: string; organization_id: string }>(
    'SELECT wearer_id, organization_id FROM alert_snoozes WHERE id = $1',
    [snoozeId],
  );
  const missing = () => notFound(`Snooze ${snoozeId} not found`, 'SNOOZE_NOT_FOUND');
  if (!row) throw missing();
  try {
    await accessService(ctx.db).require(actor, 'alert:snooze', 'wearer', row.wearer_id);
  } catch (err) {
    // Not the wearer's id in the answer: an unreachable snooze is just not found.
    throw err instanceof ApiError && err.statusCode === 404 ? missing() : err;
  }
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const ended = await tx.query<{ alert_type: string }>(
      `UPDATE alert_snoozes SET ended_at = $2, ended_by = $3 WHERE id = $1 AND ended_at IS NULL AND until > $2
       RETURNING alert_type`,
      [snoozeId, now, actor.uid],
    );
    if (ended[0]) {
      await auditService(tx).record({
        organizationId: row.organization_id,
        actorId: actor.uid,
        kind: 'alert.snooze',
        targetId: row.wearer_id,
        before: { snoozeId, alertType: ended[0].alert_type },
        after: { snoozeId, endedAt: now.toISOString() },
      });
    }
  });
  const [view] = await findSnoozes(ctx.db, actor, { ids: [snoozeId] }, now);
  if (!view) throw missing();
  return view;
}

/** Snoozes: the wearers' snoozed alert types, listed, created and ended within the actor's scope. */
export function snoozesService(ctx: AppContext) {
  return {
    /** Active ones, or (since) also those created or ended since then; the handover's read. */
    find: (actor: Actor, f: Parameters<typeof findSnoozes>[2], now: Date, since?: Date) =>
      findSnoozes(ctx.db, actor, f, now, since),
    list: (actor: Actor, q: SnoozeListQuery) => listSnoozes(ctx, actor, q),
    create: (actor: Actor, body: SnoozeBody) => createSnooze(ctx, actor, body),
    end: (actor: Actor, snoozeId: string) => endSnooze(ctx, actor, snoozeId),
  };
}
