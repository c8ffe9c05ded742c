import {
  type Actor,
  nextOnCall,
  type OnCallOptions,
  type OnCallOverrideBody,
  type OnCallResponse,
  type OnCallRota,
  type OnCallSlot,
  onCallAt,
} from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { ApiError, notFound } from '../../errors.js';
import { isJapaneseHoliday } from '../../engine/holidays.js';
import { auditService } from '../audit/audit.service.js';
import type { RecipientRow } from './notifications.repository.js';
import {
  type OnCallGroupRow,
  onCallRepository,
  type OverrideRow,
  toOverride,
} from './on-call.repository.js';

const iso = (v: Date | string): string => new Date(v).toISOString();

/** A holiday counts as the weekend for the weekend turn unless the group treats holidays as weekdays. */
export const onCallOptionsOf = (
  g: Pick<OnCallGroupRow, 'public_holidays_as_weekdays'>,
): OnCallOptions => (g.public_holidays_as_weekdays ? {} : { isHoliday: isJapaneseHoliday });

const invalid = (issues: { path: string; message: string }[]) =>
  new ApiError(
    400,
    'VALIDATION_FAILED',
    issues.map((x) => `${x.path}: ${x.message}`).join('; '),
    issues,
  );

/**
 * On-call rotas (issue 38 item 3, docs/on-call.md): a group's rota and overrides, who is on call now
 * and next, and the notice recipients that name "whoever is on call", resolved when a notice leaves.
 */
