import { describe, expect, it } from 'vitest';
import { type Action, can, type Resource } from './permissions.js';
import { ROLES, type Role } from './roles.js';
import { buildActor } from './testing/identity.js';

// Organisation org-1 with group-1 (managed by the ORGANIZATION_GROUP actor) and group-2;
// wearer-1 in group-1 is linked to the personal actors. org-2 is someone else's.
const own = {
  organization: { kind: 'organization', organizationId: 'org-1' },
  group1: { kind: 'group', organizationId: 'org-1', groupId: 'group-1' },
  group2: { kind: 'group', organizationId: 'org-1', groupId: 'group-2' },
  linkedWearer: {
    kind: 'wearer',
    organizationId: 'org-1',
    groupId: 'group-1',
    wearerId: 'wearer-1',
  },
  otherWearer: {
    kind: 'wearer',
    organizationId: 'org-1',
    groupId: 'group-2',
    wearerId: 'wearer-2',
  },
  members: { kind: 'member', organizationId: 'org-1' },
  foreignWearer: {
    kind: 'wearer',
    organizationId: 'org-2',
    groupId: 'group-9',
    wearerId: 'wearer-9',
  },
} satisfies Record<string, Resource>;
type Target = keyof typeof own;

const actorOf = (role: Role) =>
  buildActor(
    role,
    role === 'PERSONAL' || role === 'PERSONAL_SELF' ? { linkedWearerIds: ['wearer-1'] } : {},
  );

// What each role may READ; "manage" rows below.
const READ: Record<Role, Target[]> = {
  ALL_OWNER: [
    'organization',
    'group1',
    'group2',
    'linkedWearer',
    'otherWearer',
    'members',
    'foreignWearer',
  ],
  ALL_GENERAL: [
    'organization',
    'group1',
    'group2',
    'linkedWearer',
    'otherWearer',
    'members',
    'foreignWearer',
  ],
  ORGANIZATION_OWNER: [
    'organization',
    'group1',
    'group2',
    'linkedWearer',
    'otherWearer',
    'members',
  ],
  ORGANIZATION_GENERAL: [
    'organization',
    'group1',
    'group2',
    'linkedWearer',
    'otherWearer',
    'members',
  ],
  ORGANIZATION_GROUP: ['organization', 'group1', 'linkedWearer', 'members'],
  PERSONAL: ['linkedWearer'],
  PERSONAL_SELF: ['linkedWearer'],
};
const MANAGE: Record<Role, Target[]> = {
  ALL_OWNER: [
    'organization',
    'group1',
    'group2',
    'linkedWearer',
    'otherWearer',
    'members',
    'foreignWearer',
  ],
  ALL_GENERAL: [],
  ORGANIZATION_OWNER: [
    'organization',
    'group1',
    'group2',
    'linkedWearer',
    'otherWearer',
    'members',
  ],
  ORGANIZATION_GENERAL: [],
  ORGANIZATION_GROUP: [],
  PERSONAL: [],
  PERSONAL_SELF: [],
};

describe('can(actor, action, resource)', () => {
  const targets = Object.keys(own) as Target[];
  it.each(ROLES)('%s reads and manages exactly its table row', (role) => {
    const actor = actorOf(role);
    const allowed = (action: Action) => targets.filter((t) => can(actor, action, own[t]));
    expect(allowed('read')).toEqual(READ[role]);
    expect(allowed('manage')).toEqual(MANAGE[role]);
  });

  it('an organisation role without an organisation reaches nothing', () => {
    const actor = buildActor('ORGANIZATION_OWNER', { organizationId: null });
    expect(targets.filter((t) => can(actor, 'read', own[t]))).toEqual([]);
  });
});
