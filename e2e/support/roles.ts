/** The demo sign-ins (seeded on first start) and what each role must see: the table the shell tests read. */
export const DEMO_PASSWORD = 'demo-pass-2026';

export type Role =
  | 'ALL_OWNER'
  | 'ALL_GENERAL'
  | 'ORGANIZATION_OWNER'
  | 'ORGANIZATION_GENERAL'
  | 'ORGANIZATION_GROUP'
  | 'PERSONAL'
  | 'PERSONAL_SELF';

export interface RoleCase {
  role: Role;
  email: string;
  /** Exactly the main menu's link targets, in order. */
  menu: readonly string[];
  logo: string;
  /** Where a sign-in through the form ends up (PERSONAL has not chosen a wearer yet). */
  landing: string;
}

// 装着者を追加 (/members?add=1) for the roles that may add a wearer (wearer:manage): not platform general staff.
const PLATFORM_MENU = [
  '/organization',
  '/devices',
  '/members',
  '/alert-histories',
  '/map',
  '/settings/admins',
] as const;
const PLATFORM_GENERAL_MENU = [
  '/organization',
  '/devices',
  '/alert-histories',
  '/map',
  '/settings/admins',
] as const;
const ORGANIZATION_MENU = [
  '/devices',
  '/members',
  '/alert-histories',
  '/map',
  '/settings/admins',
] as const;
const PERSONAL_MENU = ['/user/record', '/user/info', '/user/settings/alert'] as const;

export const ROLE_CASES: readonly RoleCase[] = [
  {
    role: 'ALL_OWNER',
    email: 'all-owner@example.com',
    menu: PLATFORM_MENU,
    logo: '/devices',
    landing: '/devices',
  },
  {
    role: 'ALL_GENERAL',
    email: 'all-general@example.com',
    menu: PLATFORM_GENERAL_MENU,
    logo: '/devices',
    landing: '/devices',
  },
  {
    role: 'ORGANIZATION_OWNER',
    email: 'org-owner@example.com',
    // The demo organisation has not finished its setup checklist (no test alert): the checklist leads its owner's menu.
    menu: ['/setup', ...ORGANIZATION_MENU],
    logo: '/devices',
    landing: '/devices',
  },
  {
    role: 'ORGANIZATION_GENERAL',
    email: 'org-general@example.com',
    menu: ORGANIZATION_MENU,
    logo: '/devices',
    landing: '/devices',
  },
  {
    role: 'ORGANIZATION_GROUP',
    email: 'org-group@example.com',
    menu: ORGANIZATION_MENU,
    logo: '/devices',
    landing: '/devices',
  },
  {
    role: 'PERSONAL',
    email: 'personal@example.com',
    menu: PERSONAL_MENU,
    logo: '/user/record',
    landing: '/select-device',
  },
  {
    role: 'PERSONAL_SELF',
    email: 'personal-self@example.com',
    menu: PERSONAL_MENU,
    logo: '/user/record',
    landing: '/user/record',
  },
];

export function roleCase(role: Role): RoleCase {
  const found = ROLE_CASES.find((c) => c.role === role);
  if (!found) throw new Error(`No demo sign-in for ${role}`);
  return found;
}

/** A member of the demo organisation who has not agreed to the terms of use yet. */
export const NEW_MEMBER_EMAIL = 'new-member@example.com';
/** The owner of the second organisation (tenant isolation). */
export const SECOND_ORG_OWNER_EMAIL = 'sakura-owner@example.com';
