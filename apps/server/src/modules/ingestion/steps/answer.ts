import type { BatchResult } from '@wearable/domain';
import type { AppContext } from '../../../context.js';
import type { Queryable } from '../../../db/client.js';
import { siteHeatService } from '../../site-heat/site-heat.service.js';
import { pendingConfigOf } from '../bracelet-sync.js';
import { ingestionRepository } from '../ingestion.repository.js';
import type { Parsed } from './parse.js';

/**
 * Step "answer", after the commit: the gateway's result: counts, refusals in batch order, and
 * configuration it should apply. `accepted`: the items the batch stored (0 when it stored nothing).
 */
export async function answer(
  ctx: AppContext,
  db: Queryable,
  batch: Parsed & { accepted: number },
): Promise<BatchResult> {
  const { gateway, parsed, accepted } = batch;
  const pendingConfig = await pendingConfigOf(ctx, gateway.id);
  const rejected = parsed.rejected;
  const valid = parsed.itemCount - rejected.length;
  rejected.sort((a, b) => (a.list === b.list ? a.index - b.index : a.list < b.list ? -1 : 1));
  // A phone follows its organisation's man-down setting: each result tells it (from a 30 s cache,
  // which a policy change on this server clears), so no extra request or polling is needed.
  const gatewaySettings =
    gateway.type === 'SMARTPHONE'
      ? {
          manDownMinutes: (await siteHeatService(ctx).policy(db, gateway.organizationId)).policy
            .manDownMinutes,
          // The number the phone offers beside 119 when an SOS cannot be delivered (issue 34).
          emergencyPhone: await ingestionRepository(db).emergencyPhone(gateway.organizationId),
        }
      : null;
  return {
    ...(parsed.batchId !== undefined ? { batchId: parsed.batchId } : {}),
    accepted,
    duplicates: valid - accepted,
    rejected,
    ...(parsed.warnings.length ? { warnings: parsed.warnings } : {}),
    ...(pendingConfig.length ? { pendingConfig } : {}),
    ...(gatewaySettings ? { gatewaySettings } : {}),
  };
}
