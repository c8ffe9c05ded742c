import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import type { AppContext } from '../context.js';

export interface ReceivedMail {
  file: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  language: string | undefined;
  /** Every https?:// link of the plain-text body, in order. */
  links: string[];
}

/** Parses one raw RFC 5322 mail (an .eml file, or what an SMTP server received). */
export async function parseMail(raw: Buffer | string, file = ''): Promise<ReceivedMail> {
  const parsed = await simpleParser(raw);
  const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
  const text = parsed.text ?? '';
  const language = parsed.headers.get('content-language');
  return {
    file,
    to: to?.value[0]?.address ?? '',
    subject: parsed.subject ?? '',
    text,
    html: typeof parsed.html === 'string' ? parsed.html : '',
    language: typeof language === 'string' ? language : undefined,
    links: text.match(/https?:\/\/\S+/g) ?? [],
  };
}

/** The .eml files under DATA_DIR/mail (after the mails in flight settle), oldest first; optionally to one address. */
export async function mailsIn(ctx: AppContext, to?: string): Promise<ReceivedMail[]> {
  await ctx.mail.idle();
  const dir = join(ctx.config.dataDir, 'mail');
  const files = (await readdir(dir).catch(() => [] as string[]))
    .filter((f) => f.endsWith('.eml'))
    .sort();
  const mails = await Promise.all(
    files.map(async (f) => parseMail(await readFile(join(dir, f)), f)),
  );
  return to ? mails.filter((m) => m.to === to.toLowerCase()) : mails;
}

/** The texts of the embedded SMS outbox (DATA_DIR/sms) to a number, oldest first, once at least `count` arrived. */
export async function smsTo(
  ctx: AppContext,
  to: string,
  count = 1,
  waitMs = 10_000,
): Promise<string[]> {
  const dir = join(ctx.config.dataDir, 'sms');
  const digits = to.replace(/[^\d+]/g, '');
  const deadline = Date.now() + waitMs;
  for (;;) {
    const files = (await readdir(dir).catch(() => [] as string[]))
      .filter((f) => f.includes(`_${digits}_sms`))
      .sort();
    if (files.length >= count || Date.now() > deadline) {
      return Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
