import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CHAT_LINK_CODE_MINUTES, LINKABLE_CHAT_CHANNELS } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { useCan } from '../../../lib/use-can';
import { useCreateChatLinkCode, useRemoveChatLink } from '../api/change-chat-channels';
import { useChatLinks } from '../api/get-chat-channels';

const messageOf = (err: unknown) =>
  err instanceof ApiError ? (err.body?.message ?? err.message) : String(err);

/**
 * /user/info, for the organisation's staff: one's links to Slack and LINE WORKS users, so that 確認
 * pressed in the chat confirms as oneself. A one-time code, sent to the bot or typed in Slack, links.
 */
export function ChatLinkSettings() {
  const { t } = useTranslation();
  const allowed = useCan('chatLink:manage');
  const links = useChatLinks(allowed);
  const create = useCreateChatLinkCode();
  const remove = useRemoveChatLink();
  const [code, setCode] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  if (!allowed || !links.data) return null;
  const { links: linked, available } = links.data;
  const name = (c: string) => t(`chatChannels.names.${c}`);

  return (
    <section
      aria-labelledby="chat-links-heading"
      data-testid="chat-links"
      className="mt-6 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="chat-links-heading" className="text-base font-semibold text-slate-900">
        {t('chatLinks.title')}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t('chatLinks.lead')}</p>
      {available.length === 0 && linked.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">{t('chatLinks.none')}</p>
      ) : (
        <>
          <ul className="mt-3 grid gap-2">
            {LINKABLE_CHAT_CHANNELS.filter(
              (c) => available.includes(c) || linked.some((l) => l.channel === c),
            ).map((c) => {
              const link = linked.find((l) => l.channel === c);
              return (
                <li key={c} className="flex flex-wrap items-center gap-2 text-sm text-slate-800">
                  <span data-testid={`chat-link-${c}`}>
                    {link
                      ? t('chatLinks.linked', { name: name(c), id: link.chatUserId })
                      : t('chatLinks.notLinked', { name: name(c) })}
                  </span>
                  {link && (
                    <Button
                      variant="ghost"
                      disabled={remove.isPending}
                      onClick={() =>
                        remove.mutate(c, { onError: (err) => setFailed(messageOf(err)) })
                      }
                    >
                      {t('chatLinks.unlink', { name: name(c) })}
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
          <Button
            variant="secondary"
            className="mt-3"
            disabled={create.isPending}
            data-testid="chat-link-code"
            onClick={() =>
              create.mutate(undefined, {
                onSuccess: (r) => setCode(r.code),
                onError: (err) => setFailed(messageOf(err)),
              })
            }
          >
            {t('chatLinks.getCode')}
          </Button>
          {code && (
            <div role="status" className="mt-2 text-sm text-slate-800">
              <p data-testid="chat-link-code-value">
                {t('chatLinks.code', { code, minutes: CHAT_LINK_CODE_MINUTES })}
              </p>
              <p className="mt-1 text-slate-600">{t('chatLinks.howTo', { code })}</p>
            </div>
          )}
        </>
      )}
      {failed && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {t('chatLinks.failed', { message: failed })}
        </p>
      )}
    </section>
  );
}
