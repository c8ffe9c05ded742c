import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { sharedServerSecret } from './server-secrets.js';

const SECRET_NAME = 'totp_encryption_key';

/** Encrypts small secrets (TOTP keys) at rest with AES-256-GCM. */
export interface SecretBox {
  seal(plain: string): Promise<string>;
  open(sealed: string): Promise<string>;
}

/** The key: TOTP_ENCRYPTION_KEY, else one random key shared by every server through the db. */
async function loadKey(ctx: AppContext): Promise<Buffer> {
  const material = ctx.config.totpEncryptionKey || (await sharedServerSecret(ctx.db, SECRET_NAME));
  return createHash('sha256').update(`totp-secret-v1:${material}`).digest();
}

/**
 * Small secrets sealed at rest (TOTP keys, webhook signing secrets), for this and other modules: a box
 * per service instance; the key is read once, on first use.
 */
export function secretBoxService(ctx: AppContext): SecretBox {
  let key: Promise<Buffer> | undefined;
  const getKey = () =>
    (key ??= loadKey(ctx).catch((err: unknown) => {
      key = undefined;
      throw err;
    }));
  return {
    async seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', await getKey(), iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    async open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined)
        throw new Error('sealed secret: unknown format');
      const decipher = createDecipheriv(
        'aes-256-gcm',
        await getKey(),
        Buffer.from(iv, 'base64url'),
      );
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}
export { sharedServerSecret } from './server-secrets.js';
