import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import type { SignInResult } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { ApiError, notFound, unauthorized } from '../../errors.js';
import { authRepository } from './auth.repository.js';
import { oidcRepository } from './oidc.repository.js';
import { signInChallenges } from './sign-in-challenges.js';

const STATE_TTL_SECONDS = 600;
const EXCHANGE_TTL_SECONDS = 60;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Why a callback did not sign anyone in; the web app's /login/oidc page explains each. */
export type OidcRefusal =
  | 'OIDC_CANCELLED'
  | 'OIDC_STATE_INVALID'
  | 'OIDC_FAILED'
  | 'OIDC_EMAIL_NOT_VERIFIED'
  | 'OIDC_ACCOUNT_NOT_FOUND';

export type OidcCallbackOutcome =
  { exchangeCode: string } | { refusal: OidcRefusal; reason?: string };

/**
 * Social sign-in: authorisation code + PKCE against OIDC_ISSUER. Signs in to an existing account
 * whose email the provider says is verified; never creates one (decisions/0007).
 */
export function oidcService(
  ctx: AppContext,
  completeSignIn: (userId: string) => Promise<SignInResult>,
) {
  const settings = ctx.config.oidc;
  const repo = oidcRepository(ctx.db);
  const accounts = authRepository(ctx.db);
  const challenges = signInChallenges(ctx.db, () => ctx.now());
  const redirectUri = `${ctx.config.publicUrl}/v2/auth/oidc/callback`;
  let discovered: Promise<client.Configuration> | undefined;

  function configuration(): Promise<client.Configuration> {
    if (!settings) throw notFound('Social sign-in is not configured', 'OIDC_NOT_CONFIGURED');
    // Discovered once, on first use; a failure is retried at the next sign-in.
    discovered ??= client
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        undefined,
        settings.clientSecret ? client.ClientSecretPost(settings.clientSecret) : client.None(),
        // config.ts allows http:// only for a loopback issuer.
        { execute: settings.issuer.startsWith('http://') ? [client.allowInsecureRequests] : [] },
      )
      .catch((err: unknown) => {
        discovered = undefined;
        throw err;
      });
    return discovered;
  }

  async function verifiedEmail(
    config: client.Configuration,
    tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>,
  ) {
    const claims = tokens.claims();
    if (!claims) return { email: null, verified: false };
    let { email, email_verified: verified } = claims;
    // Providers that keep the ID token small put the email in the UserInfo answer only.
    if (email === undefined) {
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      ({ email, email_verified: verified } = info);
    }
    return {
      email: typeof email === 'string' ? email.trim().toLowerCase() : null,
      verified: verified === true,
    };
  }

  return {
    displayName: settings?.displayName ?? null,

    /** Where to send the browser, and the value of the cookie that binds the sign-in to it. */
    async start(): Promise<{ location: string; browserBinding: string }> {
      let config: client.Configuration;
      try {
        config = await configuration();
      } catch (err) {
        if (err instanceof ApiError) throw err;
        throw new ApiError(
          503,
          'OIDC_UNAVAILABLE',
          'The sign-in provider cannot be reached; try again later',
        );
      }
      const state = client.randomState();
      const nonce = client.randomNonce();
      const codeVerifier = client.randomPKCECodeVerifier();
      const browserBinding = randomBytes(32).toString('base64url');
      const now = ctx.now();
      await repo.insertState({
        stateHash: sha256(state),
        browserHash: sha256(browserBinding),
        nonce,
        codeVerifier,
        expiresAt: new Date(now.getTime() + STATE_TTL_SECONDS * 1000),
        createdAt: now,
      });
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email',
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { location: url.href, browserBinding };
    },

    /** The provider's answer: a one-time exchange code for the web app, or why not. */
    async callback(
      query: Record<string, string | undefined>,
      browserBinding: string | undefined,
    ): Promise<OidcCallbackOutcome> {
      if (!settings) throw notFound('Social sign-in is not configured', 'OIDC_NOT_CONFIGURED');
      // The state is used up whatever happens next: a second callback with it is always refused.
      const state = query.state ? await repo.consumeState(sha256(query.state), ctx.now()) : null;
      if (!state || !browserBinding || state.browserHash !== sha256(browserBinding)) {
        return { refusal: 'OIDC_STATE_INVALID' };
      }
      if (query.error) return { refusal: 'OIDC_CANCELLED' };
      let identity: { email: string | null; verified: boolean };
      try {
        const config = await configuration();
        const currentUrl = new URL(redirectUri);
        for (const [key, value] of Object.entries(query))
          if (value !== undefined) currentUrl.searchParams.set(key, value);
        const tokens = await client.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: state.codeVerifier,
          expectedState: query.state,
          expectedNonce: state.nonce,
          idTokenExpected: true,
        });
        identity = await verifiedEmail(config, tokens);
      } catch (err) {
        // The library's message names what failed (signature, nonce...); it holds no token.
        return { refusal: 'OIDC_FAILED', reason: err instanceof Error ? err.message : String(err) };
      }
      if (!identity.email || !identity.verified) return { refusal: 'OIDC_EMAIL_NOT_VERIFIED' };
      const account = await accounts.findAccountByEmail(identity.email);
      if (!account) return { refusal: 'OIDC_ACCOUNT_NOT_FOUND' };
      return {
        exchangeCode: await challenges.issue(account.id, 'OIDC_EXCHANGE', EXCHANGE_TTL_SECONDS),
      };
    },

    /** The web app swaps the one-time code for the tokens (or the TOTP step). */
    async exchange(code: string): Promise<SignInResult> {
      const row = await challenges.consume(code, ['OIDC_EXCHANGE']);
      if (!row) {
        throw unauthorized(
          'The sign-in code has expired or was already used; sign in again',
          'INVALID_EXCHANGE_CODE',
        );
      }
      return completeSignIn(row.userId);
    },
  };
}
export type OidcService = ReturnType<typeof oidcService>;
