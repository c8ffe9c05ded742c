import {
  ALERT_POLICY_DEFAULTS,
  alertPolicyFields,
  alertSettings,
  resolveAlertSettings,
  type AlertSettingsInput,
  type ResolvedAlertSettings,
} from '@wearable/domain';
import type { WearerProfile } from './types.js';

/**
 * Stored settings were validated by the API, but a bad or outdated field must not stop
 * monitoring: each top-level field that fails validation falls back to its default, the rest
 * is kept.
 */
export function usableSettings(raw: unknown): AlertSettingsInput {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return {};
  let candidate: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (let attempt = 0; attempt < 3; attempt++) {
    const parsed = alertSettings.safeParse(candidate);
    if (parsed.success) return parsed.data;
    const bad = new Set(parsed.error.issues.map((i) => String(i.path[0] ?? '')));
    // Unknown keys are reported on the object itself with their names in `keys`.
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') issue.keys.forEach((k) => bad.add(k));
    }
    candidate = Object.fromEntries(Object.entries(candidate).filter(([k]) => !bad.has(k)));
  }
  return {};
}

// Settings objects are reused across steps of a batch: resolve each (object, age) once.
// The runner treats a loaded settings object as immutable (a change is a new object). A memo of a
// pure function keyed by those objects, not app state: it needs no context field and no closing.
const cache = new WeakMap<object, Map<number | null, ResolvedAlertSettings>>();

/** The wearer's settings as the rules use them (defaults completed, upper bound resolved). */
export function settingsOf(profile: WearerProfile): ResolvedAlertSettings {
  const raw = profile.settings;
  const key = raw !== null && typeof raw === 'object' ? raw : null;
  const hit = key ? cache.get(key)?.get(profile.age) : undefined;
  if (hit) return hit;
  const resolved = resolveAlertSettings(usableSettings(raw), profile.age);
  if (key) {
    const byAge = cache.get(key) ?? new Map<number | null, ResolvedAlertSettings>();
    byAge.set(profile.age, resolved);
    cache.set(key, byAge);
  }
  return resolved;
}

/** The organisation's recovery window from its stored policy field, as resolveAlertPolicy reads it. */
export function recoveryMinutesOf(stored: unknown): number {
  const parsed = alertPolicyFields.recoveryMinutes.safeParse(stored);
  return parsed.success ? parsed.data : ALERT_POLICY_DEFAULTS.recoveryMinutes;
}
