import { type SetupProgress, type SetupStep } from '@wearable/domain';
import { CheckCircle2, Circle } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button, focusRing } from '../../../components/ui/button';
import { FormFailure, inputClass } from '../../../components/ui/form-parts';
import { PageHeading } from '../../../components/ui/page-heading';
import { QueryState } from '../../../components/ui/query-state';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { AppLink } from '../../../lib/app-path';
import { useCurrentUser } from '../../../lib/current-user';
import { useCan } from '../../../lib/use-can';
import { useSetupProgress, useSetupWearers } from '../api/get-setup';
import { useSendTestAlert } from '../api/send-test-alert';

/** The page that does each step (the checklist links there). */
const STEP_PAGE: Record<Exclude<SetupStep, 'testAlert'>, string> = {
  groups: paths.settings.groups.build(),
  gateways: paths.settings.gateways.build(),
  bracelets: paths.devices.list.build(),
  // ?add=1 opens the form that adds one (as 装着者を追加 on /devices does).
  wearers: `${paths.members.build()}?add=1`,
  pairing: paths.devices.list.build(),
  recipients: paths.groups.list.build(),
};

/**
 * /setup (issue 35): a new organisation's checklist, groups -> gateways -> bracelets -> wearers ->
 * pairing -> notice recipients -> a confirmed test alert. The server computes each step from the
 * organisation's data, so it is done the moment the page that does it has done it.
 */
export function SetupPage() {
  const { t } = useTranslation('setup');
  const user = useCurrentUser();
  const [search] = useSearchParams();
  const clientId = search.get('clientId') ?? user?.mediromOrganizationId ?? null;
  const progress = useSetupProgress(clientId);

  return (
    <section className="max-w-3xl">
      <PageHeading>{t('title')}</PageHeading>
      {clientId === null ? (
        <p data-testid="setup-no-organization" className="text-sm text-slate-700">
          {t('noOrganization')}{' '}
          <AppLink
            to={paths.organizations.list.build()}
            className={`text-teal-700 underline ${focusRing}`}
          >
            {t('toOrganizations')}
          </AppLink>
        </p>
      ) : (
        <QueryState
          isPending={progress.isPending}
          isError={progress.isError}
          isEmpty={false}
          labels={{
            loading: t('loading'),
            error: t('loadFailed'),
            empty: '',
            retry: t('retry'),
          }}
          onRetry={() => void progress.refetch()}
        >
          {progress.data && <Checklist progress={progress.data} />}
        </QueryState>
      )}
    </section>
  );
}

/**
 * Where the pairing step leads: the bracelet page of the first wearer without one, where pairing
 * starts (the user list itself cannot pair); the user list once everyone has a bracelet.
 */
function usePairingLink(progress: SetupProgress): { to: string; name: string | null } {
  const haveWearers = progress.steps.some((s) => s.step === 'wearers' && s.done);
  const wearers = useSetupWearers(progress.clientId, haveWearers);
  const unpaired = wearers.data?.find((w) => w.serialNumber === null);
  return unpaired
    ? {
        to: paths.device.setting.build({ clientId: progress.clientId, uid: unpaired.uid }),
        name: unpaired.name,
      }
    : { to: STEP_PAGE.pairing, name: null };
}

