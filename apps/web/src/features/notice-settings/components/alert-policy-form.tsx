import type { AlertPolicyResponse } from '@wearable/domain';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button, focusRing } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { firstInvalidIn, useFocusAfterRender } from '../../../lib/use-focus-after-render';
import { useUpdateAlertPolicy } from '../api/update-alert-policy';
import {
  boundsOf,
  changedSettings,
  checkPolicyDraft,
  draftOf,
  type PolicyDraft,
  type PolicyKey,
  type PolicyProblem,
  POLICY_SECTIONS,
  serverProblems,
  UNIT_OF,
} from '../alert-policy-draft';

const inputClass = `min-h-11 w-32 rounded-md border bg-white px-3 text-base text-slate-900 ${focusRing}`;

/**
 * The owners' form of the notification timing and limits: every setting with its unit, range and
 * what it does; checked with the domain's schema before sending, and the server's refusal of a
 * setting shown on that setting. Only the changed settings are sent.
 */
export function AlertPolicyForm({
  stored,
  onDone,
}: {
  stored: AlertPolicyResponse;
  onDone: () => void;
}) {
  const { t } = useTranslation('staff-settings');
  const id = useId();
  const [draft, setDraft] = useState<PolicyDraft>(() => draftOf(stored.policy));
  const [problems, setProblems] = useState<Partial<Record<PolicyKey, PolicyProblem>>>({});
  const [refusals, setRefusals] = useState<Partial<Record<PolicyKey, string>>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const save = useUpdateAlertPolicy(stored.organizationId);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => form.current?.querySelector('input')?.focus(), []);
  const focusAfterRender = useFocusAfterRender();
  const focusInvalid = () => focusAfterRender(firstInvalidIn(form.current));

  const errorText = (key: PolicyKey) => {
    const problem = problems[key];
    if (problem) return t(`policy.errors.${problem.key}`, problem.values);
    return refusals[key];
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const found = checkPolicyDraft(draft);
    setProblems(found);
    setRefusals({});
    setRefusal(null);
    if (Object.keys(found).length > 0) return focusInvalid();
    const patch = changedSettings(draft, stored.policy);
    if (Object.keys(patch).length === 0) return onDone();
    save.mutate(patch, {
      onSuccess: () => {
        toast.success(t('policy.saved'));
        onDone();
      },
      onError: (error) => {
        const byField = error instanceof ApiError ? serverProblems(error.body?.issues) : {};
        setRefusals(byField);
        if (Object.keys(byField).length > 0) focusInvalid();
        else setRefusal(error.message);
      },
    });
  };

  return (
    <form
      ref={form}
      noValidate
      onSubmit={submit}
      className="grid gap-4"
      data-testid="alert-policy-form"
    >
      {POLICY_SECTIONS.map((section) => (
        <fieldset key={section.id} className="grid min-w-0 gap-3">
          <legend className="mb-1 text-base font-semibold text-slate-900">
            {t(`policy.sections.${section.id}`)}
          </legend>
          {section.keys.map((key) => {
            const { min, max, whole } = boundsOf(key);
            const error = errorText(key);
            const inputId = `${id}-${key}`;
            return (
              <div key={key} className="grid gap-1">
                <label htmlFor={inputId} className="text-sm font-medium text-slate-800">
                  {t(`policy.fields.${key}.label`)}
                </label>
                <div className="flex flex-wrap items-center gap-2">
                  <input
                    id={inputId}
                    type="number"
                    inputMode={whole ? 'numeric' : 'decimal'}
                    min={min}
                    max={max}
                    step={whole ? 1 : 0.1}
                    value={draft[key]}
                    onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
                    aria-invalid={error !== undefined}
                    aria-describedby={[`${inputId}-help`, error ? `${inputId}-error` : '']
                      .filter(Boolean)
                      .join(' ')}
                    className={`${inputClass} ${error ? 'border-red-600' : 'border-slate-300'}`}
                    data-testid={`alert-policy-input-${key}`}
                  />
                  <span className="text-sm text-slate-700">
                    {t(`policy.unitNames.${UNIT_OF[key]}`)}
                  </span>
                </div>
                <p id={`${inputId}-help`} className="text-sm break-words text-slate-600">
                  {t(`policy.fields.${key}.help`)} {t('policy.range', { min, max })}
                </p>
                {error && (
                  <p
                    id={`${inputId}-error`}
                    className="text-sm break-words text-red-700"
                    data-testid={`alert-policy-error-${key}`}
                  >
                    {error}
                  </p>
                )}
              </div>
            );
          })}
        </fieldset>
      ))}
      {refusal !== null && (
        <p
          role="alert"
          className="text-sm break-words text-red-700"
          data-testid="alert-policy-refusal"
        >
          {t('policy.saveFailed', { message: refusal })}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="primary"
          type="submit"
          aria-disabled={save.isPending}
          data-testid="alert-policy-save"
        >
          {save.isPending ? t('policy.saving') : t('policy.save')}
        </Button>
        <Button variant="outline" onClick={onDone} data-testid="alert-policy-cancel">
          {t('policy.cancel')}
        </Button>
      </div>
    </form>
  );
}
