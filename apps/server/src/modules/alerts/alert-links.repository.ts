import { randomInt } from 'node:crypto';
import { ALERT_LINK_CODE_LENGTH } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random code of the short link: 7 of 62 letters and digits, about 41.7 bits. */
export const newAlertLinkCode = (): string =>
  Array.from({ length: ALERT_LINK_CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(
    '',
  );

/** The table of alert SMS short links (migration 044). */
export function alertLinksRepository(db: Queryable) {
  return {
    /**
     * The alert's code, made on the first call (a later call, from another server too, gets the same
     * one). A new code that happens to be taken is drawn again.
     */
    async codeFor(alertId: string, at: Date): Promise<string> {
      for (let attempt = 0; ; attempt += 1) {
        const rows = await db.query<{ code: string }>(
          `WITH made AS (
             INSERT INTO alert_links (code, alert_id, created_at) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING RETURNING code)
           SELECT code FROM made
           UNION ALL SELECT code FROM alert_links WHERE alert_id = $2
           LIMIT 1`,
          [newAlertLinkCode(), alertId, at.toISOString()],
        );
        if (rows[0]) return rows[0].code;
        // The drawn code belonged to another alert: one in 62^7, draw again.
        if (attempt >= 3) throw new Error(`no free short link code for alert ${alertId}`);
      }
    },

    async alertOf(code: string): Promise<string | null> {
      const rows = await db.query<{ alert_id: string }>(
        'SELECT alert_id FROM alert_links WHERE code = $1',
        [code],
      );
      return rows[0]?.alert_id ?? null;
    },
  };
}
