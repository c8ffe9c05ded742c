import { type Actor, SETUP_STEPS, type SetupProgress } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { organizationsService } from '../organizations/organizations.service.js';
import { setupRepository } from './setup.repository.js';

/**
 * A new organisation's setup checklist (issue 35): groups -> gateways -> bracelets -> wearers ->
 * pairing -> notice recipients -> a test alert that was notified and confirmed. Nothing is stored
 * about the checklist itself: each step is done when the organisation's data says so, so the
 * progress is live and cannot disagree with the pages that do the steps.
 */
export function setupService(ctx: AppContext) {
  const repo = setupRepository(ctx.db);
  return {
    async progress(actor: Actor, organizationId: string): Promise<SetupProgress> {
      const org = await organizationsService(ctx).readableOrganization(actor, organizationId);
      const [counts, last] = await Promise.all([
        repo.counts(organizationId),
        repo.lastTestAlert(organizationId),
      ]);
      const steps = SETUP_STEPS.map((step) => ({
        step,
        count: counts[step],
        done: counts[step] > 0,
      }));
      return {
        clientId: org.id,
        name: org.name,
        kind: org.kind,
        steps,
        done: steps.every((s) => s.done),
        lastTestAlert: last
          ? {
              id: last.id,
              wearerId: last.wearerId,
              openedAt: new Date(last.openedAt).toISOString(),
              noticesSent: last.noticesSent,
              confirmed: last.confirmed,
            }
          : null,
      };
    },
  };
}
