import {
  type AlertPolicy,
  type AlertPolicyPatch,
  alertPolicy,
  alertPolicyFields,
} from '@wearable/domain';

export type PolicyKey = keyof AlertPolicy;

/** The policy's settings in the order the page shows them, under the four things they govern. */
export const POLICY_SECTIONS: {
  id: 'alerts' | 'notices' | 'siteHeat' | 'manDown';
  keys: PolicyKey[];
}[] = [
  { id: 'alerts', keys: ['recoveryMinutes'] },
  {
    id: 'notices',
    keys: ['groupWindowMinutes', 'repeatIntervalMinutes', 'smsPerHour', 'callsPerHour'],
  },
  { id: 'siteHeat', keys: ['siteHeatEnterMinutes', 'siteHeatLeaveMinutes', 'siteHeatLeaveMargin'] },
  { id: 'manDown', keys: ['manDownMinutes'] },
];

/** A setting whose 0 means "off" (shown as such, not as "0 min"). */
export const isOffAt0 = (key: PolicyKey): boolean => key === 'manDownMinutes';

/** The unit a setting is counted in (its translation key under `policy.units`). */
export const UNIT_OF: Record<PolicyKey, 'minutes' | 'messages' | 'calls' | 'degrees'> = {
  recoveryMinutes: 'minutes',
  groupWindowMinutes: 'minutes',
  repeatIntervalMinutes: 'minutes',
  smsPerHour: 'messages',
  callsPerHour: 'calls',
  siteHeatEnterMinutes: 'minutes',
  siteHeatLeaveMinutes: 'minutes',
  siteHeatLeaveMargin: 'degrees',
  manDownMinutes: 'minutes',
};

/** A setting's bounds as the domain's schema holds them (the server refuses the same). */
export const boundsOf = (key: PolicyKey) => {
  const field = alertPolicyFields[key];
  return { min: field.minValue ?? 0, max: field.maxValue ?? 0, whole: field.isInt };
};

/** What the form holds: each setting as typed. */
export type PolicyDraft = Record<PolicyKey, string>;

/** A field's problem as a translation key under `policy.errors` and its values. */
export interface PolicyProblem {
  key: 'required' | 'whole' | 'min' | 'max' | 'invalid';
  values?: Record<string, number>;
}

export const draftOf = (policy: AlertPolicy): PolicyDraft =>
  Object.fromEntries(Object.entries(policy).map(([k, v]) => [k, String(v)])) as PolicyDraft;

const numberOf = (text: string): number | undefined =>
  text.trim() === '' ? undefined : Number(text.trim());

/** The draft checked by the domain's schema: a problem per setting, none when all pass. */
export function checkPolicyDraft(draft: PolicyDraft): Partial<Record<PolicyKey, PolicyProblem>> {
  const values = Object.fromEntries(
    Object.entries(draft).map(([k, v]) => [k, numberOf(v)]),
  ) as Record<PolicyKey, number | undefined>;
  const parsed = alertPolicy.safeParse(values);
  if (parsed.success) return {};
  const problems: Partial<Record<PolicyKey, PolicyProblem>> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as PolicyKey;
    if (problems[key]) continue;
    if (values[key] === undefined) problems[key] = { key: 'required' };
    else if (issue.code === 'too_small')
      problems[key] = { key: 'min', values: { min: Number(issue.minimum) } };
    else if (issue.code === 'too_big')
      problems[key] = { key: 'max', values: { max: Number(issue.maximum) } };
    else if (issue.code === 'invalid_type' && issue.expected === 'int')
      problems[key] = { key: 'whole' };
    else problems[key] = { key: 'invalid' };
  }
  return problems;
}

/** The settings the draft changes from the stored policy (what a PATCH sends); empty when none. */
export function changedSettings(draft: PolicyDraft, stored: AlertPolicy): AlertPolicyPatch {
  const patch: AlertPolicyPatch = {};
  for (const key of Object.keys(stored) as PolicyKey[]) {
    const value = numberOf(draft[key]);
    if (value !== undefined && value !== stored[key]) patch[key] = value;
  }
  return patch;
}

/** The server's 400 issues (`body.smsPerHour: …`) by setting, to show each on its field. */
export function serverProblems(
  issues: readonly { path: string; message: string }[] | undefined,
): Partial<Record<PolicyKey, string>> {
  const out: Partial<Record<PolicyKey, string>> = {};
  for (const issue of issues ?? []) {
    const key = issue.path.split('.')[1] as PolicyKey | undefined;
    if (key && key in alertPolicyFields && !out[key]) out[key] = issue.message;
  }
  return out;
}
