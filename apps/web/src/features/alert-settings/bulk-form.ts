import {
  type AlertSettingsPatch,
  DEFAULT_ALERT_SETTINGS,
  type WearerAlertSettings,
} from '@wearable/domain';
import type { FieldErrors } from '../../components/ui/field-message';
import { presetOf, type SchedulePreset } from '../../lib/schedule-presets';
import { formOf, type SettingsForm, validateForm } from './settings-form';

/** The parts of the settings a bulk change sets; the others stay as each wearer has them. */
export const BULK_PARTS = ['heartRate', 'types', 'schedule'] as const;
export type BulkPart = (typeof BULK_PARTS)[number];
export type BulkParts = Record<BulkPart, boolean>;

/** The most a bulk call takes (the contract's uids.max). */
export const BULK_MAX_WEARERS = 1000;

export const initialBulkForm = (): SettingsForm => formOf(structuredClone(DEFAULT_ALERT_SETTINGS));
export const noParts = (): BulkParts => ({ heartRate: false, types: false, schedule: false });

/**
 * The patch of the chosen parts, checked with the domain's PATCH schema (what the server applies), or the errors by
 * field. Nothing chosen is an error of its own ('parts').
 */
export function bulkPatchOf(
  form: SettingsForm,
  parts: BulkParts,
): { patch: AlertSettingsPatch; errors: null } | { patch: null; errors: FieldErrors } {
  if (!BULK_PARTS.some((p) => parts[p]))
    return { patch: null, errors: { parts: { key: 'bulk.errors.noParts' } } };
  // The parts not chosen keep the defaults (valid), so every error found is one of a chosen part.
  const checked = validateForm({ ...initialBulkForm(), ...pick(form, parts) });
  if (checked.errors) return { patch: null, errors: checked.errors };
  const full = checked.patch;
  const patch: AlertSettingsPatch = {};
  if (parts.heartRate)
    Object.assign(patch, {
      heartRateLower: full.heartRateLower,
      heartRateUpper: full.heartRateUpper,
    });
  if (parts.types) patch.enabled = full.enabled;
  if (parts.schedule) patch.schedule = full.schedule;
  return { patch, errors: null };
}

function pick(form: SettingsForm, parts: BulkParts): Partial<SettingsForm> {
  return {
    ...(parts.heartRate
      ? { heartRateLower: form.heartRateLower, heartRateUpper: form.heartRateUpper }
      : {}),
    ...(parts.types ? { enabled: form.enabled } : {}),
    ...(parts.schedule ? { schedule: form.schedule } : {}),
  };
}

/** One wearer's current settings in a line: bounds, alert types on, schedule preset (or custom). */
export function settingsDigest(w: WearerAlertSettings): {
  lower: number;
  upper: number;
  typesOn: number;
  typesAll: number;
  preset: SchedulePreset | 'custom';
} {
  const types = Object.values(w.settings.enabled);
  return {
    lower: w.settings.heartRateLower,
    upper: w.effectiveHeartRateUpper,
    typesOn: types.filter(Boolean).length,
    typesAll: types.length,
    preset: presetOf(w.settings.schedule) ?? 'custom',
  };
}
