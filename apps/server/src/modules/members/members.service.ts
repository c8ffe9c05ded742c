import type { Actor, Member } from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { membersRepository } from './members.repository.js';

const byName = new Intl.Collator('ja');

/** An organisation's staff for /settings/admins. */
export function membersService(ctx: AppContext) {
  const repo = membersRepository(ctx.db);
  const access = accessService(ctx.db);
  return {
    async listMembers(actor: Actor, clientId: string | undefined): Promise<Member[]> {
      const organizationId = clientId ?? actor.organizationId;
      if (!organizationId) {
        throw new ApiError(400, 'VALIDATION_FAILED', 'querystring.clientId: required (you belong to no organisation)', [
          { path: 'querystring.clientId', message: 'required (you belong to no organisation)' },
        ]);
      }
      await access.require(actor, 'member:read', 'organization', organizationId);
      const members = await repo.listStaff(organizationId);
      return members.sort((a, b) => byName.compare(a.name, b.name) || a.uid.localeCompare(b.uid));
    },
  };
}
