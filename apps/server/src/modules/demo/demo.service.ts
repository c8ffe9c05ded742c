import type { Actor, DemoRemovalView, DemoStatus } from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { isDemoAccount } from '../../db/seed/demo-credentials.js';
import { demoIsPresent, removeDemo } from '../../db/seed/demo-remove.js';

/**
 * The demo as the console sees it (issue 35): whether it is here and whether the caller signed in
 * with one of its published accounts (the ribbon), and its removal by a platform owner, the same
 * removal as `npm run cli -- demo remove` (db/seed/demo-remove.ts).
 */
export function demoService(ctx: AppContext) {
  return {
    async status(actor: Actor): Promise<DemoStatus> {
      return { present: await demoIsPresent(ctx.db), signedInAsDemo: isDemoAccount(actor.uid) };
    },

    async remove(actor: Actor): Promise<DemoRemovalView> {
      accessService(ctx.db).requirePlatform(actor, 'demo:remove');
      const removed = await removeDemo(ctx.db, ctx.now());
      ctx.log.info(
        removed,
        `Removed the demo from the console: ${removed.organizations} organisations, ${removed.accounts} accounts`,
      );
      return removed;
    },
  };
}
