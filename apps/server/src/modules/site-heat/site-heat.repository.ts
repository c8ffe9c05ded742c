import { randomUUID } from 'node:crypto';
import {
  localDay,
  type SiteHeatCause,
  type SiteHeatChangeView,
  type SiteHeatLevel,
  type SiteHeatState,
  type SiteHeatView,
} from '@wearable/domain';
import { prepared, type Queryable } from '../../db/client.js';
import type { Statement } from '../../db/statement.js';

const iso = (v: Date | string | null): string | null =>
  v === null ? null : new Date(v).toISOString();

interface SiteRow {
  gateway_id: string;
  gateway_name: string;
  group_id: string | null;
  group_name: string | null;
  organization_id: string;
  level: SiteHeatLevel;
  level_since: Date | string | null;
  wbgt: number | null;
  wbgt_at: Date | string | null;
  state: { heatRule?: { applies?: boolean; day?: string | null } } | null;
  time_zone: string;
}

const SITE_COLUMNS = `s.gateway_id, gw.name AS gateway_name, gw.group_id, gr.name AS group_name, s.organization_id,
       s.level, s.level_since, s.wbgt, s.wbgt_at, s.state, o.time_zone`;
const SITE_FROM = `FROM site_heat_state s
  JOIN gateways gw ON gw.id = s.gateway_id
  JOIN organizations o ON o.id = s.organization_id
  LEFT JOIN groups gr ON gr.id = gw.group_id`;

const toSite = (r: SiteRow, now: Date): SiteHeatView & { organizationId: string } => ({
  gatewayId: r.gateway_id,
  gatewayName: r.gateway_name,
  groupId: r.group_id,
  groupName: r.group_name,
  organizationId: r.organization_id,
  level: r.level,
  since: iso(r.level_since),
  wbgt: r.wbgt,
  wbgtAt: iso(r.wbgt_at),
  // The state's day is that of its last reading: yesterday's "applies" is not today's.
  heatRuleAppliesToday:
    r.state?.heatRule?.applies === true &&
    r.state.heatRule.day === localDay(now.getTime(), r.time_zone),
});

interface EventRow {
  id: string;
  gateway_id: string;
  gateway_name: string;
  group_id: string | null;
  from_level: SiteHeatLevel;
  to_level: SiteHeatLevel;
  at: Date | string;
  wbgt: number | null;
  cause: Partial<SiteHeatCause> | null;
}

const toChange = (r: EventRow): SiteHeatChangeView => ({
  id: r.id,
  gatewayId: r.gateway_id,
  gatewayName: r.gateway_name,
  groupId: r.group_id,
  from: r.from_level,
  to: r.to_level,
  at: iso(r.at)!,
  wbgt: r.wbgt,
  heatRuleAppliesToday: r.cause?.heatRule?.appliesToday === true,
});

export interface NewSiteHeatEvent {
  organizationId: string;
  gatewayId: string;
  from: SiteHeatLevel;
  to: SiteHeatLevel;
  at: Date;
  wbgt: number;
  cause: SiteHeatCause;
}

const LOCK_STATE = prepared('SELECT state FROM site_heat_state WHERE gateway_id = $1 FOR UPDATE');

/** The batch's save of a gateway's state, sent with its other writes in one round trip (runCombined). */
export function saveStateStatement(gatewayId: string, state: SiteHeatState, at: Date): Statement {
  return {
    text: `UPDATE site_heat_state SET level = $2, level_since = $3, wbgt = $4, wbgt_at = $5,
                state = $6::jsonb, updated_at = $7
          WHERE gateway_id = $1`,
    params: [
      gatewayId,
      state.level,
      state.since,
      state.wbgt,
      state.wbgtAt,
      JSON.stringify(state),
      at,
    ],
  };
}

