import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../roles.js';
import { buildActor } from '../testing/identity.js';
import { can, grantableRoles, holds, type Permission, PERMISSIONS } from './permissions.js';
import { PLATFORM, reaches, type Resource, scopeOf } from './scope.js';

// Organisation org-1 with group-1 (managed by the ORGANIZATION_GROUP actor) and group-2;
// wearer-1 in group-1 is linked to the personal actors. org-2 is someone else's.
const target = {
  platform: PLATFORM,
  organization: { organizationId: 'org-1' },
  group1: { organizationId: 'org-1', groupIds: ['group-1'] },
  group2: { organizationId: 'org-1', groupIds: ['group-2'] },
  ungrouped: { organizationId: 'org-1', groupIds: [] },
  linkedWearer: { organizationId: 'org-1', groupIds: ['group-1'], wearerId: 'wearer-1' },
  otherWearer: { organizationId: 'org-1', groupIds: ['group-2'], wearerId: 'wearer-2' },
  // An alert raised in group-2, its wearer now in group-1: both groups' managers reach it.
  movedAlert: { organizationId: 'org-1', groupIds: ['group-1', 'group-2'], wearerId: 'wearer-3' },
  foreignOrganization: { organizationId: 'org-2' },
  foreignWearer: { organizationId: 'org-2', groupIds: ['group-9'], wearerId: 'wearer-9' },
} satisfies Record<string, Resource>;
type Target = keyof typeof target;

const actorOf = (role: Role) =>
  buildActor(
    role,
    role === 'PERSONAL' || role === 'PERSONAL_SELF' ? { linkedWearerIds: ['wearer-1'] } : {},
  );

/** What each role reaches: the tenancy rule, read as a table. */
const REACHES: Record<Role, Target[]> = {
  ALL_OWNER: Object.keys(target) as Target[],
  ALL_GENERAL: Object.keys(target) as Target[],
  ORGANIZATION_OWNER: [
    'organization',
    'group1',
    'group2',
    'ungrouped',
    'linkedWearer',
    'otherWearer',
    'movedAlert',
  ],
  ORGANIZATION_GENERAL: [
    'organization',
    'group1',
    'group2',
    'ungrouped',
    'linkedWearer',
    'otherWearer',
    'movedAlert',
  ],
  ORGANIZATION_GROUP: ['organization', 'group1', 'linkedWearer', 'movedAlert'],
  PERSONAL: ['linkedWearer'],
  PERSONAL_SELF: ['linkedWearer'],
};

