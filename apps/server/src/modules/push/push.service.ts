import { createHash, randomUUID } from 'node:crypto';
import type {
  Actor,
  PushKeyResponse,
  PushNoticePayload,
  PushSubscriptionBody,
  PushSubscriptionView,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { badRequest, notFound } from '../../errors.js';
import { describeUserAgent } from '../account/account.service.js';
import { secretBoxService } from '../auth/secret-box.service.js';
import { type PushSubscriptionRow, pushRepository } from './push.repository.js';
import {
  PUSH_SENDER_DEFAULTS,
  type PushSenderOptions,
  pushTopic,
  sendPush,
} from './push-sender.js';
import { loadVapidKeys, type VapidKeys } from './vapid-keys.js';

/** What one push to a person came to, for the notification log (the notifications module's SendResult). */
export interface PushToPersonResult {
  status: 'sent' | 'failed';
  /** The push services' answers, one per browser ("201 201", "410 gone"). */
  providerId?: string;
  error?: string;
}

/** An unconfirmed EMERGENCY's push waits at the push service for a phone out of reach this long. */
const TTL_SECONDS = 60 * 60;

const hashOf = (endpoint: string) => createHash('sha256').update(endpoint).digest('base64url');
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * Web Push (docs/push.md): one's own subscribed browsers (self:read / self:update, checked by the contract;
 * a subscription is always the actor's own, so no resource check), and pushing a notice to a person's live
 * subscriptions for the notifications module. The endpoint and auth secret are sealed at rest.
 */
export function pushService(ctx: AppContext, sender: Partial<PushSenderOptions> = {}) {
  const repo = pushRepository(ctx.db);
  const box = secretBoxService(ctx);
  let keys: Promise<VapidKeys> | undefined;
  const vapid = () =>
    (keys ??= loadVapidKeys(ctx).catch((err: unknown) => {
      keys = undefined;
      throw err;
    }));
  const options = {
    ...PUSH_SENDER_DEFAULTS,
    allowPrivate: ctx.config.push.allowPrivate,
    ...sender,
  };

  const view = (row: PushSubscriptionRow, sessionId: string | null): PushSubscriptionView => {
    const ua = describeUserAgent(row.user_agent);
    return {
      id: row.id,
      browser: ua.browser,
      os: ua.os,
      createdAt: new Date(row.created_at).toISOString(),
      lastPushedAt: iso(row.last_pushed_at),
      current: sessionId !== null && row.session_id === sessionId,
    };
  };

  return {
    async publicKey(): Promise<PushKeyResponse> {
      return { publicKey: (await vapid()).publicKey };
    },

    async list(actor: Actor, sessionId: string | null): Promise<PushSubscriptionView[]> {
      // Where pushes go: a browser whose session was signed out is not listed (it gets nothing until it
      // subscribes again, which takes the row over by its endpoint).
      return (await repo.liveOfUser(actor.uid)).map((r) => view(r, sessionId));
    },

    async subscribe(
      actor: Actor,
      sessionId: string | null,
      body: PushSubscriptionBody,
      userAgent: string | undefined,
    ): Promise<PushSubscriptionView> {
      // The server will POST to this URL: a real push service is https; http only on a test's machine.
      if (!body.endpoint.startsWith('https://') && !ctx.config.push.allowPrivate)
        throw badRequest('endpoint must be an https:// URL of a push service', 'BAD_PUSH_ENDPOINT');
      const point = Buffer.from(body.keys.p256dh, 'base64url');
      if (point.length !== 65 || point[0] !== 0x04)
        throw badRequest(
          'keys.p256dh must be an uncompressed P-256 point (65 bytes)',
          'BAD_PUSH_KEY',
        );
      const row = await repo.upsert(
        {
          id: randomUUID(),
          userId: actor.uid,
          sessionId,
          endpointHash: hashOf(body.endpoint),
          endpointSealed: await box.seal(body.endpoint),
          p256dh: body.keys.p256dh,
          authSealed: await box.seal(body.keys.auth),
          userAgent: userAgent?.slice(0, 512) ?? null,
        },
        ctx.now(),
      );
      return view(row, sessionId);
    },

    /** Another person's subscription and an unknown one are the same 404. */
    async remove(actor: Actor, id: string): Promise<void> {
      if (!(await repo.removeOwn(actor.uid, id)))
        throw notFound(`push subscription ${id} not found`, 'PUSH_SUBSCRIPTION_NOT_FOUND');
    },

    /**
     * One notice to each of the person's live subscriptions; a subscription the push service says is gone
     * (404/410) is removed. Sent when at least one push service accepted it. Never throws.
     */
    async pushToPerson(
      userId: string,
      payload: PushNoticePayload,
      topicId: string,
    ): Promise<PushToPersonResult> {
      try {
        const subscriptions = await repo.liveOfUser(userId);
        if (!subscriptions.length)
          return { status: 'failed', error: 'no browser is subscribed to push' };
        const message = {
          payload: JSON.stringify(payload),
          topic: pushTopic(topicId),
          urgency: payload.emergency ? ('high' as const) : ('normal' as const),
          ttlSeconds: TTL_SECONDS,
        };
        const keys = await vapid();
        const answers: string[] = [];
        const errors: string[] = [];
        let accepted = 0;
        for (const s of subscriptions) {
          const target = {
            endpoint: await box.open(s.endpoint_sealed),
            p256dh: s.p256dh,
            auth: await box.open(s.auth_sealed),
          };
          const outcome = await sendPush(target, message, keys, options);
          answers.push(String(outcome.status ?? 'no answer'));
          if (outcome.result === 'accepted') {
            accepted++;
            await repo.markPushed(s.id, ctx.now());
          } else if (outcome.result === 'gone') {
            await repo.remove(s.id);
            errors.push(`${outcome.error ?? outcome.status}: subscription removed`);
          } else errors.push(outcome.error ?? 'failed');
        }
        const providerId = answers.join(' ');
        return accepted > 0
          ? { status: 'sent', providerId, ...(errors.length ? { error: errors.join('; ') } : {}) }
          : { status: 'failed', providerId, error: errors.join('; ') };
      } catch (err) {
        return { status: 'failed', error: err instanceof Error ? err.message : String(err) };
      }
    },
  };
}
