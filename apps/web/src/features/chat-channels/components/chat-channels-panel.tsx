import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type ChatChannelBody,
  type ChatChannelView,
  CONFIGURABLE_CHANNELS,
  type ConfigurableChannel,
} from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { useCan } from '../../../lib/use-can';
import {
  useRemoveChatChannel,
  useSaveChatChannel,
  useTestChatChannel,
} from '../api/change-chat-channels';
import { useChatChannels } from '../api/get-chat-channels';

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-sky-600 focus:outline-none focus:ring-2 focus:ring-sky-600';
const messageOf = (err: unknown) =>
  err instanceof ApiError ? (err.body?.message ?? err.message) : String(err);

interface Field {
  name: string;
  secret?: boolean;
  multiline?: boolean;
}
/** What each service asks for (secrets are never shown again: their last four characters only). */
const FIELDS: Record<ConfigurableChannel, Field[]> = {
  SLACK: [
    { name: 'webhookUrl', secret: true },
    { name: 'botToken', secret: true },
    { name: 'channelId' },
    { name: 'signingSecret', secret: true },
  ],
  TEAMS: [{ name: 'webhookUrl', secret: true }],
  LINE_WORKS: [
    { name: 'clientId' },
    { name: 'clientSecret', secret: true },
    { name: 'serviceAccount' },
    { name: 'privateKey', secret: true, multiline: true },
    { name: 'botId' },
    { name: 'botSecret', secret: true },
    { name: 'channelId' },
  ],
  LINE: [
    { name: 'channelAccessToken', secret: true },
    { name: 'channelSecret', secret: true },
  ],
};

