import type { Actor, AlertLinkResponse } from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { alertLinksRepository } from './alert-links.repository.js';
import { alertsRepository } from './alerts.repository.js';

/**
 * An alert SMS's short link (`/a/<code>`, issue 36 item 4). The code only names the alert: where it
 * leads is answered for a signed-in user the access service lets see the alert; an unknown code and
 * an alert the user cannot reach are the same 404, one they reach without `alert:read` a 403.
 */
export function alertLinksService(ctx: AppContext) {
  return {
    /** The alert's short code, made on first use and kept for its escalations and reminders. */
    codeFor(alertId: string): Promise<string> {
      return alertLinksRepository(ctx.db).codeFor(alertId, ctx.now());
    },

    async resolve(actor: Actor, code: string): Promise<AlertLinkResponse> {
      const alertId = await alertLinksRepository(ctx.db).alertOf(code);
      if (alertId === null) throw notFound(`Alert link ${code} not found`, 'ALERT_NOT_FOUND');
      await accessService(ctx.db).require(actor, 'alert:read', 'alert', alertId);
      const row = await alertsRepository(ctx.db).getAlert(alertId);
      if (!row) throw notFound(`Alert link ${code} not found`, 'ALERT_NOT_FOUND');
      return { alertId, clientId: row.organization_id, uid: row.wearer_id };
    },
  };
}
