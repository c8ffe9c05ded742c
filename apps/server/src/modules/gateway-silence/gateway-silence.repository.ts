import { randomUUID } from 'node:crypto';
import { GATEWAY_SILENCE_AFTER_MS, GATEWAY_SILENCE_LOOKBACK_MS } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

/** A gateway the sweep looks at: silent for at least the shortest interval, or with an open silence. */
export interface SilenceCandidateRow {
  gateway_id: string;
  organization_id: string;
  group_id: string | null;
  type: string;
  last_seen_at: Date | null;
  longest_duty_cycle: number | null;
  wearer_count: number;
  silence_id: string | null;
  open_since: Date | null;
}

export interface GatewaySilenceRow {
  id: string;
  organization_id: string;
  gateway_id: string;
  gateway_name: string;
  group_id: string | null;
  last_heard_at: Date;
  wearer_count: number;
  opened_at: Date;
  closed_at: Date | null;
}

const toDate = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));

/** The gateways a wearer's bracelet is paired to, with what the policy needs to call it silent. */
const GATEWAY_FACTS = `g.type, g.last_seen_at,
       (SELECT max(b2.heart_rate_duty_cycle) FROM bracelets b2 WHERE b2.gateway_id = g.id) AS longest_duty_cycle`;

export function gatewaySilenceRepository(db: Queryable) {
  return {
    /**
     * Gateways silent for at least GATEWAY_SILENCE_AFTER_MS (and heard within the lookback), and those
     * with an open silence; of one organisation when given (tests sharing a database).
     */
    async candidates(now: Date, organizationId: string | null): Promise<SilenceCandidateRow[]> {
      const rows = await db.query<SilenceCandidateRow>(
        `SELECT g.id AS gateway_id, g.organization_id, g.group_id, ${GATEWAY_FACTS},
            (SELECT count(*)::int FROM bracelets b WHERE b.gateway_id = g.id AND b.wearer_id IS NOT NULL)
              AS wearer_count,
            s.id AS silence_id, s.last_heard_at AS open_since
       FROM gateways g
       LEFT JOIN gateway_silences s ON s.gateway_id = g.id AND s.closed_at IS NULL
      WHERE ($3::text IS NULL OR g.organization_id = $3)
        AND (s.id IS NOT NULL OR (g.last_seen_at < $1 AND g.last_seen_at >= $2))`,
        [
          new Date(now.getTime() - GATEWAY_SILENCE_AFTER_MS),
          new Date(now.getTime() - GATEWAY_SILENCE_LOOKBACK_MS),
          organizationId,
        ],
      );
      return rows.map((r) => ({
        ...r,
        last_seen_at: toDate(r.last_seen_at),
        open_since: toDate(r.open_since),
        longest_duty_cycle: r.longest_duty_cycle === null ? null : Number(r.longest_duty_cycle),
      }));
    },

    /** Opens a gateway's silence; null when one is open already (another sweep was first). */
    async open(c: SilenceCandidateRow, lastHeardAt: Date, now: Date): Promise<string | null> {
      const [row] = await db.query<{ id: string }>(
        `INSERT INTO gateway_silences
           (id, organization_id, gateway_id, group_id, last_heard_at, wearer_count, opened_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (gateway_id) WHERE closed_at IS NULL DO NOTHING
         RETURNING id`,
        [
          randomUUID(),
          c.organization_id,
          c.gateway_id,
          c.group_id,
          lastHeardAt,
          c.wearer_count,
          now,
        ],
      );
      return row?.id ?? null;
    },

    /** Closes an open silence (the gateway was heard); false when it was closed already. */
    async close(id: string, now: Date): Promise<boolean> {
      const rows = await db.query(
        `UPDATE gateway_silences SET closed_at = GREATEST($2::timestamptz, opened_at)
          WHERE id = $1 AND closed_at IS NULL RETURNING id`,
        [id, now],
      );
      return rows.length > 0;
    },

    async byId(id: string): Promise<GatewaySilenceRow | undefined> {
      const [row] = await db.query<GatewaySilenceRow>(
        `SELECT s.id, s.organization_id, s.gateway_id, g.name AS gateway_name, s.group_id,
            s.last_heard_at, s.wearer_count, s.opened_at, s.closed_at
       FROM gateway_silences s JOIN gateways g ON g.id = s.gateway_id
      WHERE s.id = $1`,
        [id],
      );
      return row;
    },

    /** The organisation's open silences, oldest first. */
    async openOfOrganization(organizationId: string): Promise<GatewaySilenceRow[]> {
      return db.query<GatewaySilenceRow>(
        `SELECT s.id, s.organization_id, s.gateway_id, g.name AS gateway_name, s.group_id,
            s.last_heard_at, s.wearer_count, s.opened_at, s.closed_at
       FROM gateway_silences s JOIN gateways g ON g.id = s.gateway_id
      WHERE s.organization_id = $1 AND s.closed_at IS NULL
      ORDER BY s.opened_at, s.id`,
        [organizationId],
      );
    },

    /** The gateway an alert's wearer is heard through, its open silence and its facts (or undefined). */
    async gatewayOfAlert(alertId: string): Promise<
      | {
          type: string;
          last_seen_at: Date | null;
          longest_duty_cycle: number | null;
          silence_id: string | null;
          open_since: Date | null;
        }
      | undefined
    > {
      const [row] = await db.query<{
        type: string;
        last_seen_at: Date | string | null;
        longest_duty_cycle: number | string | null;
        silence_id: string | null;
        open_since: Date | string | null;
      }>(
        `SELECT ${GATEWAY_FACTS}, s.id AS silence_id, s.last_heard_at AS open_since
       FROM alerts a
       JOIN bracelets b ON b.wearer_id = a.wearer_id
       JOIN gateways g ON g.id = b.gateway_id
       LEFT JOIN gateway_silences s ON s.gateway_id = g.id AND s.closed_at IS NULL
      WHERE a.id = $1
      LIMIT 1`,
        [alertId],
      );
      if (!row) return undefined;
      return {
        type: row.type,
        last_seen_at: toDate(row.last_seen_at),
        longest_duty_cycle: row.longest_duty_cycle === null ? null : Number(row.longest_duty_cycle),
        silence_id: row.silence_id,
        open_since: toDate(row.open_since),
      };
    },

    /** The open DISCONNECTION alerts of the wearers heard through a gateway. */
    async openDisconnectionsOf(gatewayId: string): Promise<string[]> {
      const rows = await db.query<{ id: string }>(
        `SELECT a.id FROM bracelets b
       JOIN alerts a ON a.wearer_id = b.wearer_id AND a.type = 'DISCONNECTION' AND a.status = 'OPEN'
      WHERE b.gateway_id = $1
      ORDER BY a.opened_at, a.id`,
        [gatewayId],
      );
      return rows.map((r) => r.id);
    },

    /**
     * When the organisation last heard any gateway it has that was heard within the lookback, or
     * null when none was (a new organisation, or one whose gateways are all retired).
     */
    async lastHeardOfOrganization(organizationId: string, now: Date): Promise<Date | null> {
      const [row] = await db.query<{ last: Date | string | null }>(
        `SELECT max(last_seen_at) AS last FROM gateways
      WHERE organization_id = $1 AND last_seen_at >= $2`,
        [organizationId, new Date(now.getTime() - GATEWAY_SILENCE_LOOKBACK_MS)],
      );
      return toDate(row?.last ?? null);
    },
  };
}
