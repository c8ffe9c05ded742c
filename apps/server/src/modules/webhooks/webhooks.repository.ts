import type {
  WebhookDeliveryStatus,
  WebhookDeliveryView,
  WebhookEventType,
  WebhookView,
} from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

export interface EndpointRow {
  id: string;
  organizationId: string;
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
  secretSealed: string;
  enabled: boolean;
  disabledReason: 'manual' | 'failing' | null;
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const ENDPOINT = `id, organization_id AS "organizationId", url, description, event_types AS "eventTypes",
  secret_sealed AS "secretSealed", enabled, disabled_reason AS "disabledReason",
  failing_since AS "failingSince", created_at AS "createdAt", updated_at AS "updatedAt"`;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export const toWebhookView = (r: EndpointRow): WebhookView => ({
  id: r.id,
  clientId: r.organizationId,
  url: r.url,
  description: r.description,
  eventTypes: r.eventTypes,
  enabled: r.enabled,
  disabledReason: r.disabledReason,
  failingSince: iso(r.failingSince),
  createdAt: iso(r.createdAt)!,
  updatedAt: iso(r.updatedAt)!,
});

interface DeliveryRow {
  id: string;
  type: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  createdAt: Date;
  nextAttemptAt: Date;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
  payload: string;
  attemptLog: { at: string; statusCode: number | null; durationMs: number; error: string | null }[];
}

const DELIVERY = `SELECT d.id, ev.type, d.status, d.attempts, d.created_at AS "createdAt",
       d.next_attempt_at AS "nextAttemptAt", d.last_status_code AS "lastStatusCode",
       d.last_duration_ms AS "lastDurationMs", ev.payload,
       COALESCE((SELECT json_agg(json_build_object('at', a.at, 'statusCode', a.status_code,
                        'durationMs', a.duration_ms, 'error', a.error) ORDER BY a.attempt DESC)
                   FROM (SELECT * FROM webhook_attempts WHERE delivery_id = d.id
                          ORDER BY attempt DESC LIMIT 20) a), '[]'::json) AS "attemptLog"
  FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id`;

const toDeliveryView = (r: DeliveryRow): WebhookDeliveryView => ({
  id: r.id,
  eventType: r.type,
  status: r.status,
  attempts: r.attempts,
  createdAt: iso(r.createdAt)!,
  nextAttemptAt: r.status === 'pending' ? iso(r.nextAttemptAt) : null,
  lastStatusCode: r.lastStatusCode,
  lastDurationMs: r.lastDurationMs,
  payload: JSON.parse(r.payload) as unknown,
  attemptLog: r.attemptLog.map((a) => ({ ...a, at: new Date(a.at).toISOString() })),
});

export function webhooksRepository(db: Queryable) {
  return {
    async list(organizationId: string): Promise<EndpointRow[]> {
      return db.query<EndpointRow>(
        `SELECT ${ENDPOINT} FROM webhook_endpoints WHERE organization_id = $1 ORDER BY created_at, id`,
        [organizationId],
      );
    },

    async find(id: string): Promise<EndpointRow | null> {
      const [row] = await db.query<EndpointRow>(
        `SELECT ${ENDPOINT} FROM webhook_endpoints WHERE id = $1`,
        [id],
      );
      return row ?? null;
    },

    /** Inserts unless the organisation already has `max` endpoints (checked in the statement). */
    async insert(
      e: {
        id: string;
        organizationId: string;
        url: string;
        description: string;
        eventTypes: string[];
        secretSealed: string;
        createdBy: string;
      },
      now: Date,
      max: number,
    ): Promise<EndpointRow | null> {
      // The organisation's row is locked first, so two creations at once count each other.
      await db.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [e.organizationId]);
      const [row] = await db.query<EndpointRow>(
        `INSERT INTO webhook_endpoints (id, organization_id, url, description, event_types, secret_sealed,
                                        created_by, created_at, updated_at)
         SELECT $1, $2, $3, $4, $5::text[], $6, $7, $8, $8
          WHERE (SELECT count(*) FROM webhook_endpoints WHERE organization_id = $2) < $9
         RETURNING ${ENDPOINT}`,
        [
          e.id,
          e.organizationId,
          e.url,
          e.description,
          e.eventTypes,
          e.secretSealed,
          e.createdBy,
          now,
          max,
        ],
      );
      return row ?? null;
    },

    async update(
      id: string,
      patch: {
        url?: string | undefined;
        description?: string | undefined;
        eventTypes?: string[] | undefined;
        enabled?: boolean | undefined;
      },
      now: Date,
    ): Promise<EndpointRow | null> {
      const [row] = await db.query<EndpointRow>(
        `UPDATE webhook_endpoints SET
           url = COALESCE($2, url), description = COALESCE($3, description),
           event_types = COALESCE($4::text[], event_types),
           enabled = COALESCE($5, enabled),
           disabled_reason = CASE WHEN $5 IS NULL THEN disabled_reason
                                  WHEN $5 THEN NULL ELSE 'manual' END,
           failing_since = CASE WHEN $5 THEN NULL ELSE failing_since END,
           updated_at = $6
         WHERE id = $1 RETURNING ${ENDPOINT}`,
        [
          id,
          patch.url ?? null,
          patch.description ?? null,
          patch.eventTypes ?? null,
          patch.enabled ?? null,
          now,
        ],
      );
      return row ?? null;
    },

    async setSecret(id: string, secretSealed: string, now: Date): Promise<EndpointRow | null> {
      const [row] = await db.query<EndpointRow>(
        `UPDATE webhook_endpoints SET secret_sealed = $2, updated_at = $3 WHERE id = $1 RETURNING ${ENDPOINT}`,
        [id, secretSealed, now],
      );
      return row ?? null;
    },

    async remove(id: string): Promise<void> {
      // Its deliveries and attempts go with it (cascade); events no endpoint refers to any more too.
      const [gone] = await db.query<{ organization_id: string }>(
        'DELETE FROM webhook_endpoints WHERE id = $1 RETURNING organization_id',
        [id],
      );
      if (!gone) return;
      await db.query(
        `DELETE FROM webhook_events ev WHERE ev.organization_id = $1
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = ev.id)`,
        [gone.organization_id],
      );
    },

    async deliveries(
      endpointId: string,
      limit: number,
      offset: number,
    ): Promise<{ deliveries: WebhookDeliveryView[]; total: number }> {
      const [count] = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1',
        [endpointId],
      );
      const rows = await db.query<DeliveryRow>(
        `${DELIVERY} WHERE d.endpoint_id = $1 ORDER BY d.created_at DESC, d.id DESC LIMIT $2 OFFSET $3`,
        [endpointId, limit, offset],
      );
      return { deliveries: rows.map(toDeliveryView), total: count?.n ?? 0 };
    },

    async delivery(endpointId: string, deliveryId: string): Promise<WebhookDeliveryView | null> {
      const [row] = await db.query<DeliveryRow>(
        `${DELIVERY} WHERE d.endpoint_id = $1 AND d.id = $2`,
        [endpointId, deliveryId],
      );
      return row ? toDeliveryView(row) : null;
    },

    /** Send again: the same delivery (same webhook-id, same body) is due now, whatever its status. */
    async resend(endpointId: string, deliveryId: string, now: Date): Promise<boolean> {
      const rows = await db.query(
        `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $3
          WHERE endpoint_id = $1 AND id = $2 RETURNING id`,
        [endpointId, deliveryId, now],
      );
      return rows.length > 0;
    },
  };
}
