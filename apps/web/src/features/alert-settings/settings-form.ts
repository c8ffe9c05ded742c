import {
  ALERT_TYPES,
  type AlertSettings,
  type AlertSettingsPatch,
  type AlertType,
  alertSettingsPatch,
  HEART_RATE_LOWER_BOUND,
  HEART_RATE_UPPER_BOUND,
  type WeeklySchedule,
} from '@wearable/domain';
import type { FieldError, FieldErrors } from '../../components/ui/field-message';

/** What the form edits; the bounds stay text while typed ('' upper = the wearer's maximum heart rate). */
export interface SettingsForm {
  heartRateLower: string;
  heartRateUpper: string;
  enabled: Record<AlertType, boolean>;
  schedule: WeeklySchedule;
}

const copySchedule = (s: WeeklySchedule): WeeklySchedule => structuredClone(s);

export function formOf(settings: AlertSettings): SettingsForm {
  return {
    heartRateLower: String(settings.heartRateLower),
    heartRateUpper: settings.heartRateUpper === null ? '' : String(settings.heartRateUpper),
    enabled: { ...settings.enabled },
    schedule: copySchedule(settings.schedule),
  };
}

const toNumber = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text.trim()));

/** Turns one zod issue of the domain schema into the translated message of its field. */
function errorOf(path: string, code: string): FieldError {
  if (path === 'heartRateUpper' && code === 'custom')
    return { key: 'settings.errors.upperAboveLower' };
  if (path === 'heartRateLower' || path === 'heartRateUpper') {
    return {
      key: 'settings.errors.heartRateRange',
      values: { min: HEART_RATE_LOWER_BOUND, max: HEART_RATE_UPPER_BOUND },
    };
  }
  if (/^schedule\.\w+\.(startTime|endTime)$/.test(path)) return { key: 'settings.errors.time' };
  return { key: 'settings.errors.invalid' };
}

/**
 * Checks the form with the domain's PATCH schema (the one the server uses) and returns either
 * the patch to send or the errors by field path ("heartRateLower", "schedule.monday.startTime").
 */
export function validateForm(
  form: SettingsForm,
): { patch: AlertSettingsPatch; errors: null } | { patch: null; errors: FieldErrors } {
  const candidate = {
    heartRateLower: toNumber(form.heartRateLower),
    heartRateUpper: form.heartRateUpper.trim() === '' ? null : toNumber(form.heartRateUpper),
    enabled: form.enabled,
    schedule: form.schedule,
  };
  const parsed = alertSettingsPatch.safeParse(candidate);
  if (parsed.success) return { patch: parsed.data, errors: null };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String).join('.');
    errors[path] ??= errorOf(path, issue.code);
  }
  return { patch: null, errors };
}

export const ALL_ALERT_TYPES: readonly AlertType[] = ALERT_TYPES;
