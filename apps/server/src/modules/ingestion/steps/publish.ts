import type { AppContext } from '../../../context.js';
import { alertLifecycleService } from '../../alerts/alert-lifecycle.service.js';
import { unassignedAlertsService } from '../../alerts/unassigned-alerts.service.js';
import { siteHeatService } from '../../site-heat/site-heat.service.js';
import type { Evaluated } from './evaluate.js';

/**
 * Step "publish", after the commit: this server's map has the new places at once (other servers'
 * with the flush's announcement); screens learn of new latest values when the flush wrote them;
 * the alerts go out now (the alerts module's lifecycle: the in-memory state, then the bus), the
 * unassigned devices' alerts and the site's heat changes too. Acknowledged configuration is no
 * longer pending: the answer reads it again.
 */
export function publish(ctx: AppContext, batch: Evaluated): void {
  const { gateway, outcome } = batch;
  ctx.placeSnapshots.changed(gateway.organizationId, batch.placesWritten);
  batch.rollups.committed(
    batch.updatedWearers.flatMap((wearerId) => {
      const p = outcome.profiles.get(wearerId);
      return p ? [{ organizationId: p.organizationId, groupId: p.groupId, wearerId }] : [];
    }),
  );
  alertLifecycleService(ctx).publish(outcome, []);
  unassignedAlertsService(ctx).publish(batch.unassigned);
  siteHeatService(ctx).publish(batch.siteHeat);
  if (batch.items.sync.acks.length > 0) ctx.ingestion.pendingConfig.delete(gateway.id);
}
