import type { Role } from '../roles.js';

/** Who is acting: enough to decide every permission without another lookup. */
export interface Actor {
  uid: string;
  role: Role;
  organizationId: string | null;
  /** Groups an ORGANIZATION_GROUP manager manages. */
  managedGroupIds: readonly string[];
  /** Wearers a PERSONAL user is linked to; for PERSONAL_SELF, the wearer themself. */
  linkedWearerIds: readonly string[];
  /**
   * Acting through an API token: the permissions it was given. The actor may do only what both
   * the owner's current role and these allow. Undefined: a signed-in session (the role alone).
   */
  scopes?: readonly string[];
}

/**
 * What is acted on, resolved to where it lives. `groupIds` undefined: the organisation as a whole
 * (its staff list, its settings); `[]`: a thing in no group; several ids: an alert belongs to the
 * wearer's group now and to the group it was raised in.
 */
export type Resource =
  { platform: true } | { organizationId: string; groupIds?: readonly string[]; wearerId?: string };

/** The platform itself (creating an organisation, finding any user): platform staff only. */
export const PLATFORM: Resource = { platform: true };

/** Which organisations, groups and wearers an actor reaches; the one tenancy rule. */
export type Scope =
  | { kind: 'platform' }
  | { kind: 'organization'; organizationId: string }
  | { kind: 'groups'; organizationId: string; groupIds: readonly string[] }
  | { kind: 'wearers'; wearerIds: readonly string[] }
  | { kind: 'none' };

export function scopeOf(actor: Actor): Scope {
  const role = actor.role;
  switch (role) {
    case 'ALL_OWNER':
    case 'ALL_GENERAL':
      return { kind: 'platform' };
    case 'PERSONAL':
    case 'PERSONAL_SELF':
      return actor.linkedWearerIds.length
        ? { kind: 'wearers', wearerIds: actor.linkedWearerIds }
        : { kind: 'none' };
    case 'ORGANIZATION_OWNER':
    case 'ORGANIZATION_GENERAL':
      return actor.organizationId
        ? { kind: 'organization', organizationId: actor.organizationId }
        : { kind: 'none' };
    case 'ORGANIZATION_GROUP':
      return actor.organizationId
        ? { kind: 'groups', organizationId: actor.organizationId, groupIds: actor.managedGroupIds }
        : { kind: 'none' };
  }
}

/** Whether a scope reaches a resource (may know it exists); permissions add what may be done. */
export function reaches(scope: Scope, resource: Resource): boolean {
  if ('platform' in resource) return scope.kind === 'platform';
  switch (scope.kind) {
    case 'platform':
      return true;
    case 'none':
      return false;
    case 'wearers':
      return resource.wearerId !== undefined && scope.wearerIds.includes(resource.wearerId);
    case 'organization':
      return resource.organizationId === scope.organizationId;
    case 'groups':
      return (
        resource.organizationId === scope.organizationId &&
        (resource.groupIds === undefined ||
          resource.groupIds.some((g) => scope.groupIds.includes(g)))
      );
  }
}
