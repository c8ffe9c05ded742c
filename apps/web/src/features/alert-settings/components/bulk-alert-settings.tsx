import { clsx } from 'clsx';
import {
  HEART_RATE_LOWER_BOUND,
  HEART_RATE_UPPER_BOUND,
  type AlertSettingsBulkBody,
  type WearerAlertSettings,
} from '@wearable/domain';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { AlertTypeChoice } from '../../../components/ui/alert-type-choice';
import { Button, focusRing } from '../../../components/ui/button';
import { QueryState } from '../../../components/ui/query-state';
import { ApiError } from '../../../lib/api-client';
import { useCan } from '../../../lib/use-can';
import { type AlertSettingsScope, useAlertSettingsList } from '../api/list-alert-settings';
import { usePreviewBulkAlertSettings } from '../api/preview-bulk-alert-settings';
import { useSaveBulkAlertSettings } from '../api/save-bulk-alert-settings';
import {
  BULK_MAX_WEARERS,
  BULK_PARTS,
  type BulkPart,
  bulkPatchOf,
  initialBulkForm,
  noParts,
  settingsDigest,
} from '../bulk-form';
import type { FieldErrors } from '../../../components/ui/field-message';
import { ALL_ALERT_TYPES, type SettingsForm } from '../settings-form';
import { FieldMessage, inputClass } from '../../../components/ui/field-message';
import { ScheduleEditor } from '../../../components/ui/schedule-editor';
import { firstInvalidIn, useFocusAfterRender } from '../../../lib/use-focus-after-render';

type TypeLabel = (type: (typeof ALL_ALERT_TYPES)[number]) => string;

/**
 * Bulk alert settings of an organisation's or a group's wearers: pick the parts to set, the wearers, see how many
 * would change (the server's preview, nothing written), then apply (one all-or-nothing call).
 */
export function BulkAlertSettings({
  scope,
  typeLabel,
}: {
  scope: AlertSettingsScope;
  typeLabel: TypeLabel;
}) {
  const { t } = useTranslation(['staff-settings', 'common']);
  const list = useAlertSettingsList(scope);
  const rows = list.data ?? [];
  return (
    <QueryState
      isPending={list.isPending}
      isError={list.isError}
      isEmpty={rows.length === 0}
      labels={{
        loading: t('common:common.loading'),
        error: t('common:common.loadFailed'),
        empty: t('bulk.empty'),
        retry: t('common:common.retry'),
      }}
      onRetry={() => void list.refetch()}
    >
      {scope.groupId !== undefined && rows[0]?.groupName && (
        <p className="mb-4 text-base font-medium text-slate-800" data-testid="bulk-group-name">
          {t('bulk.groupLine', { name: rows[0].groupName })}
        </p>
      )}
      {rows.length > 0 && <BulkEditor rows={rows} typeLabel={typeLabel} />}
    </QueryState>
  );
}

