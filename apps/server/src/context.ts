import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import { createMailer, type Mailer } from './modules/mail/mail.service.js';
import { embeddedOutboxProvider, type NotificationProvider } from './modules/notifications/notification-provider.js';
import { twilioProvider } from './modules/notifications/twilio.provider.js';

/** What every service is given: configuration, the database and the in-process event bus. */
export interface AppContext {
  config: Config;
  db: Db;
  /** In-process events (new alerts, summary changes) for live streams. */
  bus: EventEmitter;
  /** The clock; tests and scripted scenarios may replace it. */
  now: () => Date;
  /** Outgoing mail: SMTP_URL, else .eml files under DATA_DIR/mail; every mail in the notification log. */
  mail: Mailer;
  /** SMS and phone calls: Twilio when configured, else the embedded log (and DATA_DIR/sms files). */
  phone: NotificationProvider;
}

export function createContext(config: Config, db: Db, now: () => Date = () => new Date()): AppContext {
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  // Through ctx.now, so a test that moves the clock moves it for mail and SMS too.
  const clock = () => ctx.now();
  const ctx: AppContext = {
    config,
    db,
    bus,
    now,
    mail: createMailer(config, db, clock),
    phone: config.twilio ? twilioProvider(config.twilio) : embeddedOutboxProvider(join(config.dataDir, 'sms'), clock),
  };
  return ctx;
}

/** Releases what the context holds (the app's onClose calls it once; the database is closed by its opener). */
export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.mail.close();
}