/** Who holds what: the product's decisions, written out (not derived from the table under test). */
const HOLDERS: Record<Permission, Role[] | 'everyone'> = {
  'self:read': 'everyone',
  'self:update': 'everyone',
  'organization:read': [
    'ALL_OWNER',
    'ALL_GENERAL',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'organization:create': ['ALL_OWNER'],
  'organization:update': ['ALL_OWNER', 'ORGANIZATION_OWNER'],
  'demo:remove': ['ALL_OWNER'],
  'alert:test': ['ALL_OWNER', 'ORGANIZATION_OWNER', 'ORGANIZATION_GROUP'],
  'group:read': [
    'ALL_OWNER',
    'ALL_GENERAL',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'group:manage': ['ALL_OWNER', 'ORGANIZATION_OWNER'],
  'wearer:read': 'everyone',
  'wearer:exportFhir': 'everyone',
  'apiToken:manage': [
    'ALL_OWNER',
    'ALL_GENERAL',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'wearer:manage': [
    'ALL_OWNER',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'alert:read': 'everyone',
  'alert:confirm': [
    'ALL_OWNER',
    'ALL_GENERAL',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'alert:snooze': ['ALL_OWNER', 'ORGANIZATION_OWNER', 'ORGANIZATION_GENERAL', 'ORGANIZATION_GROUP'],
  'alertFigures:read': [
    'ALL_OWNER',
    'ALL_GENERAL',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'alert:handover': [
    'ALL_OWNER',
    'ALL_GENERAL',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'nightRound:mark': [
    'ALL_OWNER',
    'ALL_GENERAL',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'alertSettings:read': 'everyone',
  'alertSettings:update': [
    'ALL_OWNER',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
    'PERSONAL',
    'PERSONAL_SELF',
  ],
  'noticeSettings:read': [
    'ALL_OWNER',
    'ALL_GENERAL',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'noticeSettings:update': ['ALL_OWNER', 'ORGANIZATION_OWNER', 'ORGANIZATION_GROUP'],
  'heatProcedure:update': ['ALL_OWNER', 'ORGANIZATION_OWNER', 'ORGANIZATION_GROUP'],
  'alertPolicy:read': [
    'ALL_OWNER',
    'ALL_GENERAL',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'alertPolicy:update': ['ALL_OWNER', 'ORGANIZATION_OWNER'],
  'channelHealth:read': ['ALL_OWNER', 'ALL_GENERAL', 'ORGANIZATION_OWNER', 'ORGANIZATION_GROUP'],
  'notification:read': [
    'ALL_OWNER',
    'ALL_GENERAL',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'member:read': [
    'ALL_OWNER',
    'ALL_GENERAL',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'familyNotice:manage': ['PERSONAL'],
  'member:invite': ['ALL_OWNER', 'ORGANIZATION_OWNER'],
  'member:changeRole': ['ALL_OWNER', 'ORGANIZATION_OWNER'],
  'member:remove': ['ALL_OWNER', 'ORGANIZATION_OWNER'],
  'family:manage': [
    'ALL_OWNER',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'user:lookup': ['ALL_OWNER', 'ALL_GENERAL'],
  'gateway:read': [
    'ALL_OWNER',
    'ALL_GENERAL',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'gateway:manage': ['ALL_OWNER', 'ORGANIZATION_OWNER'],
  'site:read': [
    'ALL_OWNER',
    'ALL_GENERAL',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'site:manage': ['ALL_OWNER', 'ORGANIZATION_OWNER', 'ORGANIZATION_GROUP'],
  'place:read': [
    'ALL_OWNER',
    'ALL_GENERAL',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'bracelet:read': [
    'ALL_OWNER',
    'ALL_GENERAL',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'bracelet:register': ['ALL_OWNER', 'ORGANIZATION_OWNER'],
  'bracelet:pair': [
    'ALL_OWNER',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'audit:read': ['ALL_OWNER', 'ALL_GENERAL', 'ORGANIZATION_OWNER'],
  'webhook:read': ['ALL_OWNER', 'ALL_GENERAL', 'ORGANIZATION_OWNER'],
  'webhook:manage': ['ALL_OWNER', 'ORGANIZATION_OWNER'],
  'chatChannel:read': [
    'ALL_OWNER',
    'ALL_GENERAL',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  'chatChannel:manage': ['ALL_OWNER', 'ORGANIZATION_OWNER'],
  'chatLink:manage': ['ORGANIZATION_OWNER', 'ORGANIZATION_GENERAL', 'ORGANIZATION_GROUP'],
  // A person's whole file (issue 39 item 5): owners, and a PERSONAL_SELF user their own; erasure owners only.
  'person:export': ['ALL_OWNER', 'ORGANIZATION_OWNER', 'PERSONAL_SELF'],
  'person:exportOthers': ['ALL_OWNER', 'ORGANIZATION_OWNER'],
  'person:erase': ['ALL_OWNER', 'ORGANIZATION_OWNER'],
  'accessLog:read': ['ALL_OWNER', 'ORGANIZATION_OWNER'],
};

describe('scopeOf and reaches', () => {
  for (const role of ROLES) {
    for (const name of Object.keys(target) as Target[]) {
      const expected = REACHES[role].includes(name);
      it(`${role} ${expected ? 'reaches' : 'does not reach'} ${name}`, () => {
        expect(reaches(scopeOf(actorOf(role)), target[name])).toBe(expected);
      });
    }
  }

  it('a staff user without an organisation, and a personal user without links, reach nothing', () => {
    expect(scopeOf(buildActor('ORGANIZATION_OWNER', { organizationId: null }))).toEqual({
      kind: 'none',
    });
    expect(scopeOf(buildActor('PERSONAL', { linkedWearerIds: [] }))).toEqual({ kind: 'none' });
  });
});

// The role table generated per permission: role x resource -> allowed.
describe.each(PERMISSIONS)('%s', (permission) => {
  const holders = HOLDERS[permission];
  for (const role of ROLES) {
    const holdsIt = holders === 'everyone' || holders.includes(role);
    it(`${role} ${holdsIt ? 'holds it within its scope' : 'never holds it'}`, () => {
      const actor = actorOf(role);
      expect(holds(actor, permission)).toBe(holdsIt);
      for (const name of Object.keys(target) as Target[]) {
        expect(can(actor, permission, target[name]), name).toBe(
          holdsIt && REACHES[role].includes(name),
        );
      }
    });
  }
});

describe('grantableRoles: nobody grants a role above their own', () => {
  it.each([
    ['ALL_OWNER', [...ROLES]],
    ['ALL_GENERAL', []],
    [
      'ORGANIZATION_OWNER',
      ['ORGANIZATION_OWNER', 'ORGANIZATION_GENERAL', 'ORGANIZATION_GROUP', 'PERSONAL'],
    ],
    ['ORGANIZATION_GENERAL', ['PERSONAL']],
    ['ORGANIZATION_GROUP', ['PERSONAL']],
    ['PERSONAL', []],
    ['PERSONAL_SELF', []],
  ] as [Role, Role[]][])('%s grants %j', (role, roles) => {
    expect([...grantableRoles({ role })].sort()).toEqual([...roles].sort());
  });
});
