import { createHash, randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { CoreContext } from '../../core-context.js';
import { sharedServerSecret } from './server-secrets.js';

type TokenDeps = Pick<CoreContext, 'config' | 'db' | 'now'>;

export interface AccessClaims {
  uid: string;
  /** The refresh-token family (one sign-in); sign-out and reuse detection end it. */
  sessionId: string;
}

/** A verified token's claims and when it stops being valid (the live stream ends then). */
export interface VerifiedAccess extends AccessClaims {
  expiresAt: Date;
}

export interface TokenService {
  issueAccessToken(claims: AccessClaims): Promise<string>;
  /** The claims of a valid token, or null for a bad, expired or foreign token. */
  verifyAccessToken(token: string): Promise<VerifiedAccess | null>;
}

const SECRET_NAME = 'access_token_secret';

/** The signing key: AUTH_SECRET, else one random secret shared by every server through the db. */
async function loadSecret(ctx: TokenDeps): Promise<Uint8Array> {
  if (ctx.config.authSecret) return new TextEncoder().encode(ctx.config.authSecret);
  const value = await sharedServerSecret(ctx.db, SECRET_NAME);
  return new TextEncoder().encode(value);
}

const verifiedOf = (c: AccessClaims & { exp: number }): VerifiedAccess => ({
  uid: c.uid,
  sessionId: c.sessionId,
  expiresAt: new Date(c.exp * 1000),
});

export function createTokenService(ctx: TokenDeps): TokenService {
  let key: Promise<Uint8Array> | undefined;
  const getKey = () =>
    (key ??= loadSecret(ctx).catch((err: unknown) => {
      key = undefined;
      throw err;
    }));
  const seconds = () => Math.floor(ctx.now().getTime() / 1000);
  // jose verifies through WebCrypto, which costs more than the whole rest of a cached request;
  // a token once verified is remembered (by its full text) until it expires.
  const verified = new Map<string, AccessClaims & { exp: number }>();
  return {
    async issueAccessToken({ uid, sessionId }) {
      const now = seconds();
      return new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(uid)
        .setIssuedAt(now)
        .setExpirationTime(now + ctx.config.accessTokenTtl)
        .sign(await getKey());
    },
    async verifyAccessToken(token) {
      const known = verified.get(token);
      if (known) {
        if (known.exp > seconds()) return verifiedOf(known);
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, await getKey(), {
          algorithms: ['HS256'],
          currentDate: ctx.now(),
        });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
        if (typeof payload.exp !== 'number') return null;
        if (verified.size >= 50_000) verified.clear();
        const claims = { uid: payload.sub, sessionId: payload.sid, exp: payload.exp };
        verified.set(token, claims);
        return verifiedOf(claims);
      } catch (err) {
        if (err instanceof errors.JOSEError) return null;
        throw err;
      }
    },
  };
}

/** A new opaque refresh token (32 random bytes) and the SHA-256 the database keeps. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashRefreshToken(token) };
}

export const hashRefreshToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');
