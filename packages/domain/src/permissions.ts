import { isPersonalRole, isPlatformRole, type Role } from './roles.js';

/** Who is acting: enough to decide every permission without another lookup. */
export interface Actor {
  uid: string;
  role: Role;
  organizationId: string | null;
  /** Groups an ORGANIZATION_GROUP manager manages. */
  managedGroupIds: readonly string[];
  /** Wearers a PERSONAL user is linked to; for PERSONAL_SELF, the wearer themself. */
  linkedWearerIds: readonly string[];
}

/** What is acted on. Organization-owned rows always carry their organization. */
export type Resource =
  | { kind: 'organization'; organizationId: string }
  | { kind: 'group'; organizationId: string; groupId: string }
  | { kind: 'wearer'; organizationId: string; groupId: string | null; wearerId: string }
  | { kind: 'gateway'; organizationId: string; groupId: string | null }
  | { kind: 'member'; organizationId: string };

export type Action = 'read' | 'write' | 'confirm' | 'manage';

/** The one permission rule of the product; the server enforces it, the web only hides. */
export function can(actor: Actor, action: Action, resource: Resource): boolean {
  if (isPlatformRole(actor.role)) {
    // ALL_GENERAL sees everything and confirms alerts; only ALL_OWNER changes settings.
    return action === 'read' || action === 'confirm' || actor.role === 'ALL_OWNER';
  }
  if (isPersonalRole(actor.role)) {
    return (
      resource.kind === 'wearer' &&
      (action === 'read' || action === 'write') &&
      actor.linkedWearerIds.includes(resource.wearerId)
    );
  }
  if (actor.organizationId !== resource.organizationId) return false;
  const role = actor.role;
  switch (role) {
    case 'ORGANIZATION_OWNER':
      return true;
    case 'ORGANIZATION_GENERAL':
      return action !== 'manage';
    case 'ORGANIZATION_GROUP': {
      if (resource.kind === 'organization' || resource.kind === 'member') return action === 'read';
      const groupId = resource.groupId;
      return groupId !== null && actor.managedGroupIds.includes(groupId) && action !== 'manage';
    }
  }
}
