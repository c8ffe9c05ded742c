import {
  type Actor,
  can,
  type Permission,
  PLATFORM,
  reaches,
  type Resource,
  scopeOf,
} from '@wearable/domain';
import type { Queryable } from '../db/client.js';
import { ApiError, forbidden } from '../errors.js';
import { accessRepository, type Location, type ResourceKind } from './access.repository.js';

export type { Location, ResourceKind } from './access.repository.js';

const NOT_FOUND: Record<ResourceKind, { code: string; label: string }> = {
  organization: { code: 'CLIENT_NOT_FOUND', label: 'Client' },
  group: { code: 'GROUP_NOT_FOUND', label: 'Group' },
  wearer: { code: 'WEARER_NOT_FOUND', label: 'Wearer' },
  gateway: { code: 'GATEWAY_NOT_FOUND', label: 'Gateway' },
  bracelet: { code: 'BRACELET_NOT_FOUND', label: 'Bracelet' },
  alert: { code: 'ALERT_NOT_FOUND', label: 'Alert' },
  member: { code: 'MEMBER_NOT_FOUND', label: 'Member' },
  webhook: { code: 'WEBHOOK_NOT_FOUND', label: 'Webhook' },
  site: { code: 'SITE_NOT_FOUND', label: 'Site' },
};

/** The 404 of a resource the actor cannot reach: the same answer as for one that does not exist. */
export const notFoundError = (kind: ResourceKind, id: string) =>
  new ApiError(404, NOT_FOUND[kind].code, `${NOT_FOUND[kind].label} ${id} not found`);

/**
 * The one place that decides 404 or 403. A resource the actor cannot reach (another
 * organisation's, another group's, unknown) is 404, so ids do not leak; one they reach but may
 * not act on is 403. Services start with `access.require(...)` and hold no role branches.
 */
export function accessService(db: Queryable) {
  const repo = accessRepository(db);

  function decide(
    actor: Actor,
    permission: Permission,
    kind: ResourceKind,
    id: string,
    at?: Resource,
  ): void {
    if (!at || !reaches(scopeOf(actor), at)) throw notFoundError(kind, id);
    if (!can(actor, permission, at)) throw forbidden(`Your role may not do ${permission} here`);
  }

  return {
    /** Where the resource lives; 404 if the actor cannot reach it, 403 if they may not do `permission`. */
    async require(
      actor: Actor,
      permission: Permission,
      kind: ResourceKind,
      id: string,
    ): Promise<Location> {
      const location = (await repo.locate(kind, [id])).get(id);
      decide(actor, permission, kind, id, location);
      return location!;
    },

    /** `require` for many ids of one kind: all must pass, or the first failing id decides the answer. */
    async requireAll(
      actor: Actor,
      permission: Permission,
      kind: ResourceKind,
      ids: string[],
    ): Promise<Map<string, Location>> {
      const found = await repo.locate(kind, [...new Set(ids)]);
      for (const id of ids) decide(actor, permission, kind, id, found.get(id));
      return found;
    },

    /** The ids the actor may do `permission` on; the others (unknown, unreachable, not allowed) are left out. */
    async permitted(
      actor: Actor,
      permission: Permission,
      kind: ResourceKind,
      ids: string[],
    ): Promise<Map<string, Location>> {
      const found = await repo.locate(kind, [...new Set(ids)]);
      return new Map([...found].filter(([, at]) => can(actor, permission, at)));
    },

    /** A check on the platform itself (create an organisation, find any user). */
    requirePlatform(actor: Actor, permission: Permission): void {
      if (!can(actor, permission, PLATFORM)) throw forbidden(`Your role may not do ${permission}`);
    },

    /** An in-memory check of a location already read (a list row): true if the actor may. */
    may(actor: Actor, permission: Permission, at: Resource): boolean {
      return can(actor, permission, at);
    },
  };
}
export type AccessService = ReturnType<typeof accessService>;
