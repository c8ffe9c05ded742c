import { randomUUID } from 'node:crypto';
import {
  type Actor,
  type AlertView,
  compareRound,
  nightWindow,
  type NightRoundSheet,
  ROUND_LOOKBACK_MS,
  type RoundMarkBody,
  type RoundMarkView,
  type RoundMinute,
  type RoundWearer,
  roundStateOf,
  sleepNightOf,
} from '@wearable/domain';
import { accessService, notFoundError } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { alertsService } from '../alerts/alerts.service.js';
import { nightRoundRepository, type RoundGroupRow } from './night-round.repository.js';

/** The alerts list answers at most this many per page; the CSV reads the night page by page. */
const PAGE = 200;
const iso = (at: Date | null) => (at === null ? null : new Date(at).toISOString());

/**
 * The care home's night round (issue 36 item 6, docs/night-round.md): a group's round sheet, the marks
 * "looked at this resident" kept per night, and the night's alerts for the CSV. Whoever may read the group
 * sees its sheet (group:read, as the group's /devices); every staff member who reaches it marks.
 */
export function nightRoundService(ctx: AppContext) {
  const access = accessService(ctx.db);
  const repo = nightRoundRepository(ctx.db);
  const alerts = alertsService(ctx);

  async function groupOf(groupId: string): Promise<RoundGroupRow> {
    const group = await repo.group(groupId);
    if (!group) throw notFoundError('group', groupId);
    return group;
  }

  return {
    async sheet(actor: Actor, groupId: string, night?: string): Promise<NightRoundSheet> {
      await access.require(actor, 'group:read', 'group', groupId);
      const group = await groupOf(groupId);
      const now = ctx.now();
      const theNight = night ?? sleepNightOf(now, group.time_zone);
      const rows = await repo.wearers(groupId);
      const [minutes, marks] = await Promise.all([
        repo.minutes(
          rows.map((r) => r.uid),
          new Date(now.getTime() - ROUND_LOOKBACK_MS),
        ),
        repo.marks(groupId, theNight),
      ]);
      const minutesOf = new Map<string, RoundMinute[]>();
      for (const m of minutes) {
        const list = minutesOf.get(m.wearer_id) ?? [];
        list.push({ at: m.bucket, sleepStage: m.sleep_stage, worn: m.worn, steps: m.steps });
        minutesOf.set(m.wearer_id, list);
      }
      const wearers = rows.map((r): RoundWearer => {
        const { state, since } = roundStateOf(
          { lastSeenAt: r.last_seen_at, worn: r.worn, sleepStage: r.sleep_stage },
          minutesOf.get(r.uid) ?? [],
          now,
        );
        return {
          uid: r.uid,
          name: r.name,
          nameReading: r.name_reading,
          state,
          since,
          heartRate: r.heart_rate,
          heartRateAt: iso(r.heart_rate_at),
          lastSeenAt: iso(r.last_seen_at),
          lastAlert:
            r.last_alert_id === null
              ? null
              : {
                  id: r.last_alert_id,
                  type: r.last_alert_type!,
                  level: r.last_alert_level!,
                  status: r.last_alert_status!,
                  openedAt: iso(r.last_alert_opened_at)!,
                },
          openAlertLevels: r.open_levels ?? [],
          marks: marks.filter((m) => m.uid === r.uid),
        };
      });
      wearers.sort(compareRound(new Intl.Collator('ja')));
      return {
        groupId,
        groupName: group.name,
        clientId: group.organization_id,
        timeZone: group.time_zone,
        night: theNight,
        generatedAt: now.toISOString(),
        wearers,
      };
    },

    async mark(actor: Actor, groupId: string, body: RoundMarkBody): Promise<RoundMarkView> {
      await access.require(actor, 'nightRound:mark', 'group', groupId);
      const wearer = await access.require(actor, 'nightRound:mark', 'wearer', body.uid);
      // What the contract cannot say: the resident must be one of this group's (another group's is not on the sheet).
      if (!wearer.groupIds?.includes(groupId)) throw notFoundError('wearer', body.uid);
      const group = await groupOf(groupId);
      const at = ctx.now();
      return nightRoundRepository(ctx.db).addMark({
        id: randomUUID(),
        organizationId: group.organization_id,
        groupId,
        wearerId: body.uid,
        night: sleepNightOf(at, group.time_zone),
        by: actor.uid,
        at,
        note: body.note ? body.note : null,
      });
    },

    /** The alerts opened in the group during the night (oldest first), with the zone the CSV prints times in. */
    async nightAlerts(
      actor: Actor,
      groupId: string,
      night?: string,
    ): Promise<{ night: string; timeZone: string; alerts: AlertView[] }> {
      await access.require(actor, 'group:read', 'group', groupId);
      const group = await groupOf(groupId);
      const theNight = night ?? sleepNightOf(ctx.now(), group.time_zone);
      const { from, to } = nightWindow(theNight, group.time_zone);
      const found: AlertView[] = [];
      for (let page = 1; ; page++) {
        const answer = await alerts.list(actor, {
          groupId,
          from: from.toISOString(),
          to: to.toISOString(),
          page,
          pageSize: PAGE,
        });
        found.push(...answer.alerts);
        if (answer.alerts.length < PAGE || found.length >= answer.total) break;
      }
      found.reverse();
      return { night: theNight, timeZone: group.time_zone, alerts: found };
    },
  };
}
