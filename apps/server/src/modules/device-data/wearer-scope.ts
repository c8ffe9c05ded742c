import { isPlatformRole, type Actor } from '@wearable/domain';

/**
 * The tenancy rule as SQL, shared by every query that returns wearers or their alerts:
 * platform staff see everyone, organisation staff their organisation, a group manager the
 * wearers of the groups they manage, a personal user only the wearers linked to them.
 * It must agree with `can(actor, 'read', wearer)`; the role tables in the tests check both.
 */

/** A user row that is a monitored wearer (no console role, or the wearer themself). */
export const IS_WEARER = (u: string) =>
  `${u}.deleted_at IS NULL AND ${u}.organization_id IS NOT NULL AND (${u}.role IS NULL OR ${u}.role = 'PERSONAL_SELF')`;

/** Collects positional parameters while a query is built. */
export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

export interface WearerScopeFilter {
  /** The organisation asked for (clientId); platform roles use it to narrow down. */
  organizationId?: string | undefined;
  groupId?: string | undefined;
  wearerId?: string | undefined;
  wearerIds?: string[] | undefined;
}

/**
 * SQL conditions (joined with AND) limiting the wearer alias `u` to what the actor may see,
 * narrowed by the optional filter. `groupColumns` are the group columns that grant a group
 * manager access (the wearer's group, and for alerts also the group at the time).
 */
export function wearerScope(
  actor: Actor,
  p: SqlParams,
  filter: WearerScopeFilter = {},
  u = 'u',
  groupColumns: string[] = [`${u}.group_id`],
): string {
  const where: string[] = [IS_WEARER(u)];
  if (isPlatformRole(actor.role)) {
    // sees everything
  } else if (actor.role === 'PERSONAL' || actor.role === 'PERSONAL_SELF') {
    where.push(`${u}.id = ANY(${p.add([...actor.linkedWearerIds])}::text[])`);
  } else {
    where.push(`${u}.organization_id = ${p.add(actor.organizationId ?? '')}`);
    if (actor.role === 'ORGANIZATION_GROUP') {
      const groups = p.add([...actor.managedGroupIds]);
      where.push(`(${groupColumns.map((c) => `${c} = ANY(${groups}::text[])`).join(' OR ')})`);
    }
  }
  if (filter.organizationId !== undefined) where.push(`${u}.organization_id = ${p.add(filter.organizationId)}`);
  if (filter.groupId !== undefined) where.push(`${u}.group_id = ${p.add(filter.groupId)}`);
  if (filter.wearerId !== undefined) where.push(`${u}.id = ${p.add(filter.wearerId)}`);
  if (filter.wearerIds !== undefined) where.push(`${u}.id = ANY(${p.add(filter.wearerIds)}::text[])`);
  return where.join(' AND ');
}
