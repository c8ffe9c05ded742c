import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { simpleParser } from 'mailparser';

/** The server's mail folder, when global-setup started the server (unknown against E2E_BASE_URL alone). */
export const mailDir = (): string | undefined =>
  process.env.E2E_DATA_DIR ? join(process.env.E2E_DATA_DIR, 'mail') : undefined;

/** The newest .eml to the address (waiting for it), parsed as a mail program would. `dir`: another server's. */
export async function newestMailTo(
  to: string,
  after: number,
  dir = mailDir(),
): Promise<{ subject: string; text: string }> {
  if (!dir) throw new Error('E2E_DATA_DIR is not set');
  let found: { subject: string; text: string } | undefined;
  await expect
    .poll(async () => {
      const files = (await readdir(dir).catch(() => [] as string[]))
        .filter((f) => f.includes(`_${to}_`))
        .sort();
      const file = files.at(-1);
      if (!file) return false;
      const mail = await simpleParser(await readFile(join(dir, file)));
      if ((mail.date?.getTime() ?? 0) < after - 1000) return false;
      found = { subject: mail.subject ?? '', text: mail.text ?? '' };
      return true;
    })
    .toBe(true);
  return found ?? { subject: '', text: '' };
}
