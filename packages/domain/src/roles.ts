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
