import type { UserInfo } from '../contracts/user.js';
import type { WearerListItem } from '../contracts/devices.js';
import type { Member } from '../contracts/members.js';
import type { ClientInfo, ClientSummary } from '../contracts/organizations.js';
import type { Actor } from '../access/scope.js';
import { isPersonalRole, isPlatformRole, type Role } from '../roles.js';

/** Plain objects for tests on both sides (no database): override what the test is about. */

let counter = 0;
const next = (prefix: string) => `${prefix}-${++counter}`;

/** An actor of a role; organisation roles get organizationId 'org-1' unless given. */
export function buildActor(role: Role, overrides: Partial<Actor> = {}): Actor {
  const uid = overrides.uid ?? next('user');
  return {
    uid,
    role,
    organizationId: isPlatformRole(role) || role === 'PERSONAL' ? null : 'org-1',
    managedGroupIds: role === 'ORGANIZATION_GROUP' ? ['group-1'] : [],
    linkedWearerIds: role === 'PERSONAL_SELF' ? [uid] : [],
    ...overrides,
  };
}

/** GET /v2/user as the console receives it. */
export function buildUserInfo(overrides: Partial<UserInfo> = {}): UserInfo {
  const role = overrides.role ?? 'ORGANIZATION_OWNER';
  return {
    name: '現場 太郎',
    devices: [],
    gatewayId: null,
    linkedUids: [],
    mail: 'org-owner@example.com',
    mailVerified: true,
    role,
    uid: next('user'),
    agreedTermsOfUse: true,
    mediromOrganizationId: isPlatformRole(role) || isPersonalRole(role) ? null : 'org-1',
    ...overrides,
  };
}

export function buildWearerListItem(overrides: Partial<WearerListItem> = {}): WearerListItem {
  const n = ++counter;
  return {
    uid: `wearer-${n}`,
    name: `装着者 ${n}`,
    nameReading: null,
    clientId: 'org-1',
    groupId: 'group-1',
    groupName: '第一現場',
    wearableId: `bracelet-${n}`,
    deviceName: `DEMO-BR-${String(n).padStart(3, '0')}`,
    serialNumber: `DEMO-BR-${String(n).padStart(3, '0')}`,
    gatewayId: 'gateway-1',
    battery: 80,
    ...overrides,
  };
}

export function buildMember(overrides: Partial<Member> = {}): Member {
  const n = ++counter;
  return {
    uid: `member-${n}`,
    name: `職員 ${n}`,
    mail: `member-${n}@example.com`,
    role: 'ORGANIZATION_GENERAL',
    groups: [],
    ...overrides,
  };
}

export function buildClientSummary(overrides: Partial<ClientSummary> = {}): ClientSummary {
  return {
    id: 'org-1',
    name: 'デモ建設株式会社',
    groupCount: 2,
    gatewayCount: 2,
    wearerCount: 20,
    openAlertCount: 0,
    ...overrides,
  };
}

export function buildClientInfo(overrides: Partial<ClientInfo> = {}): ClientInfo {
  return {
    id: 'org-1',
    name: 'デモ建設株式会社',
    timeZone: 'Asia/Tokyo',
    groups: [
      { id: 'group-1', name: '第一現場' },
      { id: 'group-2', name: '第二現場' },
    ],
    ...overrides,
  };
}
