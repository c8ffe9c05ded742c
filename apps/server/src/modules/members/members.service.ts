import { type Actor, can, isPersonalRole, isPlatformRole, type Member } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { ApiError, forbidden } from '../../errors.js';
import { organizationsService } from '../organizations/organizations.service.js';
import { membersRepository } from './members.repository.js';

const byName = new Intl.Collator('ja');

/** An organisation's staff for /settings/admins. */
export function membersService(ctx: AppContext) {
  const repo = membersRepository(ctx.db);
  const organizations = organizationsService(ctx);
  return {
    async listMembers(actor: Actor, clientId: string | undefined): Promise<Member[]> {
      if (isPersonalRole(actor.role)) throw forbidden('Personal accounts have no members list');
      if (isPlatformRole(actor.role) && !clientId) {
        throw new ApiError(
          400,
          'VALIDATION_FAILED',
          'querystring.clientId: required for platform roles',
          [{ path: 'querystring.clientId', message: 'required for platform roles' }],
        );
      }
      const organizationId = clientId ?? actor.organizationId;
      if (!organizationId) throw forbidden('No organisation');
      // Unknown and foreign organisations are both 404.
      await organizations.readableOrganization(actor, organizationId);
      if (!can(actor, 'read', { kind: 'member', organizationId })) throw forbidden();
      const members = await repo.listStaff(organizationId);
      return members.sort((a, b) => byName.compare(a.name, b.name) || a.uid.localeCompare(b.uid));
    },
  };
}