function Checklist({ progress }: { progress: SetupProgress }) {
  const { t } = useTranslation('setup');
  const pairing = usePairingLink(progress);
  const doneCount = progress.steps.filter((s) => s.done).length;
  // The first step not done yet is the one to do next.
  const next = progress.steps.find((s) => !s.done)?.step ?? null;
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700" data-testid="setup-lead">
        {t('lead', { name: progress.name, kind: t(`kinds.${progress.kind}`) })}
      </p>
      <p
        role="status"
        data-testid="setup-progress"
        className={
          progress.done
            ? 'rounded-md bg-teal-50 px-3 py-2 text-sm font-medium text-teal-900'
            : 'text-sm font-medium text-slate-800'
        }
      >
        {progress.done
          ? t('allDone')
          : t('progress', { done: doneCount, total: progress.steps.length })}
      </p>
      <ol className="space-y-3" data-testid="setup-steps">
        {progress.steps.map((s, index) => (
          <li
            key={s.step}
            data-testid={`setup-step-${s.step}`}
            data-done={s.done}
            className={`rounded-lg border bg-white p-4 ${
              s.step === next ? 'border-teal-600' : 'border-slate-200'
            }`}
          >
            <div className="flex items-start gap-3">
              {s.done ? (
                <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-teal-700" />
              ) : (
                <Circle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-slate-400" />
              )}
              <div className="min-w-0 flex-1">
                <h2 className="text-base font-semibold text-slate-900">
                  {index + 1}. {t(`steps.${s.step}.title`)}
                  <span className="sr-only"> ({s.done ? t('stateDone') : t('stateNotDone')})</span>
                </h2>
                <p className="mt-1 text-sm text-slate-700">{t(`steps.${s.step}.body`)}</p>
                {s.step !== 'testAlert' && (
                  <p className="mt-1 text-sm text-slate-600">
                    {t(`steps.${s.step}.count`, { count: s.count })}
                  </p>
                )}
                {s.step === 'testAlert' ? (
                  <TestAlertStep progress={progress} />
                ) : (
                  <AppLink
                    to={s.step === 'pairing' ? pairing.to : STEP_PAGE[s.step]}
                    data-testid={`setup-link-${s.step}`}
                    className={`mt-2 inline-block text-sm font-medium text-teal-700 underline-offset-4 hover:underline ${focusRing}`}
                  >
                    {s.step === 'pairing' && pairing.name !== null
                      ? t('steps.pairing.linkWearer', { name: pairing.name })
                      : t(`steps.${s.step}.link`)}
                  </AppLink>
                )}
              </div>
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** The last step: choose a wearer, send a marked test SOS, then confirm it like any alert. */
function TestAlertStep({ progress }: { progress: SetupProgress }) {
  const { t } = useTranslation('setup');
  const clientId = progress.clientId;
  const mayTest = useCan('alert:test', { organizationId: clientId });
  const ready = progress.steps.some((s) => s.step === 'wearers' && s.done);
  const wearers = useSetupWearers(clientId, mayTest && ready);
  const send = useSendTestAlert(clientId);
  const [chosen, setChosen] = useState('');
  const last = progress.lastTestAlert;
  const uid = chosen || wearers.data?.[0]?.uid || '';

  return (
    <div className="mt-2 space-y-2">
      {last && (
        <p className="text-sm text-slate-700" data-testid="setup-last-test">
          {t(last.confirmed ? 'testAlert.confirmed' : 'testAlert.waiting', {
            count: last.noticesSent,
          })}{' '}
          {!last.confirmed && (
            <AppLink
              to={paths.device.alertHistories.build({ clientId, uid: last.wearerId })}
              className={`font-medium text-teal-700 underline ${focusRing}`}
              data-testid="setup-confirm-link"
            >
              {t('testAlert.toConfirm')}
            </AppLink>
          )}
        </p>
      )}
      {!mayTest ? (
        <p className="text-sm text-slate-600">{t('testAlert.notAllowed')}</p>
      ) : !ready ? (
        <p className="text-sm text-slate-600">{t('testAlert.needWearer')}</p>
      ) : (
        <form
          className="flex flex-col gap-2 sm:flex-row sm:items-end"
          onSubmit={(event) => {
            event.preventDefault();
            if (uid) send.mutate(uid);
          }}
        >
          <label className="block min-w-0 flex-1 text-sm font-medium text-slate-700">
            {t('testAlert.wearer')}
            <select
              value={uid}
              onChange={(e) => setChosen(e.target.value)}
              className={inputClass}
              data-testid="setup-test-wearer"
            >
              {(wearers.data ?? []).map((w) => (
                <option key={w.uid} value={w.uid}>
                  {w.name}
                </option>
              ))}
            </select>
          </label>
          <Button
            type="submit"
            variant="primary"
            disabled={!uid || send.isPending}
            data-testid="setup-send-test"
          >
            {t('testAlert.send')}
          </Button>
        </form>
      )}
      {send.isSuccess && (
        <p role="status" className="text-sm text-teal-900" data-testid="setup-test-sent">
          {t('testAlert.sent')}
        </p>
      )}
      {send.error instanceof ApiError && send.error.body?.code === 'ALERT_ALREADY_OPEN' ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {t('testAlert.alreadyOpen')}
        </p>
      ) : (
        <FormFailure error={send.error} />
      )}
    </div>
  );
}
