import type { AlertSettingsInput } from './alert-settings.js';
import type { AlertType } from './alerts.js';

/** What an organisation is (issue 35): it picks the alert defaults of its wearers. */
export const ORGANIZATION_KINDS = ['CONSTRUCTION_SITE', 'CARE_HOME', 'OTHER'] as const;
export type OrganizationKind = (typeof ORGANIZATION_KINDS)[number];

/**
 * The alert settings a wearer of each kind of organisation starts from, before anyone changes them
 * (a wearer without a stored settings row). A care home watches sleep and waking at night
 * (AWAKENING_ALERT) and has no WBGT heat rule (HEATSTROKE: residents are indoors, the site's WBGT
 * does not apply); a construction site the reverse. The core-temperature heat alerts stay on for
 * both. OTHER keeps every rule on, as organisations made before kinds existed.
 * Frozen, one object per kind: the engine caches resolved settings per object.
 */
export const KIND_ALERT_DEFAULTS: Readonly<Record<OrganizationKind, Readonly<AlertSettingsInput>>> =
  Object.freeze({
    CARE_HOME: Object.freeze({ enabled: { HEATSTROKE: false, AWAKENING_ALERT: true } }),
    CONSTRUCTION_SITE: Object.freeze({ enabled: { HEATSTROKE: true, AWAKENING_ALERT: false } }),
    OTHER: Object.freeze({}),
  });

/**
 * The alert types a new notice recipient (an SMS or a call of a group's notice settings) is told of
 * before anyone changes them (issue 36 item 4), by kind, like KIND_ALERT_DEFAULTS: SOS and falls
 * everywhere; a construction site adds the heat alerts (the WBGT rule and core temperature) and
 * never the sleep alert (AWAKENING_ALERT: nobody sleeps on a site); a care home adds waking at night
 * and core-temperature heat, and no WBGT alert (its rule is off there). OTHER keeps the old default.
 */
export const KIND_NOTICE_TYPES: Readonly<Record<OrganizationKind, readonly AlertType[]>> =
  Object.freeze({
    CONSTRUCTION_SITE: Object.freeze<AlertType[]>([
      'SOS_CALL',
      'DETECT_FALL_DOWN',
      'HEATSTROKE',
      'ADVANCED_HEATSTROKE',
    ]),
    CARE_HOME: Object.freeze<AlertType[]>([
      'SOS_CALL',
      'DETECT_FALL_DOWN',
      'AWAKENING_ALERT',
      'ADVANCED_HEATSTROKE',
    ]),
    OTHER: Object.freeze<AlertType[]>(['SOS_CALL', 'DETECT_FALL_DOWN']),
  });

/** The kind as stored, or OTHER for anything unknown. */
export const organizationKindOf = (stored: unknown): OrganizationKind =>
  (ORGANIZATION_KINDS as readonly unknown[]).includes(stored)
    ? (stored as OrganizationKind)
    : 'OTHER';
