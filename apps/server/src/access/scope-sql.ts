import { type Actor, scopeOf } from '@wearable/domain';

/**
 * The tenancy rule as SQL, derived from the domain's `scopeOf(actor)` and shared by every query
 * that returns wearers or their alerts. The role tables in the tests check that it agrees with
 * `can(actor, 'wearer:read', …)`.
 */

/**
 * The server itself, reading every wearer: for work that is narrowed afterwards (the summary
 * snapshot per organisation, the live hub per client), never for a caller's request.
 */
export const SYSTEM_ACTOR: Actor = {
  uid: 'system',
  role: 'ALL_OWNER',
  organizationId: null,
  managedGroupIds: [],
  linkedWearerIds: [],
};

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
 * SQL conditions (joined with AND) limiting the wearer alias `u` to what the actor reaches,
 * narrowed by the optional filter. `groupColumns` are the group columns that let a group
 * manager reach a row (the wearer's group, and for alerts also the group at the time).
 */
export function wearerScope(
  actor: Actor,
  p: SqlParams,
  filter: WearerScopeFilter = {},
  u = 'u',
  groupColumns: string[] = [`${u}.group_id`],
): string {
  const where: string[] = [IS_WEARER(u)];
  const scope = scopeOf(actor);
  switch (scope.kind) {
    case 'platform':
      break;
    case 'none':
      where.push('false');
      break;
    case 'wearers':
      where.push(`${u}.id = ANY(${p.add([...scope.wearerIds])}::text[])`);
      break;
    case 'organization':
      where.push(`${u}.organization_id = ${p.add(scope.organizationId)}`);
      break;
    case 'groups': {
      where.push(`${u}.organization_id = ${p.add(scope.organizationId)}`);
      const groups = p.add([...scope.groupIds]);
      where.push(`(${groupColumns.map((c) => `${c} = ANY(${groups}::text[])`).join(' OR ')})`);
      break;
    }
  }
  if (filter.organizationId !== undefined)
    where.push(`${u}.organization_id = ${p.add(filter.organizationId)}`);
  if (filter.groupId !== undefined) where.push(`${u}.group_id = ${p.add(filter.groupId)}`);
  if (filter.wearerId !== undefined) where.push(`${u}.id = ${p.add(filter.wearerId)}`);
  if (filter.wearerIds !== undefined)
    where.push(`${u}.id = ANY(${p.add(filter.wearerIds)}::text[])`);
  return where.join(' AND ');
}

/**
 * SQL condition limiting alerts (alias `a`, its wearer LEFT JOINed as `u`) to the actor's scope. A
 * wearer's alert is where its wearer is, or was raised (`wearerScope`); an SOS or fall from a device
 * no wearer holds (issue 34) is where its gateway was, as a site is (`siteScope`): the organisation's
 * staff and the gateway's group managers reach it, a personal user never, and a filter on one
 * wearer leaves it out.
 */
export function alertScope(actor: Actor, p: SqlParams, filter: WearerScopeFilter = {}): string {
  const wearers = wearerScope(actor, p, filter, 'u', ['u.group_id', 'a.group_id']);
  const devices: string[] = [
    'a.wearer_id IS NULL',
    siteScope(actor, p, 'a.organization_id', 'a.group_id'),
  ];
  if (filter.wearerId !== undefined || filter.wearerIds !== undefined) devices.push('false');
  if (filter.organizationId !== undefined)
    devices.push(`a.organization_id = ${p.add(filter.organizationId)}`);
  if (filter.groupId !== undefined) devices.push(`a.group_id = ${p.add(filter.groupId)}`);
  return `((a.wearer_id IS NOT NULL AND ${wearers}) OR (${devices.join(' AND ')}))`;
}

/** A wearer held in memory, as the in-memory scope test reads it. */
export interface ScopedWearer {
  uid: string;
  groupId: string | null;
}

/**
 * `wearerScope` in JavaScript, over wearers already narrowed to one organisation (an in-memory
 * snapshot of it: the device summary's, the map's; `organizationId` names it): the test (undefined =
 * every one) and a signature naming it, the same for every caller who sees the same wearers. The
 * summary snapshot's tests compare it with the SQL rule for every role.
 */
export function wearerScopeInMemory(
  actor: Actor,
  filter: { groupId?: string | undefined; organizationId?: string | undefined } = {},
): { test?: (w: ScopedWearer) => boolean; signature: string } {
  const tests: ((w: ScopedWearer) => boolean)[] = [];
  const names: string[] = [];
  const scope = scopeOf(actor);
  const nobody = { test: () => false, signature: 'none' };
  if (scope.kind === 'none') return nobody;
  // The snapshot's organisation, when named, must be the one the staff's scope is limited to.
  if (
    (scope.kind === 'organization' || scope.kind === 'groups') &&
    filter.organizationId !== undefined &&
    filter.organizationId !== scope.organizationId
  )
    return nobody;
  if (scope.kind === 'wearers') {
    const linked = new Set(scope.wearerIds);
    tests.push((w) => linked.has(w.uid));
    names.push(`w:${[...linked].sort().join(',')}`);
  } else if (scope.kind === 'groups') {
    const managed = new Set(scope.groupIds);
    tests.push((w) => w.groupId !== null && managed.has(w.groupId));
    names.push(`g:${[...managed].sort().join(',')}`);
  }
  const { groupId } = filter;
  if (groupId !== undefined) {
    tests.push((w) => w.groupId === groupId);
    names.push(`f:${groupId}`);
  }
  if (!tests.length) return { signature: '*' };
  return { test: (w) => tests.every((t) => t(w)), signature: names.join('|') };
}

/**
 * SQL condition limiting a row that belongs to a site (organisation column `org`, group column
 * `group`, e.g. a site heat event) to the actor's scope: the organisation's staff see all of it,
 * a group manager their groups', others nothing.
 */
export function siteScope(actor: Actor, p: SqlParams, org: string, group: string): string {
  const scope = scopeOf(actor);
  switch (scope.kind) {
    case 'platform':
      return 'true';
    case 'organization':
      return `${org} = ${p.add(scope.organizationId)}`;
    case 'groups':
      return `(${org} = ${p.add(scope.organizationId)} AND ${group} = ANY(${p.add([...scope.groupIds])}::text[]))`;
    case 'wearers':
    case 'none':
      return 'false';
  }
}