export function onCallService(ctx: AppContext) {
  const repo = onCallRepository(ctx.db);

  async function slotsOf(g: OnCallGroupRow, at: Date) {
    const overrideRows = await repo.overrides(g.group_id, at);
    const overrides = overrideRows.map(toOverride);
    const options = onCallOptionsOf(g);
    return {
      overrideRows,
      now: onCallAt(g.rota, overrides, at, g.time_zone, options),
      next: nextOnCall(g.rota, overrides, at, g.time_zone, options),
    };
  }

  async function view(g: OnCallGroupRow): Promise<OnCallResponse> {
    const at = ctx.now();
    const { overrideRows, now, next } = await slotsOf(g, at);
    const staff = await repo.staff(g.organization_id);
    const names = new Map(staff.map((s) => [s.id, s.name]));
    const slot = (s: OnCallSlot) => ({
      people: s.userIds
        .filter((u) => names.has(u))
        .map((u) => ({ userId: u, name: names.get(u) ?? '' })),
      from: iso(s.from),
      until: iso(s.until),
      source: s.source,
    });
    return {
      groupId: g.group_id,
      groupName: g.group_name,
      timeZone: g.time_zone,
      publicHolidaysAsWeekdays: g.public_holidays_as_weekdays,
      rota: g.rota,
      overrides: overrideRows.map((o: OverrideRow) => ({
        id: o.id,
        userId: o.user_id,
        userName: o.user_name,
        startsAt: iso(o.starts_at),
        endsAt: iso(o.ends_at),
        note: o.note,
        createdAt: iso(o.created_at),
        createdBy: o.created_by,
      })),
      now: slot(now),
      next: slot(next),
      candidates: staff.map((s) => ({ userId: s.id, name: s.name })),
    };
  }

  async function groupFor(actor: Actor, groupId: string, write: boolean) {
    await accessService(ctx.db).require(
      actor,
      write ? 'noticeSettings:update' : 'noticeSettings:read',
      'group',
      groupId,
    );
    const g = await repo.group(groupId);
    if (!g) throw notFound(`Group ${groupId} not found`, 'GROUP_NOT_FOUND');
    return g;
  }

  /** The people named must be living staff of the group's organisation (400 naming each one that is not). */
  async function requireStaff(organizationId: string, named: { path: string; userId: string }[]) {
    const staff = new Set(
      (await repo.people(organizationId, [...new Set(named.map((n) => n.userId))])).map(
        (p) => p.id,
      ),
    );
    const issues = named
      .filter((n) => !staff.has(n.userId))
      .map((n) => ({ path: n.path, message: `${n.userId} is not staff of this organisation` }));
    if (issues.length) throw invalid(issues);
  }

  return {
    async get(actor: Actor, groupId: string): Promise<OnCallResponse> {
      return view(await groupFor(actor, groupId, false));
    },

    async putRota(actor: Actor, groupId: string, rota: OnCallRota | null): Promise<OnCallResponse> {
      const g = await groupFor(actor, groupId, true);
      if (rota)
        await requireStaff(g.organization_id, [
          ...rota.members.map((userId, i) => ({ path: `body.rota.members.${i}`, userId })),
          ...(rota.holidayMembers ?? []).map((userId, i) => ({
            path: `body.rota.holidayMembers.${i}`,
            userId,
          })),
        ]);
      await ctx.db.transaction(async (tx) => {
        await onCallRepository(tx).putRota(g.organization_id, groupId, rota, ctx.now(), actor.uid);
        await auditService(tx).record({
          organizationId: g.organization_id,
          actorId: actor.uid,
          kind: 'onCall.change',
          targetId: groupId,
          before: { rota: g.rota },
          after: { rota },
        });
      });
      return view((await repo.group(groupId)) ?? g);
    },

    async addOverride(
      actor: Actor,
      groupId: string,
      body: OnCallOverrideBody,
    ): Promise<OnCallResponse> {
      const g = await groupFor(actor, groupId, true);
      await requireStaff(g.organization_id, [{ path: 'body.userId', userId: body.userId }]);
      const o = {
        userId: body.userId,
        startsAt: new Date(body.startsAt),
        endsAt: new Date(body.endsAt),
        note: body.note?.length ? body.note : null,
      };
      if (o.endsAt.getTime() <= ctx.now().getTime())
        throw invalid([{ path: 'body.endsAt', message: 'is in the past' }]);
      await ctx.db.transaction(async (tx) => {
        const id = await onCallRepository(tx).addOverride(
          g.organization_id,
          groupId,
          o,
          ctx.now(),
          actor.uid,
        );
        await auditService(tx).record({
          organizationId: g.organization_id,
          actorId: actor.uid,
          kind: 'onCall.change',
          targetId: groupId,
          after: { override: { id, ...o } },
        });
      });
      return view(g);
    },

    async removeOverride(
      actor: Actor,
      groupId: string,
      overrideId: string,
    ): Promise<OnCallResponse> {
      const g = await groupFor(actor, groupId, true);
      await ctx.db.transaction(async (tx) => {
        const removed = await onCallRepository(tx).removeOverride(groupId, overrideId);
        if (!removed)
          throw notFound(`Override ${overrideId} not found in this group`, 'OVERRIDE_NOT_FOUND');
        await auditService(tx).record({
          organizationId: g.organization_id,
          actorId: actor.uid,
          kind: 'onCall.change',
          targetId: groupId,
          before: {
            override: {
              id: removed.id,
              userId: removed.user_id,
              startsAt: iso(removed.starts_at),
              endsAt: iso(removed.ends_at),
              note: removed.note,
            },
          },
        });
      });
      return view(g);
    },

    /**
     * Who is on call now and next in each group of the organisation that has a rota or cover (the
     * groups page); by group id, with names.
     */
    async organizationNow(
      organizationId: string,
    ): Promise<Map<string, { now: string[]; until: string; next: string[] }>> {
      const at = ctx.now();
      const [rotas, overrideRows, staff] = await Promise.all([
        repo.groupsWithRota(organizationId),
        repo.overridesOfOrganization(organizationId, at),
        repo.staff(organizationId),
      ]);
      const names = new Map(staff.map((p) => [p.id, p.name]));
      const named = (ids: string[]) => ids.flatMap((u) => names.get(u) ?? []);
      const out = new Map<string, { now: string[]; until: string; next: string[] }>();
      const groupIds = new Set([
        ...rotas.map((g) => g.group_id),
        ...overrideRows.map((o) => o.group_id),
      ]);
      for (const groupId of groupIds) {
        const g = rotas.find((r) => r.group_id === groupId) ?? (await repo.group(groupId));
        if (!g) continue;
        const overrides = overrideRows.filter((o) => o.group_id === groupId).map(toOverride);
        const options = onCallOptionsOf(g);
        const now = onCallAt(g.rota, overrides, at, g.time_zone, options);
        const next = nextOnCall(g.rota, overrides, at, g.time_zone, options);
        out.set(groupId, {
          now: named(now.userIds),
          until: iso(now.until),
          next: named(next.userIds),
        });
      }
      return out;
    },

    /** Who is on call for a group at `at` (nobody without a rota or override). */
    async onCallNow(groupId: string, at: Date): Promise<OnCallSlot> {
      const g = await repo.group(groupId);
      if (!g) return { userIds: [], from: at, until: at, source: 'none' };
      return (await slotsOf(g, at)).now;
    },

    /**
     * Recipients as a notice reads them: a row naming "whoever is on call" becomes one row per
     * person on call in its group at `at` (their phone number, the row's channel, step and types);
     * with nobody on call it stays, with no one to reach, so the attempt is logged as failed.
     */
    async expand(rows: RecipientRow[], at: Date): Promise<RecipientRow[]> {
      if (!rows.some((r) => r.on_call)) return rows;
      const out: RecipientRow[] = [];
      const byGroup = new Map<
        string,
        { id: string; name: string; phone_number: string | null }[]
      >();
      for (const r of rows) {
        if (!r.on_call || !r.group_id) {
          out.push(r);
          continue;
        }
        let people = byGroup.get(r.group_id);
        if (!people) {
          const g = await repo.group(r.group_id);
          const slot = g ? (await slotsOf(g, at)).now : null;
          people = g && slot ? await repo.people(g.organization_id, slot.userIds) : [];
          byGroup.set(r.group_id, people);
        }
        if (!people.length) out.push(r);
        for (const p of people)
          out.push({
            ...r,
            user_id: p.id,
            user_name: p.name,
            phone_number: p.phone_number,
            own_phone_number: null,
          });
      }
      return out;
    },
  };
}
