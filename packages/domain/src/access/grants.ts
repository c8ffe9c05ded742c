import type { Role } from '../roles.js';
import { grantableRoles } from './permissions.js';
import type { Actor } from './scope.js';

/** Whether the actor may give someone this role (invite, change a role): never above their own. */
export function mayGrant(actor: Pick<Actor, 'role'>, role: Role): boolean {
  return grantableRoles(actor).includes(role);
}

/**
 * Where an invited role places the new person: platform staff belong to no organisation, staff to one
 * organisation, a family member (PERSONAL) to one wearer. PERSONAL_SELF is never invited.
 */
export type Placement = 'platform' | 'organization' | 'family' | 'none';
export function placementOf(role: Role): Placement {
  switch (role) {
    case 'ALL_OWNER':
    case 'ALL_GENERAL':
      return 'platform';
    case 'ORGANIZATION_OWNER':
    case 'ORGANIZATION_GENERAL':
    case 'ORGANIZATION_GROUP':
      return 'organization';
    case 'PERSONAL':
      return 'family';
    case 'PERSONAL_SELF':
      return 'none';
  }
}
