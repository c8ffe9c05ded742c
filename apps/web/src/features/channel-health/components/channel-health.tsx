import type { ChannelHealthView } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../../components/ui/date-time';
import { QueryState } from '../../../components/ui/query-state';
import { useChannelHealth } from '../api/get-channel-health';

type State = 'failing' | 'failed' | 'ok' | 'unused';

/** failing: every attempt failed for the threshold; failed: the last attempt failed, not long yet. */
const stateOf = (c: ChannelHealthView): State =>
  c.failing ? 'failing' : c.failingSince ? 'failed' : c.lastDeliveredAt ? 'ok' : 'unused';

const STATE_CLASS: Record<State, string> = {
  failing: 'text-red-800',
  failed: 'text-amber-800',
  ok: 'text-teal-800',
  unused: 'text-slate-600',
};

/**
 * /settings: each channel alerts leave by (SMS, calls, mail, each webhook, and any channel added
 * later) with its last delivery, last failure and the reason (issue 38 item 4). A channel failing
 * for the threshold is said at the top, and whether its owners were told by another channel.
 */
export function ChannelHealth({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation();
  const health = useChannelHealth(organizationId);
  const channels = health.data?.channels ?? [];
  const failing = channels.filter((c) => c.failing);
  return (
    <section
      aria-labelledby="channel-health-heading"
      className="space-y-3"
      data-testid="channel-health"
    >
      <h2 id="channel-health-heading" className="text-lg font-semibold text-slate-900">
        {t('channelHealth.title')}
      </h2>
      <p className="text-sm text-slate-600">
        {t('channelHealth.lead', { minutes: health.data?.failingAfterMinutes ?? 10 })}
      </p>
      <QueryState
        isPending={health.isPending}
        isError={health.isError}
        isEmpty={false}
        labels={{
          loading: t('common.loading'),
          error: t('common.loadFailed'),
          empty: t('common.loadFailed'),
          retry: t('common.retry'),
        }}
        onRetry={() => void health.refetch()}
      >
        {failing.length > 0 && (
          <p
            role="status"
            className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm font-medium text-red-800"
            data-testid="channel-health-failing"
          >
            {t('channelHealth.failingBanner', {
              channels: failing.map((c) => nameOf(t, c)).join(t('channelHealth.separator')),
            })}
          </p>
        )}
        <ul className="grid gap-3 lg:grid-cols-2" aria-label={t('channelHealth.listLabel')}>
          {channels.map((c) => (
            <ChannelCard key={c.webhookId ?? c.channel} channel={c} />
          ))}
        </ul>
      </QueryState>
    </section>
  );
}

type T = ReturnType<typeof useTranslation>['t'];

/** The channel's word (a channel without one in the locales is shown by its code), a webhook's name after it. */
function nameOf(t: T, c: ChannelHealthView): string {
  const name = t(`channelHealth.channels.${c.channel}`, { defaultValue: c.channel });
  return c.label ? `${name} (${c.label})` : name;
}

function When({ at }: { at: string | null }) {
  const { t } = useTranslation();
  return at ? <DateTime at={at} /> : <>{t('channelHealth.never')}</>;
}

function ChannelCard({ channel: c }: { channel: ChannelHealthView }) {
  const { t } = useTranslation();
  const state = stateOf(c);
  return (
    <li
      className={`rounded-lg border p-3 ${state === 'failing' ? 'border-red-300 bg-red-50' : 'border-slate-200 bg-white'}`}
      data-testid="channel-health-channel"
      data-channel={c.channel}
      data-state={state}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h3 className="text-base font-semibold break-all text-slate-900">{nameOf(t, c)}</h3>
        <p className={`text-sm font-medium ${STATE_CLASS[state]}`}>
          {t(`channelHealth.state.${state}`)}
          {!c.enabled && ` · ${t('channelHealth.disabled')}`}
        </p>
      </div>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600">{t('channelHealth.lastDelivered')}</dt>
        <dd className="text-slate-900">
          <When at={c.lastDeliveredAt} />
        </dd>
        <dt className="text-slate-600">{t('channelHealth.lastFailed')}</dt>
        <dd className="text-slate-900">
          <When at={c.lastFailedAt} />
        </dd>
        {c.lastFailureReason && (
          <>
            <dt className="text-slate-600">{t('channelHealth.reason')}</dt>
            <dd className="break-words text-slate-900">{c.lastFailureReason}</dd>
          </>
        )}
        {c.failingSince && (
          <>
            <dt className="text-slate-600">{t('channelHealth.failingSince')}</dt>
            <dd className="text-slate-900">
              <DateTime at={c.failingSince} />
            </dd>
          </>
        )}
      </dl>
      {c.noticedAt && (
        <p className="mt-2 text-sm text-red-800">
          {t('channelHealth.noticed')} <DateTime at={c.noticedAt} />
        </p>
      )}
    </li>
  );
}