function BulkEditor({ rows, typeLabel }: { rows: WearerAlertSettings[]; typeLabel: TypeLabel }) {
  const { t } = useTranslation(['staff-settings', 'records']);
  const clientId = rows[0]!.clientId;
  const mayChange = useCan('alertSettings:update', { organizationId: clientId });
  const [form, setForm] = useState<SettingsForm>(initialBulkForm);
  const [parts, setParts] = useState(noParts);
  const [excluded, setExcluded] = useState<ReadonlySet<string>>(new Set());
  const [errors, setErrors] = useState<FieldErrors>({});
  const preview = usePreviewBulkAlertSettings(clientId);
  const save = useSaveBulkAlertSettings(clientId);
  const focusAfterRender = useFocusAfterRender();
  const [previewed, setPreviewed] = useState<{ key: string; body: AlertSettingsBulkBody } | null>(
    null,
  );
  const selected = rows.filter((r) => !excluded.has(r.uid));
  const names = useMemo(() => new Map(rows.map((r) => [r.uid, r.name])), [rows]);

  // The preview answers for exactly one body: any edit afterwards asks for a new one.
  const draftKey = JSON.stringify({ form, parts, excluded: [...excluded].sort() });
  const current = previewed?.key === draftKey ? previewed : null;
  const tooMany = selected.length > BULK_MAX_WEARERS;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (preview.isPending) return;
    const result = bulkPatchOf(form, parts);
    if (result.errors) {
      setErrors(result.errors);
      toast.error(t('records:settings.invalid'));
      focusAfterRender(firstInvalidIn(event.currentTarget));
      return;
    }
    setErrors({});
    if (selected.length === 0 || tooMany) return;
    const body: AlertSettingsBulkBody = {
      uids: selected.map((r) => r.uid),
      settings: result.patch,
    };
    preview.mutate(body, {
      onSuccess: () => {
        setPreviewed({ key: draftKey, body });
        focusAfterRender('bulk-preview');
      },
    });
  };

  const apply = () => {
    if (!current || save.isPending) return;
    save.mutate(current.body, {
      onSuccess: (saved) => {
        toast.success(t('bulk.saved', { count: saved.length }));
        setPreviewed(null);
        focusAfterRender('bulk-preview-submit');
      },
      onError: () => toast.error(t('records:settings.saveFailed')),
    });
  };

  const togglePart = (part: BulkPart, on: boolean) => setParts({ ...parts, [part]: on });

  return (
    <form noValidate onSubmit={submit} data-testid="bulk-alert-settings" className="grid gap-6">
      <p className="max-w-3xl text-sm text-slate-700">{t('bulk.intro')}</p>
      {!mayChange && (
        <p
          role="status"
          data-testid="bulk-read-only"
          className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
        >
          {t('bulk.readOnly')}
        </p>
      )}
      {/* Wide screens: what changes beside whom it changes for. */}
      <div className={clsx('grid items-start gap-6', mayChange && 'lg:grid-cols-2')}>
        <div className="grid min-w-0 gap-6 empty:hidden">
          {mayChange && (
            <fieldset
              className="rounded-lg border border-slate-200 bg-white p-4"
              aria-describedby={errors.parts ? 'bulk-parts-error' : undefined}
            >
              <legend className="px-1 text-base font-semibold text-slate-900">
                {t('bulk.partsTitle')}
              </legend>
              <p className="mb-3 text-sm text-slate-600">{t('bulk.partsHelp')}</p>
              <div className="flex flex-col gap-2">
                {BULK_PARTS.map((part) => (
                  <label
                    key={part}
                    className="flex min-h-11 items-center gap-3 text-sm text-slate-800"
                  >
                    <input
                      type="checkbox"
                      data-testid={`bulk-part-${part}`}
                      checked={parts[part]}
                      aria-invalid={errors.parts !== undefined}
                      onChange={(e) => togglePart(part, e.target.checked)}
                      className={`size-5 accent-teal-700 ${focusRing}`}
                    />
                    {t(`bulk.parts.${part}`)}
                  </label>
                ))}
              </div>
              <FieldMessage
                id="bulk-parts-error"
                error={
                  errors.parts === undefined
                    ? undefined
                    : { key: `staff-settings:${errors.parts.key}` }
                }
              />
            </fieldset>
          )}
          {mayChange && parts.heartRate && (
            <HeartRateBounds form={form} errors={errors} onChange={setForm} />
          )}
          {mayChange && parts.types && (
            <fieldset className="rounded-lg border border-slate-200 bg-white p-4">
              <legend className="px-1 text-base font-semibold text-slate-900">
                {t('records:settings.types')}
              </legend>
              <div className="grid gap-2 sm:grid-cols-2">
                {ALL_ALERT_TYPES.map((type) => (
                  <AlertTypeChoice
                    key={type}

                    type={type}

                    label={typeLabel(type)}

                    checked={form.enabled[type]}

                    onChange={(on) =>
                      setForm({ ...form, enabled: { ...form.enabled, [type]: on } })
                    }

                    testId={`bulk-type-${type}`}
                  />
                ))}
              </div>
            </fieldset>
          )}
          {mayChange && parts.schedule && (
            <ScheduleEditor
              schedule={form.schedule}
              errors={errors}
              readOnly={false}
              onChange={(schedule) => setForm({ ...form, schedule })}
            />
          )}
        </div>
        <div className="min-w-0">
          <WearerChoice
            rows={rows}
            excluded={excluded}
            selectable={mayChange}
            onChange={setExcluded}
          />
        </div>
      </div>
      {mayChange && (
        <div className="grid gap-3">
          {tooMany && (
            <p role="alert" className="text-sm text-red-700" data-testid="bulk-too-many">
              {t('bulk.tooMany', { max: BULK_MAX_WEARERS })}
            </p>
          )}
          <div>
            <Button
              id="bulk-preview-submit"
              type="submit"
              variant="outline"
              data-testid="bulk-preview-submit"
              aria-disabled={preview.isPending || selected.length === 0 || tooMany}
            >
              {preview.isPending
                ? t('bulk.previewing')
                : t('bulk.preview', { count: selected.length })}
            </Button>
          </div>
          <ServerRefusal error={preview.error ?? save.error} />
          {current && preview.data && (
            <div
              id="bulk-preview"
              tabIndex={-1}
              role="status"
              data-testid="bulk-preview"
              className="rounded-lg border border-teal-300 bg-teal-50 p-4 text-sm text-slate-900 focus:outline-none"
            >
              <p className="font-medium" data-testid="bulk-preview-count">
                {t('bulk.previewResult', {
                  changed: preview.data.changed,
                  total: current.body.uids.length,
                  unchanged: preview.data.unchanged,
                })}
              </p>
              {preview.data.changed > 0 && (
                <details className="mt-2">
                  <summary className={`cursor-pointer text-teal-800 ${focusRing}`}>
                    {t('bulk.changedNames')}
                  </summary>
                  <ul className="mt-2 list-disc pl-5" data-testid="bulk-preview-names">
                    {preview.data.changedUids.map((uid) => (
                      <li key={uid} className="break-words">
                        {names.get(uid) ?? uid}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
              <div className="mt-3 flex flex-wrap gap-2">
                <Button
                  variant="primary"
                  onClick={apply}
                  aria-disabled={save.isPending || preview.data.changed === 0}
                  data-testid="bulk-apply"
                >
                  {save.isPending
                    ? t('records:settings.saving')
                    : t('bulk.apply', { count: preview.data.changed })}
                </Button>
              </div>
            </div>
          )}
        </div>
      )}
    </form>
  );
}

function HeartRateBounds({
  form,
  errors,
  onChange,
}: {
  form: SettingsForm;
  errors: FieldErrors;
  onChange: (form: SettingsForm) => void;
}) {
  const { t } = useTranslation(['staff-settings', 'records']);
  return (
    <fieldset className="rounded-lg border border-slate-200 bg-white p-4">
      <legend className="px-1 text-base font-semibold text-slate-900">
        {t('records:settings.heartRate')}
      </legend>
      <div className="flex flex-wrap gap-6">
        {(['heartRateLower', 'heartRateUpper'] as const).map((field) => {
          const error = errors[field];
          const id = `bulk-${field}`;
          return (
            <div key={field} className="flex flex-col">
              <label htmlFor={id} className="mb-1 text-sm font-medium text-slate-800">
                {t(`records:settings.${field}`)}
              </label>
              <input
                id={id}
                data-testid={id}
                type="number"
                inputMode="numeric"
                min={HEART_RATE_LOWER_BOUND}
                max={HEART_RATE_UPPER_BOUND}
                value={form[field]}
                aria-invalid={error !== undefined}
                aria-describedby={[`${id}-help`, error ? `${id}-error` : '']
                  .filter(Boolean)
                  .join(' ')}
                onChange={(e) => onChange({ ...form, [field]: e.target.value })}
                className={inputClass(error !== undefined, 'w-36')}
              />
              <p id={`${id}-help`} className="mt-1 max-w-xs text-xs text-slate-600">
                {t(field === 'heartRateLower' ? 'bulk.lowerHelp' : 'bulk.upperHelp', {
                  min: HEART_RATE_LOWER_BOUND,
                  max: HEART_RATE_UPPER_BOUND,
                })}
              </p>
              <FieldMessage id={`${id}-error`} error={error} />
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}

/** The wearers the change goes to: all by default; each row says what the wearer has now. */
function WearerChoice({
  rows,
  excluded,
  selectable,
  onChange,
}: {
  rows: WearerAlertSettings[];
  excluded: ReadonlySet<string>;
  selectable: boolean;
  onChange: (excluded: ReadonlySet<string>) => void;
}) {
  const { t } = useTranslation(['staff-settings', 'records']);
  const headingId = useId();
  const allOn = excluded.size === 0;
  const toggle = (uid: string, on: boolean) => {
    const next = new Set(excluded);
    if (on) next.delete(uid);
    else next.add(uid);
    onChange(next);
  };
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id={headingId} className="text-base font-semibold text-slate-900">
        {selectable
          ? t('bulk.wearersTitle', { selected: rows.length - excluded.size, total: rows.length })
          : t('bulk.wearersNow')}
      </h2>
      {selectable && (
        <label className="mt-2 flex min-h-11 items-center gap-3 text-sm font-medium text-slate-800">
          <input
            type="checkbox"
            data-testid="bulk-select-all"
            checked={allOn}
            ref={(el) => {
              if (el) el.indeterminate = !allOn && excluded.size < rows.length;
            }}
            onChange={(e) =>
              onChange(e.target.checked ? new Set() : new Set(rows.map((r) => r.uid)))
            }
            className={`size-5 accent-teal-700 ${focusRing}`}
          />
          {t('bulk.selectAll')}
        </label>
      )}
      <ul className="mt-2 divide-y divide-slate-100" data-testid="bulk-wearers">
        {rows.map((row) => {
          const d = settingsDigest(row);
          const digest = t('bulk.digest', {
            lower: d.lower,
            upper: d.upper,
            on: d.typesOn,
            all: d.typesAll,
            schedule:
              d.preset === 'custom'
                ? t('bulk.customSchedule')
                : t(`records:settings.schedule.preset.${d.preset}`),
          });
          const body = (
            <span className="min-w-0">
              <span className="block font-medium break-words text-slate-900">
                {row.name}
                {row.groupName && (
                  <span className="ml-2 text-xs font-normal text-slate-600">{row.groupName}</span>
                )}
              </span>
              <span className="block text-xs break-words text-slate-600">{digest}</span>
            </span>
          );
          return (
            <li key={row.uid} data-testid="bulk-wearer" className="py-1">
              {selectable ? (
                <label className="flex min-h-11 items-center gap-3 text-sm">
                  <input
                    type="checkbox"
                    data-testid={`bulk-wearer-${row.uid}`}
                    checked={!excluded.has(row.uid)}
                    onChange={(e) => toggle(row.uid, e.target.checked)}
                    className={`size-5 shrink-0 accent-teal-700 ${focusRing}`}
                  />
                  {body}
                </label>
              ) : (
                <div className="py-2 text-sm">{body}</div>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The server's refusal (a wearer whose merged settings would be invalid names that wearer). */
function ServerRefusal({ error }: { error: Error | null }) {
  const { t } = useTranslation('staff-settings');
  if (error === null) return null;
  const message =
    error instanceof ApiError ? (error.body?.message ?? error.message) : error.message;
  return (
    <p
      role="alert"
      data-testid="bulk-refusal"
      className="rounded-md bg-red-50 px-3 py-2 text-sm break-words text-red-800"
    >
      {t('bulk.refused', { message })}
    </p>
  );
}
