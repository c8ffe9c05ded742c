import type { LoggedChannel, NotificationStatus } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import { notificationsRepository } from './notifications.repository.js';

/** A provider's answer about one message, which `settle` records (mail's transports answer the same). */
export type { SendResult } from './notification-provider.js';

/** A message outside alert escalation (a mail, a sign-in code), as the notification log keeps it. */
export interface LoggedMessage {
  channel: LoggedChannel;
  /** The addressee's account, when there is one: only they see the entry in GET /v2/notifications. */
  userId: string | null;
  organizationId: string | null;
  recipient: string;
  provider: string;
  /** Already redacted: never a link token or a code. */
  text: string;
}

/** The other modules' way into the notification log, with the database or the caller's transaction. */
export function messageLogService(db: Queryable) {
  return {
    /**
     * Records a message as queued before it leaves, so an attempt is on record even if the provider
     * never answers; `settle` stores the provider's outcome.
     */
    async log(message: LoggedMessage, at: Date) {
      const id = await notificationsRepository(db).insertMessage(message, at);
      return {
        id,
        settle: (
          outcome: { status: NotificationStatus; providerId?: string; error?: string },
          settledAt: Date,
        ) => notificationsRepository(db).recordOutcome(id, outcome, settledAt),
      };
    },
  };
}

/** Replaces every secret (link token, code) in a text meant for a log. */
export function redact(text: string, secrets: readonly string[]): string {
  return secrets.reduce(
    (out, secret) => (secret ? out.split(secret).join('[redacted]') : out),
    text,
  );
}
