import {
  type Actor,
  HEAT_PROCEDURE_STEPS,
  HEAT_RULE_MAX_GAP_MINUTES,
  type HeatProcedureBody,
  type HeatProcedureResponse,
  type HeatProcedureStep,
  type HeatRuleDay,
  type HeatRuleReport,
  heatRuleDay,
  siteApplicableHours,
} from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { auditService } from '../audit/audit.service.js';
import { siteHeatService } from '../site-heat/site-heat.service.js';
import { type EnvironmentRow, heatRuleRepository } from './heat-rule.repository.js';

const iso = (v: Date | string | null): string | null =>
  v === null ? null : new Date(v).toISOString();
const seconds = (from: Date | string, to: Date | string | null): number | null =>
  to === null
    ? null
    : Math.max(0, Math.round((new Date(to).getTime() - new Date(from).getTime()) / 1000));

/** Linear-interpolated percentile (as PostgreSQL's percentile_cont) of sorted values. */
export function percentileCont(sorted: readonly number[], p: number): number | null {
  if (!sorted.length) return null;
  const rank = p * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

/** The site's nearest hospital for a heat alert's SMS / call text; null until the site writes its procedure. */
async function siteHospital(
  db: Queryable,
  groupId: string,
): Promise<{ name: string; phone: string } | null> {
  const stored = await heatRuleRepository(db).procedure(groupId);
  return stored
    ? { name: stored.procedure.hospital.name, phone: stored.procedure.hospital.phone }
    : null;
}

/**
 * Japan's 2025 heat rule per site (group): the written procedure and nearest hospital (read by
 * staff who see the group, written by owners and the group's managers, audited), the named
 * contacts (the group's notice recipients of heat alerts) and the monthly report.
 */
export function heatRuleService(ctx: AppContext) {
  const access = accessService(ctx.db);
  const repo = heatRuleRepository(ctx.db);
  const siteHeat = siteHeatService(ctx);

  async function view(groupId: string): Promise<HeatProcedureResponse> {
    const group = (await repo.group(groupId))!;
    const [stored, contacts] = await Promise.all([repo.procedure(groupId), repo.contacts(groupId)]);
    return {
      groupId,
      groupName: group.name,
      clientId: group.organization_id,
      procedure: stored?.procedure ?? null,
      updatedAt: stored?.updatedAt ?? null,
      updatedBy: stored?.updatedBy ?? null,
      contacts,
    };
  }

  return {
    /** The site's nearest hospital for a heat alert's SMS / call text; null until the site writes its procedure. */
    hospital: (groupId: string) => siteHospital(ctx.db, groupId),

    async get(actor: Actor, groupId: string): Promise<HeatProcedureResponse> {
      await access.require(actor, 'group:read', 'group', groupId);
      return view(groupId);
    },

    async put(
      actor: Actor,
      groupId: string,
      body: HeatProcedureBody,
    ): Promise<HeatProcedureResponse> {
      const at = await access.require(actor, 'heatProcedure:update', 'group', groupId);
      await ctx.db.transaction(async (tx) => {
        const txRepo = heatRuleRepository(tx);
        // The group's row lock: two saves take turns, so the audit's "before" is the one replaced.
        await tx.query('SELECT id FROM groups WHERE id = $1 FOR UPDATE', [groupId]);
        const before = (await txRepo.procedure(groupId))?.procedure ?? null;
        await txRepo.save(groupId, at.organizationId, body, actor.uid, ctx.now());
        await auditService(tx).record({
          organizationId: at.organizationId,
          actorId: actor.uid,
          kind: 'heatProcedure.update',
          targetId: groupId,
          before,
          after: body,
        });
      });
      return view(groupId);
    },

    /** One month of the site: applicable hours per day (any gateway), heat alerts and how they were handled. */
    async report(actor: Actor, groupId: string, month: string): Promise<HeatRuleReport> {
      await access.require(actor, 'group:read', 'group', groupId);
      const group = (await repo.group(groupId))!;
      const days = await repo.days(month, group.time_zone);
      const from = days[0]!.start;
      const to = days[days.length - 1]!.stop;
      const [env, alerts, stored, contacts, siteHeatChanges] = await Promise.all([
        repo.environment(groupId, from, to),
        repo.heatAlerts(groupId, from, to),
        repo.procedure(groupId),
        repo.contacts(groupId),
        siteHeat.changes(groupId, from, to),
      ]);
      const byGateway = new Map<string, EnvironmentRow[]>();
      for (const r of env.rows)
        byGateway.set(r.gateway_id, [...(byGateway.get(r.gateway_id) ?? []), r]);

      const dayViews = days.map((d) => {
        const perGateway: HeatRuleDay[] = [];
        let maxWbgt: number | null = null;
        let maxTemperature: number | null = null;
        for (const rows of byGateway.values()) {
          // Readings of the day, and those just before it that still cover its first minutes.
          const since = d.start.getTime() - HEAT_RULE_MAX_GAP_MINUTES * 60_000;
          const samples = rows
            .filter((r) => new Date(r.at).getTime() >= since && new Date(r.at) < d.stop)
            .map((r) => ({ at: new Date(r.at), wbgt: r.wbgt, temperature: r.temperature }));
          perGateway.push(heatRuleDay(samples, d.start, d.stop));
          for (const s of samples) {
            if (s.at < d.start) continue;
            if (s.wbgt !== null) maxWbgt = Math.max(maxWbgt ?? s.wbgt, s.wbgt);
            if (s.temperature !== null)
              maxTemperature = Math.max(maxTemperature ?? s.temperature, s.temperature);
          }
        }
        return {
          date: d.date,
          // Hour index from local midnight = local clock hour (a day of a clock change is off by one; Japan has none).
          applicableHours: siteApplicableHours(perGateway),
          hotMinutes: Math.max(0, ...perGateway.map((g) => g.hotMinutes)),
          longestStretchMinutes: Math.max(0, ...perGateway.map((g) => g.longestStretchMinutes)),
          maxWbgt,
          maxTemperature,
          heatAlerts: alerts.filter(
            (a) => new Date(a.opened_at) >= d.start && new Date(a.opened_at) < d.stop,
          ).length,
        };
      });

      const alertViews = alerts.map((a) => ({
        id: a.id,
        type: a.type,
        openedAt: iso(a.opened_at)!,
        wearerName: a.wearer_name,
        secondsToNotice: seconds(a.opened_at, a.first_notice_at),
        secondsToConfirm: seconds(a.opened_at, a.confirmed_at),
        confirmedAt: iso(a.confirmed_at),
        confirmedBy: a.confirmed_by_name,
        confirmReason: a.confirm_reason,
        procedureSteps: HEAT_PROCEDURE_STEPS.filter((s) => a.procedure_steps?.includes(s)),
      }));
      const toConfirm = alertViews
        .flatMap((a) => (a.secondsToConfirm === null ? [] : [a.secondsToConfirm]))
        .sort((x, y) => x - y);
      const steps = Object.fromEntries(
        HEAT_PROCEDURE_STEPS.map((s) => [
          s,
          alertViews.filter((a) => a.procedureSteps.includes(s)).length,
        ]),
      ) as Record<HeatProcedureStep, number>;
      return {
        groupId,
        groupName: group.name,
        clientId: group.organization_id,
        timeZone: group.time_zone,
        month,
        gatewayCount: env.gatewayIds.length,
        applicableHours: dayViews.reduce((n, d) => n + d.applicableHours.length, 0),
        applicableDays: dayViews.filter((d) => d.applicableHours.length > 0).length,
        days: dayViews,
        alerts: alertViews,
        siteHeatChanges,
        summary: {
          heatAlerts: alertViews.length,
          confirmed: toConfirm.length,
          medianSecondsToConfirm: percentileCont(toConfirm, 0.5),
          p90SecondsToConfirm: percentileCont(toConfirm, 0.9),
          steps,
        },
        procedure: stored?.procedure ?? null,
        contacts,
      };
    },
  };
}
export type HeatRuleService = ReturnType<typeof heatRuleService>;
