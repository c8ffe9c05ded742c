import {
  type Actor,
  can,
  isPersonalRole,
  isPlatformRole,
  type WearerListItem,
  type WearerSort,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { organizationsService } from '../organizations/organizations.service.js';
import { type WearerScope, wearersRepository } from './wearers.repository.js';

// Japanese collation in JS: identical on PGlite (no ICU collations) and PostgreSQL.
const byName = new Intl.Collator('ja');

/** The wearers an actor may see (GET /v2/user/device/list). */
export function wearersService(ctx: AppContext) {
  const repo = wearersRepository(ctx.db);
  const organizations = organizationsService(ctx);

  return {
    async listVisible(
      actor: Actor,
      query: { sort: WearerSort; clientId?: string | undefined; groupId?: string | undefined },
    ): Promise<WearerListItem[]> {
      // An explicit client or group must be one the actor may read: 404 otherwise.
      if (query.clientId && !isPersonalRole(actor.role)) {
        await organizations.readableOrganization(actor, query.clientId);
      }
      if (query.groupId) await organizations.readableGroup(actor, query.groupId);

      const scope: WearerScope = {
        organizationId: query.clientId ?? null,
        groupId: query.groupId ?? null,
        groupIds: null,
        wearerIds: null,
      };
      if (isPersonalRole(actor.role)) scope.wearerIds = [...actor.linkedWearerIds];
      else if (!isPlatformRole(actor.role)) scope.organizationId = actor.organizationId;
      if (actor.role === 'ORGANIZATION_GROUP') scope.groupIds = [...actor.managedGroupIds];

      // The SQL narrows; can() decides, so the list never holds a wearer the rule forbids.
      const wearers = (await repo.list(scope)).filter((w) =>
        can(actor, 'read', {
          kind: 'wearer',
          organizationId: w.clientId,
          groupId: w.groupId,
          wearerId: w.uid,
        }),
      );
      const direction = query.sort === 'name_desc' ? -1 : 1;
      return wearers.sort(
        (a, b) => direction * byName.compare(a.name, b.name) || a.uid.localeCompare(b.uid),
      );
    },
  };
}