function ChannelCard({
  organizationId,
  channel,
  view,
  canManage,
}: {
  organizationId: string;
  channel: ConfigurableChannel;
  view: ChatChannelView | undefined;
  canManage: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const save = useSaveChatChannel(organizationId);
  const remove = useRemoveChatChannel(organizationId);
  const test = useTestChatChannel(organizationId);
  const [values, setValues] = useState<Record<string, string>>(() => ({ ...view?.settings }));
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const label = t(`chatChannels.names.${channel}`);

  function submit(event: FormEvent) {
    event.preventDefault();
    setStatus(null);
    const given = Object.fromEntries(
      Object.entries(values).flatMap(([k, v]) => (v.trim() ? [[k, v.trim()]] : [])),
    );
    // The server checks the fields per channel and names the one that is wrong.
    const body = { channel, ...given } as ChatChannelBody;
    save.mutate(body, {
      onSuccess: () => {
        setValues((v) =>
          Object.fromEntries(
            Object.entries(v).filter(([k]) => !FIELDS[channel].find((f) => f.name === k)?.secret),
          ),
        );
        setStatus({ ok: true, text: t('chatChannels.saved', { name: label }) });
      },
      onError: (err) => setStatus({ ok: false, text: messageOf(err) }),
    });
  }

  return (
    <section
      aria-labelledby={`${id}-title`}
      data-testid={`chat-channel-${channel}`}
      className="rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        {label}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t(`chatChannels.lead.${channel}`)}</p>
      <p className="mt-1 text-sm text-slate-800" data-testid="chat-channel-state">
        {view
          ? channel === 'LINE'
            ? t('chatChannels.stateLine')
            : view.confirms
              ? t('chatChannels.stateConfirms')
              : t('chatChannels.stateLinkOnly')
          : t('chatChannels.stateNone')}
      </p>
      {view?.lineMessages && (
        <p className="mt-1 text-sm text-slate-800" data-testid="line-messages">
          {t('chatChannels.lineMessages', {
            month: view.lineMessages.month,
            sent: view.lineMessages.sent,
            free: view.lineMessages.free,
          })}
        </p>
      )}
      {view?.callbackUrl && (
        <p className="mt-1 text-sm break-all text-slate-700">
          {t('chatChannels.callbackUrl')}: <code>{view.callbackUrl}</code>
        </p>
      )}
      {canManage && (
        <form className="mt-3 max-w-lg space-y-3" onSubmit={submit} noValidate>
          {FIELDS[channel].map((f) => {
            const hint = view?.secrets[f.name];
            const props = {
              id: `${id}-${f.name}`,
              className: inputClass,
              value: values[f.name] ?? '',
              autoComplete: 'off',
              spellCheck: false,
              'aria-describedby': hint ? `${id}-${f.name}-hint` : undefined,
              'data-testid': `chat-field-${f.name}`,
              onChange: (e: { target: { value: string } }) =>
                setValues((v) => ({ ...v, [f.name]: e.target.value })),
            };
            return (
              <div key={f.name}>
                <label htmlFor={`${id}-${f.name}`} className="text-sm font-medium text-slate-700">
                  {t(`chatChannels.fields.${f.name}`)}
                </label>
                {f.multiline ? (
                  <textarea rows={4} {...props} />
                ) : (
                  <input type={f.secret ? 'password' : 'text'} {...props} />
                )}
                {hint && (
                  <p id={`${id}-${f.name}-hint`} className="mt-1 text-xs text-slate-600">
                    {t('chatChannels.storedSecret', { hint })}
                  </p>
                )}
              </div>
            );
          })}
          <div className="flex flex-wrap gap-2">
            <Button
              type="submit"
              variant="primary"
              disabled={save.isPending}
              data-testid="chat-save"
            >
              {t('chatChannels.save')}
            </Button>
            {view && (
              <>
                <Button
                  variant="secondary"
                  disabled={test.isPending}
                  data-testid="chat-test"
                  onClick={() =>
                    test.mutate(channel, {
                      onSuccess: (r) =>
                        setStatus(
                          r.status === 'failed'
                            ? {
                                ok: false,
                                text: t('chatChannels.testFailed', { error: r.error ?? '' }),
                              }
                            : { ok: true, text: t('chatChannels.testSent', { name: label }) },
                        ),
                      onError: (err) => setStatus({ ok: false, text: messageOf(err) }),
                    })
                  }
                >
                  {t('chatChannels.test')}
                </Button>
                <Button
                  variant="ghost"
                  disabled={remove.isPending}
                  data-testid="chat-remove"
                  onClick={() =>
                    remove.mutate(channel, {
                      onSuccess: () => {
                        setValues({});
                        setStatus({ ok: true, text: t('chatChannels.removed', { name: label }) });
                      },
                      onError: (err) => setStatus({ ok: false, text: messageOf(err) }),
                    })
                  }
                >
                  {t('chatChannels.remove')}
                </Button>
              </>
            )}
          </div>
        </form>
      )}
      {status && (
        <p
          role="status"
          data-testid="chat-status"
          className={`mt-2 text-sm break-words ${status.ok ? 'text-teal-800' : 'text-red-700'}`}
        >
          {status.text}
        </p>
      )}
    </section>
  );
}

/**
 * An organisation's chat channels: Slack, Microsoft Teams, LINE WORKS, and LINE for family members with the
 * month's messages against the plan's free ones (docs/chat-channels.md).
 */
export function ChatChannelsPanel({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation();
  const canManage = useCan('chatChannel:manage', { organizationId });
  const list = useChatChannels(organizationId);
  if (!list.data) return <p className="text-sm text-slate-600">{t('chatChannels.loading')}</p>;
  const { channels } = list.data;
  return (
    <div data-testid="chat-channels" className="grid gap-4">
      <p className="max-w-3xl text-sm text-slate-700">{t('chatChannels.intro')}</p>
      {CONFIGURABLE_CHANNELS.map((channel) => (
        <ChannelCard
          key={channel}
          organizationId={organizationId}
          channel={channel}
          view={channels.find((c) => c.channel === channel)}
          canManage={canManage}
        />
      ))}
    </div>
  );
}
