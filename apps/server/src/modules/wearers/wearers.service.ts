import {
  type Actor,
  compareByReading,
  type WearerListItem,
  type WearerSort,
} from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { wearersRepository } from './wearers.repository.js';

// Japanese collation in JS: identical on PGlite (no ICU collations) and PostgreSQL.
// By the reading (furigana) when given, else the name: あいうえお order.
const byName = compareByReading(new Intl.Collator('ja'));

/** The wearers an actor may see (GET /v2/user/device/list). */
export function wearersService(ctx: AppContext) {
  const repo = wearersRepository(ctx.db);
  const access = accessService(ctx.db);

  return {
    async listVisible(
      actor: Actor,
      query: { sort: WearerSort; clientId?: string | undefined; groupId?: string | undefined },
    ): Promise<WearerListItem[]> {
      // An explicit client or group must be one the actor reaches: 404 otherwise.
      if (query.clientId)
        await access.require(actor, 'wearer:read', 'organization', query.clientId);
      if (query.groupId) await access.require(actor, 'wearer:read', 'group', query.groupId);
      const wearers = await repo.list(actor, {
        organizationId: query.clientId,
        groupId: query.groupId,
      });
      const direction = query.sort === 'name_desc' ? -1 : 1;
      return wearers.sort((a, b) => direction * byName(a, b));
    },
  };
}
