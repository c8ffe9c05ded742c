import {
  type Actor,
  can,
  holds,
  type Permission,
  type Resource,
  type UserInfo,
} from '@wearable/domain';
import { useIsDemo } from './app-path';
import { useCurrentUser } from './current-user';

/**
 * The signed-in user as the domain's Actor. GET /v2/user carries the spec's fields only, so the
 * groups a manager manages are unknown here (see `useCan`).
 */
export function actorOf(user: UserInfo): Actor {
  return {
    uid: user.uid,
    role: user.role,
    organizationId: user.mediromOrganizationId,
    managedGroupIds: [],
    linkedWearerIds: user.linkedUids,
  };
}

/** The demo is read-only: it shows what an owner sees, but offers nothing that changes data. */
const readsOnly = (permission: Permission) =>
  permission.endsWith(':read') || permission === 'user:lookup';

/**
 * Whether the user may do something (the domain's permission table), with the same answer as the
 * server. The web uses it only to hide what it would refuse.
 */
export function decideCan(
  user: UserInfo | null,
  demo: boolean,
  permission: Permission,
  resource?: Resource,
): boolean {
  if (user === null || (demo && !readsOnly(permission))) return false;
  const actor = actorOf(user);
  if (resource === undefined) return holds(actor, permission);
  // Groups are left to the server: it sent only what lies in a manager's groups, and hiding an
  // action it would allow is worse than showing one it refuses with a message.
  const reachable: Resource =
    'platform' in resource
      ? resource
      : { organizationId: resource.organizationId, wearerId: resource.wearerId };
  return can(actor, permission, reachable);
}

/** `useCan('alert:confirm')`: the role holds it; with a resource, also reaches that resource. */
export function useCan(permission: Permission, resource?: Resource): boolean {
  return decideCan(useCurrentUser(), useIsDemo(), permission, resource);
}
