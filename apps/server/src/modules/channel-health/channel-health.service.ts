import {
  type Actor,
  CHANNEL_FAILING_AFTER_MS,
  CHANNEL_HEALTH_LOOKBACK_MS,
  CHANNEL_NOTICE_LOOKBACK_MS,
  channelFailing,
  channelFailureNoticeChannels,
  channelFailureStep,
  type ChannelHealthResponse,
  type ChannelHealthView,
  type HealthChannel,
  isHealthChannel,
  LOGGED_CHANNELS,
} from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import type { MailLocale } from '../mail/mail.service.js';
import { messageLogService } from '../notifications/message-log.service.js';
import { channelFailureMail, channelFailureText } from './channel-health-texts.js';
import {
  type ChannelAttemptsRow,
  channelHealthRepository,
  type WebhookChannelRow,
} from './channel-health.repository.js';

const WEBHOOK_PREFIX = 'WEBHOOK:';
const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);
const date = (d: Date | null): Date | null => (d ? new Date(d) : null);

/** A webhook endpoint as a channel is named by its description, else its host: its path may hold a token. */
export function webhookLabel(w: Pick<WebhookChannelRow, 'url' | 'description'>): string {
  if (w.description.trim()) return w.description.trim();
  try {
    return new URL(w.url).host;
  } catch {
    return 'webhook';
  }
}

/** What one sweep changed: the runs it opened (and told) and closed (ids). */
export interface ChannelSweep {
  opened: string[];
  closed: string[];
}

interface Channel {
  channel: HealthChannel;
  key: string;
  webhook: WebhookChannelRow | null;
  attempts: ChannelAttemptsRow | undefined;
}

/**
 * Channel health (issue 38 item 4; the policy is packages/domain/src/channel-health.ts): read from
 * the notification log and the webhook attempts, so any channel that logs its attempts there is
 * covered; the leader's sweep opens a run for each channel failing CHANNEL_FAILING_AFTER_MS and
 * tells the owners once, by another channel; the channel's next delivered attempt closes the run.
 */
