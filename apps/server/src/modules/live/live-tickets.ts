import { createHash, randomBytes } from 'node:crypto';
import { LIVE_TICKET_TTL_SECONDS } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

const hashTicket = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

export interface LiveTicketGrant {
  uid: string;
  sessionId: string;
  /** The access token's expiry: the stream the ticket opens ends then. */
  accessExpiresAt: Date;
}

/**
 * Single-use passes for GET /v3/live?ticket=… . Kept in the database (SHA-256 only) so a ticket
 * issued by one server opens a stream on another behind the same load balancer.
 */
export function liveTickets(db: Queryable) {
  return {
    async issue(grant: LiveTicketGrant, now: Date): Promise<string> {
      const ticket = randomBytes(24).toString('base64url');
      // Unused tickets are dropped as new ones are issued, so the table stays tiny.
      await db.query('DELETE FROM live_tickets WHERE expires_at <= $1', [now]);
      await db.query(
        `INSERT INTO live_tickets (ticket_hash, user_id, session_id, access_expires_at, expires_at)
         VALUES ($1, $2, $3, $4, $5)`,
        [
          hashTicket(ticket),
          grant.uid,
          grant.sessionId,
          grant.accessExpiresAt,
          new Date(now.getTime() + LIVE_TICKET_TTL_SECONDS * 1000),
        ],
      );
      return ticket;
    },

    /** The grant of an unused, unexpired ticket, which is used up by this call (one DELETE: no race). */
    async redeem(ticket: string, now: Date): Promise<LiveTicketGrant | null> {
      const rows = await db.query<LiveTicketGrant & { expiresAt: Date }>(
        `DELETE FROM live_tickets WHERE ticket_hash = $1
         RETURNING user_id AS uid, session_id AS "sessionId",
                   access_expires_at AS "accessExpiresAt", expires_at AS "expiresAt"`,
        [hashTicket(ticket)],
      );
      const row = rows[0];
      if (!row || row.expiresAt.getTime() <= now.getTime()) return null;
      return { uid: row.uid, sessionId: row.sessionId, accessExpiresAt: row.accessExpiresAt };
    },
  };
}
