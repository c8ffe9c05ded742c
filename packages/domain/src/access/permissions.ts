import { type Role, ROLES } from '../roles.js';
import { type Actor, reaches, type Resource, scopeOf } from './scope.js';

const PLATFORM_OWNER = ['ALL_OWNER'] as const satisfies readonly Role[];
const OWNERS = ['ALL_OWNER', 'ORGANIZATION_OWNER'] as const satisfies readonly Role[];
const STAFF = [
  'ALL_OWNER',
  'ALL_GENERAL',
  'ORGANIZATION_OWNER',
  'ORGANIZATION_GENERAL',
  'ORGANIZATION_GROUP',
] as const satisfies readonly Role[];
/** Staff who change things in the organisation (platform ALL_GENERAL only reads and confirms). */
const ACTING_STAFF = [
  'ALL_OWNER',
  'ORGANIZATION_OWNER',
  'ORGANIZATION_GENERAL',
  'ORGANIZATION_GROUP',
] as const satisfies readonly Role[];
const EVERYONE = ROLES;

/**
 * The permission table: which roles hold each permission, within their scope (`scopeOf`).
 * A permission is named in the product's words; a route declares one, a service checks it on a
 * resource. `satisfies` keeps it exhaustive: a new permission without a row does not compile.
 */
export const PERMISSION_ROLES = {
  /** The signed-in user's own account: user info, terms, own sessions, own profile. */
  'self:read': EVERYONE,
  'self:update': EVERYONE,

  'organization:read': STAFF,
  'organization:create': PLATFORM_OWNER,
  'organization:update': OWNERS,
  /** Delete the demo organisations and accounts (their passwords are published): platform owners. */
  'demo:remove': PLATFORM_OWNER,

  'group:read': STAFF,
  'group:manage': OWNERS,

  /** A wearer and their records (readings, history, summary, monthly report). */
  'wearer:read': EVERYONE,
  /** One's own API tokens for scripts (staff only; never through a token itself). */
  'apiToken:manage': STAFF,
  /** A wearer's vital signs handed to another system as FHIR R4 (staff in scope, linked personal users). */
  'wearer:exportFhir': EVERYONE,
  /** Add, edit, move and remove wearers. */
  'wearer:manage': ACTING_STAFF,
  /**
   * Everything held about one wearer as a ZIP (APPI disclosure, issue 39 item 5; docs/privacy.md): owners, and a
   * PERSONAL_SELF user for their own data (someone else's also needs person:exportOthers).
   */
  'person:export': ['ALL_OWNER', 'ORGANIZATION_OWNER', 'PERSONAL_SELF'],
  /** The export of someone other than oneself (a PERSONAL_SELF user's scope also reaches wearers linked to them). */
  'person:exportOthers': OWNERS,
  /** Erase a wearer and their data for good (APPI deletion): owners only, never a token. */
  'person:erase': OWNERS,

  'alert:read': EVERYONE,
  'alert:confirm': STAFF,
  'alert:snooze': ACTING_STAFF,
  /**
   * Open a test alert for a wearer, which notifies the group's recipients (issue 35, the setup
   * checklist's last step): the people who set the recipients (noticeSettings:update).
   */
  'alert:test': ['ALL_OWNER', 'ORGANIZATION_OWNER', 'ORGANIZATION_GROUP'],
  /** Response-time figures of an organisation's or a group's alerts (and their CSV). */
  'alertFigures:read': STAFF,
  /** The shift handover view: open alerts, snoozes and confirmations of the last shift. */
  'alert:handover': STAFF,
  /** Record "looked at this resident" on a group's night round (any staff member who reaches the group). */
  'nightRound:mark': STAFF,

  'alertSettings:read': EVERYONE,
  'alertSettings:update': [...ACTING_STAFF, 'PERSONAL', 'PERSONAL_SELF'],

  'noticeSettings:read': STAFF,
  /** Who is woken at night: owners and the group's managers, not general staff. */
  'noticeSettings:update': ['ALL_OWNER', 'ORGANIZATION_OWNER', 'ORGANIZATION_GROUP'],
  /**
   * A site's written heat procedure and nearest hospital (Japan's 2025 heat rule): the same people
   * as the named contacts (the notice settings) — owners and the site's group managers.
   */
  'heatProcedure:update': ['ALL_OWNER', 'ORGANIZATION_OWNER', 'ORGANIZATION_GROUP'],
  /**
   * The organisation's alert policy (recovery window, notice grouping, repeat and hourly caps, the
   * site heat level's hysteresis): every staff member who sees any of its groups reads it, because
   * it explains why a notice was grouped or held back; only owners change it, as it applies to
   * every group of the organisation at once.
   */
  'alertPolicy:read': STAFF,
  'alertPolicy:update': OWNERS,
  /**
   * A family member's own choice to be told by SMS or mail of a watched wearer's EMERGENCY and
   * CRITICAL alerts (issue 34): only the family member, for the wearers linked to them.
   */
  'familyNotice:manage': ['PERSONAL'],
  /**
   * Each channel's last delivery, last failure and its reason (issue 38 item 4): the people who set
   * who is woken (owners and group managers, as noticeSettings:update) and platform staff, who read
   * every organisation. It names no recipient, and a webhook only by its description or host.
   */
  'channelHealth:read': ['ALL_OWNER', 'ALL_GENERAL', 'ORGANIZATION_OWNER', 'ORGANIZATION_GROUP'],
  /** The notification log (it shows phone numbers). */
  'notification:read': STAFF,

  'member:read': STAFF,
  'member:invite': OWNERS,
  'member:changeRole': OWNERS,
  'member:remove': OWNERS,
  /** Invite family members (PERSONAL) to a wearer and link or unlink them. */
  'family:manage': ACTING_STAFF,
  /** Find any user across organisations (/users). */
  'user:lookup': ['ALL_OWNER', 'ALL_GENERAL'],

  'gateway:read': STAFF,
  'gateway:manage': OWNERS,
  /**
   * Sites and their plans, and where gateways are placed on them (issue 17): every staff member
   * reads them; owners manage every site, group managers the sites of their groups (as the heat
   * procedure: the people who know the building), general staff do not change them.
   */
  'site:read': STAFF,
  'site:manage': ['ALL_OWNER', 'ORGANIZATION_OWNER', 'ORGANIZATION_GROUP'],
  /**
   * Where the wearers are now (/map, issue 17): every staff member, for the wearers in their scope
   * (a group manager: their groups'). Personal users see the place on their wearer's alerts instead.
   */
  'place:read': STAFF,
  'bracelet:read': STAFF,
  /** Register a bracelet for an organisation. */
  'bracelet:register': OWNERS,
  /** Link a bracelet to a wearer and a gateway, unlink, change its duty cycle. */
  'bracelet:pair': ACTING_STAFF,

  'audit:read': ['ALL_OWNER', 'ALL_GENERAL', 'ORGANIZATION_OWNER'],
  /** Who read whose data (issue 39 item 3, docs/access-log.md): owners and platform owners only. */
  'accessLog:read': OWNERS,

  /**
   * The organisation's webhook endpoints and their delivery log (payloads name wearers): owners,
   * and platform staff who read every organisation. Only owners register, change, rotate, delete.
   */
  'webhook:read': ['ALL_OWNER', 'ALL_GENERAL', 'ORGANIZATION_OWNER'],
  'webhook:manage': OWNERS,
  /**
   * The organisation's chat channels (Slack, Teams, LINE WORKS; decision 0022): every staff member reads
   * which are set up (a group's notice settings name them; secrets are never answered), owners set them.
   */
  'chatChannel:read': STAFF,
  'chatChannel:manage': OWNERS,
  /**
   * Link one's own console account to one's Slack or LINE WORKS user, so 確認 pressed in the chat confirms
   * as oneself: the organisation's staff (platform staff belong to no organisation's chat).
   */
  'chatLink:manage': ['ORGANIZATION_OWNER', 'ORGANIZATION_GENERAL', 'ORGANIZATION_GROUP'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSION_ROLES;
export const PERMISSIONS = Object.keys(PERMISSION_ROLES) as Permission[];

/** Whether the actor's role holds the permission at all (somewhere in their scope). */
export function holds(actor: Pick<Actor, 'role' | 'scopes'>, permission: Permission): boolean {
  if (actor.scopes !== undefined && !actor.scopes.includes(permission)) return false;
  return (PERMISSION_ROLES[permission] as readonly Role[]).includes(actor.role);
}

/**
 * What an API token can never do, whatever its owner may: make or revoke tokens, change people
 * (invitations, roles, removals, family links, wearers), change one's own account or sign-in,
 * create organisations. Everything else may be given to a token, within its owner's role.
 */
export const NEVER_FOR_API_TOKENS = [
  'apiToken:manage',
  'self:update',
  'member:invite',
  'member:changeRole',
  'member:remove',
  'family:manage',
  'wearer:manage',
  'person:export',
  'person:exportOthers',
  'person:erase',
  'organization:create',
  'demo:remove',
] as const satisfies readonly Permission[];

/** The permissions an actor may put on a new API token: theirs, less NEVER_FOR_API_TOKENS. */
export function tokenScopesFor(actor: Pick<Actor, 'role'>): Permission[] {
  return (Object.keys(PERMISSION_ROLES) as Permission[]).filter(
    (p) =>
      !(NEVER_FOR_API_TOKENS as readonly Permission[]).includes(p) &&
      (PERMISSION_ROLES[p] as readonly Role[]).includes(actor.role),
  );
}

/** The one permission rule of the product; the server enforces it, the web only hides. */
export function can(actor: Actor, permission: Permission, resource: Resource): boolean {
  return holds(actor, permission) && reaches(scopeOf(actor), resource);
}

/** Roles an actor may give someone (invitation, role change): never above their own. */
export function grantableRoles(actor: Pick<Actor, 'role'>): readonly Role[] {
  const role = actor.role;
  switch (role) {
    case 'ALL_OWNER':
      return ROLES;
    case 'ORGANIZATION_OWNER':
      return ['ORGANIZATION_OWNER', 'ORGANIZATION_GENERAL', 'ORGANIZATION_GROUP', 'PERSONAL'];
    case 'ORGANIZATION_GENERAL':
    case 'ORGANIZATION_GROUP':
      return ['PERSONAL'];
    case 'ALL_GENERAL':
    case 'PERSONAL':
    case 'PERSONAL_SELF':
      return [];
  }
}