export function channelHealthService(ctx: AppContext) {
  const repo = channelHealthRepository(ctx.db);

  /** The organisation's channels: mail always, the logged channels set up or used, every webhook endpoint. */
  async function channelsOf(organizationId: string, now: Date): Promise<Channel[]> {
    const since = new Date(now.getTime() - CHANNEL_HEALTH_LOOKBACK_MS);
    const [attempts, configured, webhooks] = await Promise.all([
      repo.attempts(organizationId, since, LOGGED_CHANNELS),
      repo.configuredChannels(organizationId),
      repo.webhooks(organizationId),
    ]);
    const byKey = new Map(attempts.map((a) => [a.key, a]));
    const logged = LOGGED_CHANNELS.filter(
      (c) => c === 'EMAIL' || configured.includes(c) || byKey.has(c),
    );
    return [
      ...logged.map((c) => ({ channel: c, key: c, webhook: null, attempts: byKey.get(c) })),
      ...webhooks.map((w) => {
        const key = `${WEBHOOK_PREFIX}${w.id}`;
        return { channel: 'WEBHOOK' as const, key, webhook: w, attempts: byKey.get(key) };
      }),
    ];
  }

  const attemptsOf = (a: ChannelAttemptsRow | undefined) => ({
    lastDeliveredAt: date(a?.last_delivered_at ?? null),
    lastFailedAt: date(a?.last_failed_at ?? null),
    failingSince: date(a?.failing_since ?? null),
  });

  /** Tells the owners of one run, by the channels that are not the failing one; how many messages. */
  async function notify(runId: string): Promise<number> {
    const run = await repo.runById(runId);
    if (!run || !(await repo.claimNotice(runId, ctx.now()))) return 0;
    const channel = isHealthChannel(run.channel) ? run.channel : null;
    if (!channel) return 0;
    const webhook = run.webhook_id
      ? (await repo.webhooks(run.organization_id)).find((w) => w.id === run.webhook_id)
      : undefined;
    const failure = {
      channel,
      label: webhook ? webhookLabel(webhook) : null,
      failingSince: new Date(run.failing_since),
      reason: run.reason,
      timeZone: run.time_zone,
    };
    const by = channelFailureNoticeChannels(channel);
    let sent = 0;
    for (const owner of await repo.owners(run.organization_id)) {
      const locale: MailLocale = owner.locale;
      if (by.includes('EMAIL') && owner.email) {
        const mail = channelFailureMail(failure, {
          locale,
          publicUrl: ctx.config.publicUrl,
          name: owner.name,
        });
        await ctx.mail.send(
          { email: owner.email, userId: owner.id, organizationId: run.organization_id },
          mail,
        );
        sent++;
      }
      if (by.includes('SMS') && owner.phone_number) {
        const text = channelFailureText(failure, locale);
        const entry = await messageLogService(ctx.db).log(
          {
            channel: 'SMS',
            userId: owner.id,
            organizationId: run.organization_id,
            recipient: owner.phone_number,
            provider: ctx.phone.name,
            text,
          },
          ctx.now(),
        );
        await entry.settle(await ctx.phone.sendSms(owner.phone_number, text), ctx.now());
        sent++;
      }
    }
    return sent;
  }

  return {
    /** GET channelHealth: each channel of the organisation, with its open run's notice. */
    async get(actor: Actor, organizationId: string): Promise<ChannelHealthResponse> {
      await accessService(ctx.db).require(
        actor,
        'channelHealth:read',
        'organization',
        organizationId,
      );
      const now = ctx.now();
      const [channels, open] = await Promise.all([
        channelsOf(organizationId, now),
        repo.openRuns(organizationId),
      ]);
      const runs = new Map(open.map((r) => [r.channel_key, r]));
      return {
        organizationId,
        failingAfterMinutes: CHANNEL_FAILING_AFTER_MS / 60_000,
        channels: channels.map((c): ChannelHealthView => ({
          channel: c.channel,
          webhookId: c.webhook?.id ?? null,
          label: c.webhook ? webhookLabel(c.webhook) : null,
          enabled: c.webhook?.enabled ?? true,
          lastDeliveredAt: iso(c.attempts?.last_delivered_at ?? null),
          lastFailedAt: iso(c.attempts?.last_failed_at ?? null),
          lastFailureReason: c.attempts?.last_failed_at
            ? (c.attempts.last_failure_reason ?? null)
            : null,
          failingSince: iso(c.attempts?.failing_since ?? null),
          failing: channelFailing(attemptsOf(c.attempts), now),
          // The open run's notice while the channel still fails (a delivery since ends it at the next sweep).
          noticedAt: c.attempts?.failing_since ? iso(runs.get(c.key)?.noticed_at ?? null) : null,
        })),
      };
    },

    /**
     * One pass of the leader's sweep over the organisations with a recent failure or an open run
     * (of one organisation when given: tests): opens the runs now failing, closes the recovered
     * ones, then tells the owners of each run it opened (and of any an earlier sweep opened but
     * could not tell, e.g. a server stopped in between).
     */
    async sweep(organizationId?: string): Promise<ChannelSweep> {
      const now = ctx.now();
      const done: ChannelSweep = { opened: [], closed: [] };
      const since = new Date(now.getTime() - CHANNEL_NOTICE_LOOKBACK_MS);
      for (const org of await repo.sweepCandidates(since, organizationId ?? null)) {
        const [channels, open] = await Promise.all([channelsOf(org, now), repo.openRuns(org)]);
        const runs = new Map(open.map((r) => [r.channel_key, r]));
        for (const c of channels) {
          const run = runs.get(c.key);
          const attempts = attemptsOf(c.attempts);
          const step = channelFailureStep(attempts, run ? new Date(run.failing_since) : null, now);
          if (step === 'close' && run) {
            await repo.close(run.id, now);
            done.closed.push(run.id);
          } else if (step === 'open' && attempts.failingSince) {
            const id = await repo.open(
              {
                organizationId: org,
                channel: c.channel,
                webhookId: c.webhook?.id ?? null,
                key: c.key,
                failingSince: attempts.failingSince,
                reason: c.attempts?.last_failure_reason ?? null,
              },
              now,
            );
            if (id) done.opened.push(id);
          } else if (run && !run.noticed_at) {
            done.opened.push(run.id);
          }
        }
        // A webhook endpoint deleted while failing: its run went with it (ON DELETE CASCADE).
      }
      for (const id of done.opened) await notify(id);
      return done;
    },
  };
}
