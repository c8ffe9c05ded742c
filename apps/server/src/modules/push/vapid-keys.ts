import { createECDH } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { sharedServerSecret } from '../auth/secret-box.service.js';

const SECRET_NAME = 'vapid_private_key';

/** The server's VAPID key pair (RFC 8292), base64url: the public key is the uncompressed P-256 point. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** The public key of a P-256 private key (32 bytes, base64url). */
export function vapidPublicKeyOf(privateKey: string): string {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  return ecdh.getPublicKey().toString('base64url');
}

/**
 * VAPID_PRIVATE_KEY, else one random 32-byte key shared by every server through the database, like the
 * token signing key: the browsers' subscriptions are bound to the public key, so it must outlive restarts.
 * (32 random bytes are a valid P-256 scalar but for a chance of about 2^-32; setPrivateKey would refuse it.)
 */
export async function loadVapidKeys(ctx: Pick<AppContext, 'config' | 'db'>): Promise<VapidKeys> {
  const privateKey =
    ctx.config.push.vapidPrivateKey ?? (await sharedServerSecret(ctx.db, SECRET_NAME));
  return {
    privateKey,
    publicKey: vapidPublicKeyOf(privateKey),
    subject: ctx.config.push.vapidSubject,
  };
}
