import { z } from 'zod';

/**
 * An organisation's alert policy: how long a condition must be clear before its alert closes,
 * how notices are grouped, repeated and capped per recipient, and how a site's heat level enters
 * and leaves a level. One object per organisation (`organization_alert_policies`), completed
 * with these defaults; every window runs on the readings' own times (docs/alert-engine.md).
 */
export const ALERT_POLICY_DEFAULTS = {
  /** An open threshold alert closes only after its condition has been clear this long. */
  recoveryMinutes: 10,
  /** Further non-EMERGENCY alerts for one recipient within this window go as one message. */
  groupWindowMinutes: 2,
  /** The same still-open, unconfirmed alert is not sent again before this interval. */
  repeatIntervalMinutes: 30,
  /** SMS per recipient per hour outside EMERGENCY; past it one summary message, then silence. */
  smsPerHour: 6,
  /** Phone calls per recipient per hour outside EMERGENCY. */
  callsPerHour: 2,
  /** A site enters a higher heat level after WBGT has been at or above it this long. */
  siteHeatEnterMinutes: 10,
  /** A site leaves a level only after WBGT has been at least `siteHeatLeaveMargin` below it this long. */
  siteHeatLeaveMinutes: 15,
  /** How far below a level's lower bound WBGT must be to count towards leaving it (C). */
  siteHeatLeaveMargin: 1,
  /**
   * Man-down on phone gateways: a phone that is monitoring and sees no movement for this many
   * minutes raises its "are you all right?" countdown, then sends FALL (docs/phone-gateway.md).
   * 0 is off, the default (issue 16): a phone left on a desk is "no movement", so an organisation
   * turns it on knowingly.
   */
  manDownMinutes: 0,
} as const;

/** The longest man-down wait an organisation may choose (and a phone may report as `stillMinutes`). */
export const MAN_DOWN_MAX_MINUTES = 60;

/** Whether man-down is on for this policy: any number of minutes but 0. */
export const manDownOn = (policy: Pick<AlertPolicy, 'manDownMinutes'>): boolean =>
  policy.manDownMinutes > 0;

export type AlertPolicy = { -readonly [K in keyof typeof ALERT_POLICY_DEFAULTS]: number };

const minutes = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a number of minutes` })
    .int(`${field} must be a whole number of minutes`)
    .min(min, `${field} must be at least ${min} minutes`)
    .max(max, `${field} must be at most ${max} minutes`);

const count = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`);

/** Every field of the policy with its bounds (a recovery window longer than a day, a cap of 10,000: refused). */
export const alertPolicyFields = {
  recoveryMinutes: minutes('recoveryMinutes', 0, 1440),
  groupWindowMinutes: minutes('groupWindowMinutes', 0, 60),
  repeatIntervalMinutes: minutes('repeatIntervalMinutes', 1, 1440),
  smsPerHour: count('smsPerHour', 1, 60),
  callsPerHour: count('callsPerHour', 0, 20),
  siteHeatEnterMinutes: minutes('siteHeatEnterMinutes', 0, 240),
  siteHeatLeaveMinutes: minutes('siteHeatLeaveMinutes', 0, 240),
  siteHeatLeaveMargin: z
    .number({ error: 'siteHeatLeaveMargin must be a number of degrees' })
    .min(0, 'siteHeatLeaveMargin must be at least 0')
    .max(5, 'siteHeatLeaveMargin must be at most 5'),
  /**
   * 0 (off) or 1..60. At least a minute: the detector needs that long to tell stillness from a
   * pause (below it every coffee break would prompt). At most an hour: someone lying still for
   * longer than that has been without help too long for this to be a safety alarm.
   */
  manDownMinutes: minutes('manDownMinutes', 0, MAN_DOWN_MAX_MINUTES),
};

const unknownSetting = (issue: { code?: string; keys?: string[] }) =>
  issue.code === 'unrecognized_keys'
    ? `unknown setting ${(issue.keys ?? []).map((k) => JSON.stringify(k)).join(', ')}; the settings are ${Object.keys(alertPolicyFields).join(', ')}`
    : undefined;

/** A whole policy (the GET response, and what is stored). */
export const alertPolicy = z.strictObject(alertPolicyFields, { error: unknownSetting });

/** PATCH body: any subset of the fields; unknown keys refused (an unknown key alone is not also "empty"). */
export const alertPolicyPatch = z
  .strictObject(alertPolicyFields, { error: unknownSetting })
  .partial()
  .refine((p) => Object.keys(p).length > 0, {
    message: 'give at least one setting to change',
    when: (payload) => payload.issues.length === 0,
  });
export type AlertPolicyPatch = z.infer<typeof alertPolicyPatch>;

/**
 * A stored policy (jsonb, possibly written by an older version) completed with the defaults;
 * a field that is missing or out of bounds takes its default, so monitoring never stops over it.
 */
export function resolveAlertPolicy(raw: unknown): AlertPolicy {
  const out: AlertPolicy = { ...ALERT_POLICY_DEFAULTS };
  if (raw === null || typeof raw !== 'object') return out;
  for (const key of Object.keys(ALERT_POLICY_DEFAULTS) as (keyof AlertPolicy)[]) {
    const parsed = alertPolicyFields[key].safeParse((raw as Record<string, unknown>)[key]);
    if (parsed.success) out[key] = parsed.data;
  }
  return out;
}
