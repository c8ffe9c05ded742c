/** The seven roles of the specification, grouped by what they may reach. */
export const ROLES = [
  'ALL_OWNER',
  'ALL_GENERAL',
  'ORGANIZATION_OWNER',
  'ORGANIZATION_GENERAL',
  'ORGANIZATION_GROUP',
  'PERSONAL',
  'PERSONAL_SELF',
] as const;
export type Role = (typeof ROLES)[number];

export const PLATFORM_ROLES = ['ALL_OWNER', 'ALL_GENERAL'] as const satisfies readonly Role[];
export const ORGANIZATION_ROLES = [
  'ORGANIZATION_OWNER',
  'ORGANIZATION_GENERAL',
  'ORGANIZATION_GROUP',
] as const satisfies readonly Role[];
export const PERSONAL_ROLES = ['PERSONAL', 'PERSONAL_SELF'] as const satisfies readonly Role[];
export const STAFF_ROLES = [...PLATFORM_ROLES, ...ORGANIZATION_ROLES] as const;

export type PlatformRole = (typeof PLATFORM_ROLES)[number];
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number];
export type PersonalRole = (typeof PERSONAL_ROLES)[number];

export const isPlatformRole = (role: Role): role is PlatformRole =>
  (PLATFORM_ROLES as readonly Role[]).includes(role);
export const isOrganizationRole = (role: Role): role is OrganizationRole =>
  (ORGANIZATION_ROLES as readonly Role[]).includes(role);
export const isPersonalRole = (role: Role): role is PersonalRole =>
  (PERSONAL_ROLES as readonly Role[]).includes(role);
export const isStaffRole = (role: Role): boolean => !isPersonalRole(role);
/** Roles that receive alert popups and sounds in the console (spec section 6). */
export const receivesAlertPopups = (role: Role): boolean => isStaffRole(role);

/**
 * The roles as people say them (docs/glossary.md), in the console's two languages: one source for
 * the server's mail and the web's locale files (apps/web/src/lib/locales.test.ts holds the two
 * together). Not the specification's codes ("組織一般", "全体オーナー" read like codes to a care home).
 */
export const ROLE_NAMES = {
  ja: {
    ALL_OWNER: '運営管理者',
    ALL_GENERAL: '運営スタッフ',
    ORGANIZATION_OWNER: '組織管理者',
    ORGANIZATION_GENERAL: '組織スタッフ',
    ORGANIZATION_GROUP: 'グループ管理者',
    PERSONAL: '家族（見守り）',
    PERSONAL_SELF: '本人',
  },
  en: {
    ALL_OWNER: 'Platform administrator',
    ALL_GENERAL: 'Platform staff',
    ORGANIZATION_OWNER: 'Organization administrator',
    ORGANIZATION_GENERAL: 'Organization staff',
    ORGANIZATION_GROUP: 'Group manager',
    PERSONAL: 'Family (watching)',
    PERSONAL_SELF: 'Wearer (self)',
  },
} as const satisfies Record<'ja' | 'en', Record<Role, string>>;
