import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Decode(text: string): Buffer {
  let bits = '';
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((b) => parseInt(b, 2)));
}

/** The code an authenticator app shows for a base32 secret at a time (RFC 6238: SHA-1, 30 s, 6 digits). */
export function totpCode(secret: string, at: number = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** The 30-second step a time falls in (RFC 6238's counter). */
export const totpStep = (at: number = Date.now()): number => Math.floor(at / 30_000);

/**
 * A code for the step after `used`, which the server has not accepted yet (it accepts each step once, and only a
 * later one). The server also takes a code one step ahead of its clock, as it would from an authenticator whose
 * clock runs a little fast, so this waits only while that step is still two ahead, not for every next step.
 */
export async function codeAfter(
  secret: string,
  used: number,
): Promise<{ code: string; step: number }> {
  const step = used + 1;
  while (totpStep() < step - 1) {
    await new Promise((resolve) => setTimeout(resolve, 30_000 - (Date.now() % 30_000) + 200));
  }
  return { code: totpCode(secret, step * 30_000), step };
}
