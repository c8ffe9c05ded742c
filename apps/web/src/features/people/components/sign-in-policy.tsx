import { useId, useState } from 'react';
import type { SignInSettings } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { inputClass } from '../../../components/ui/form-parts';
import { QueryState } from '../../../components/ui/query-state';
import { useSaveSignInPolicy, useSignInSettings } from '../api/sign-in-policy-api';

/**
 * /settings, for the organisation's owner: staff must sign in with a second factor (a passkey or
 * TOTP), with a grace period to enrol (docs/decisions/0019). New sign-ins honour it; sessions
 * already open run to their end.
 */
export function SignInPolicy({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation();
  const settings = useSignInSettings(organizationId);
  return (
    <section
      aria-labelledby="sign-in-policy-heading"
      className="space-y-3"
      data-testid="sign-in-policy"
    >
      <h2 id="sign-in-policy-heading" className="text-lg font-semibold text-slate-900">
        {t('signInPolicy.title')}
      </h2>
      <p className="text-sm text-slate-600">{t('signInPolicy.lead')}</p>
      <QueryState
        isPending={settings.isPending}
        isError={settings.isError}
        isEmpty={false}
        labels={{
          loading: t('common.loading'),
          error: t('common.loadFailed'),
          empty: t('common.loadFailed'),
          retry: t('common.retry'),
        }}
        onRetry={() => void settings.refetch()}
      >
        {settings.data && (
          // Keyed by what is stored: the form starts again from it after a save or a refetch.
          <PolicyForm
            key={JSON.stringify(settings.data)}
            organizationId={organizationId}
            stored={settings.data}
          />
        )}
      </QueryState>
    </section>
  );
}

function PolicyForm({
  organizationId,
  stored,
}: {
  organizationId: string;
  stored: SignInSettings;
}) {
  const { t } = useTranslation();
  const save = useSaveSignInPolicy(organizationId);
  const [required, setRequired] = useState(stored.requireSecondFactor);
  const [graceDays, setGraceDays] = useState(String(stored.secondFactorGraceDays));
  const graceId = useId();
  const days = Number(graceDays);
  const daysValid = graceDays !== '' && Number.isInteger(days) && days >= 0 && days <= 90;
  const dirty = required !== stored.requireSecondFactor || days !== stored.secondFactorGraceDays;
  const submit = () => {
    if (!daysValid || !dirty || save.isPending) return;
    save.mutate(
      { requireSecondFactor: required, secondFactorGraceDays: days },
      {
        onSuccess: () => toast.success(t('signInPolicy.saved')),
        onError: () => toast.error(t('signInPolicy.saveFailed')),
      },
    );
  };
  return (
    <form
      className="grid gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          className="mt-1"
          checked={required}
          onChange={(e) => setRequired(e.target.checked)}
          data-testid="sign-in-policy-required"
        />
        <span>{t('signInPolicy.require')}</span>
      </label>
      <label htmlFor={graceId} className="block text-sm font-medium text-slate-700">
        {t('signInPolicy.graceDays')}
      </label>
      <input
        id={graceId}
        type="number"
        inputMode="numeric"
        min={0}
        max={90}
        value={graceDays}
        onChange={(e) => setGraceDays(e.target.value)}
        aria-invalid={!daysValid}
        aria-describedby={`${graceId}-hint`}
        className={`${inputClass} max-w-32`}
        data-testid="sign-in-policy-grace"
      />
      <p
        id={`${graceId}-hint`}
        className={`text-xs ${daysValid ? 'text-slate-600' : 'text-red-700'}`}
      >
        {daysValid ? t('signInPolicy.graceHint') : t('signInPolicy.graceInvalid')}
      </p>
      {stored.requireSecondFactor && stored.secondFactorGraceEndsAt && (
        <p className="text-sm text-slate-700" data-testid="sign-in-policy-ends">
          {t('signInPolicy.graceEnds')} <DateTime at={stored.secondFactorGraceEndsAt} />
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="submit"
          variant="primary"
          aria-disabled={!dirty || !daysValid || save.isPending}
          data-testid="sign-in-policy-save"
        >
          {save.isPending ? t('signInPolicy.saving') : t('signInPolicy.save')}
        </Button>
        {dirty && <span className="text-sm text-amber-800">{t('signInPolicy.unsaved')}</span>}
      </div>
    </form>
  );
}