/** The heat level of each site (gateway) and its changes (`site_heat_state`, `site_heat_events`). */
export function siteHeatRepository(db: Queryable) {
  return {
    /**
     * The gateway's stored state, its row locked for the caller's transaction (created at NORMAL on
     * the first reading). Null: new. A row that exists is only locked, not written: the batch's
     * save (saveStateStatement) is its one write.
     */
    async lockState(gatewayId: string, organizationId: string, at: Date): Promise<unknown> {
      const [locked] = await db.query<{ state: unknown }>(LOCK_STATE, [gatewayId]);
      if (locked) return locked.state;
      const [row] = await db.query<{ state: unknown }>(
        `INSERT INTO site_heat_state (gateway_id, organization_id, level, state, updated_at)
         VALUES ($1, $2, 'NORMAL', 'null'::jsonb, $3)
         ON CONFLICT (gateway_id) DO UPDATE SET gateway_id = EXCLUDED.gateway_id
         RETURNING state`,
        [gatewayId, organizationId, at],
      );
      return row?.state ?? null;
    },

    /** Records a change of level with the gateway's group now; returns its id. */
    async insertEvent(e: NewSiteHeatEvent): Promise<string> {
      const id = randomUUID();
      await db.query(
        `INSERT INTO site_heat_events (id, organization_id, gateway_id, group_id, from_level, to_level, at, wbgt, cause)
         SELECT $1, $2, $3, gw.group_id, $4, $5, $6, $7, $8::jsonb FROM gateways gw WHERE gw.id = $3`,
        [id, e.organizationId, e.gatewayId, e.from, e.to, e.at, e.wbgt, JSON.stringify(e.cause)],
      );
      return id;
    },

    /** The sites of an organisation (optionally one group), by group and gateway name. */
    async sites(
      now: Date,
      organizationId: string,
      groupId?: string,
    ): Promise<(SiteHeatView & { organizationId: string })[]> {
      const rows = await db.query<SiteRow>(
        `SELECT ${SITE_COLUMNS} ${SITE_FROM}
          WHERE s.organization_id = $1 AND ($2::text IS NULL OR gw.group_id = $2) AND s.wbgt_at IS NOT NULL
          ORDER BY gr.name NULLS LAST, gw.name, s.gateway_id`,
        [organizationId, groupId ?? null],
      );
      return rows.map((r) => toSite(r, now));
    },

    /** One change with its site as it is now (the live frame, another server's copy, the notice). */
    async change(
      eventId: string,
      now: Date,
    ): Promise<
      { organizationId: string; site: SiteHeatView; change: SiteHeatChangeView } | undefined
    > {
      const [e] = await db.query<EventRow & { organization_id: string }>(
        `SELECT e.id, e.gateway_id, gw.name AS gateway_name, e.group_id, e.from_level, e.to_level, e.at, e.wbgt,
                e.cause, e.organization_id
           FROM site_heat_events e JOIN gateways gw ON gw.id = e.gateway_id WHERE e.id = $1`,
        [eventId],
      );
      if (!e) return undefined;
      const [s] = await db.query<SiteRow>(
        `SELECT ${SITE_COLUMNS} ${SITE_FROM} WHERE s.gateway_id = $1`,
        [e.gateway_id],
      );
      if (!s) return undefined;
      const { organizationId, ...site } = toSite(s, now);
      return { organizationId, site, change: toChange(e) };
    },

    /** The changes of the group's sites in [from, to), in time order. */
    async changes(groupId: string, from: Date, to: Date): Promise<SiteHeatChangeView[]> {
      const rows = await db.query<EventRow>(
        `SELECT e.id, e.gateway_id, gw.name AS gateway_name, e.group_id, e.from_level, e.to_level, e.at, e.wbgt,
                e.cause
           FROM site_heat_events e JOIN gateways gw ON gw.id = e.gateway_id
          WHERE e.group_id = $1 AND e.at >= $2 AND e.at < $3
          ORDER BY e.at, e.id`,
        [groupId, from, to],
      );
      return rows.map(toChange);
    },
  };
}
