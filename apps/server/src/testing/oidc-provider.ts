import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** A person known to the test provider: `sub` is what they type at its login. */
export interface ProviderAccount {
  sub: string;
  email: string;
  emailVerified: boolean;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * Plays the person in the browser at the provider: opens the authorisation URL, logs in as
   * `sub` and consents through the interaction endpoints (real HTTP, cookies kept), and returns
   * the URL the provider finally sends the browser to (the console's callback).
   */
  signIn(authorizationUrl: string, sub: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider) on a free loopback port, with one confidential client
 * whose redirect URI is redirectUri. Its login and consent pages are minimal HTTP endpoints:
 * POST /interaction/:uid with `login=<sub>` logs in; the next POST consents.
 */
export async function startOidcProvider(
  redirectUri: string,
  accounts: ProviderAccount[],
): Promise<TestOidcProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'wearable-console';
  const clientSecret = 'test-client-secret-0123456789';
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'k1' }] },
    cookies: { keys: ['test-cookie-key-0123456789'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    features: { devInteractions: { enabled: false } },
    // Explicit lifetimes (the defaults print a notice each).
    ttl: {
      Interaction: 600,
      Session: 600,
      Grant: 600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
    findAccount: (_ctx, sub) => {
      const account = accounts.find((a) => a.sub === sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, email: account.email, email_verified: account.emailVerified }),
      };
    },
  });

  server.on('request', (req, res) => {
    const uid = /^\/interaction\/([\w-]+)$/.exec(req.url ?? '')?.[1];
    if (!uid) {
      void provider.callback()(req, res);
      return;
    }
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (req.method === 'GET') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ uid: details.uid, prompt: details.prompt.name }));
        return;
      }
      let body = '';
      for await (const chunk of req) body += String(chunk);
      if (details.prompt.name === 'login') {
        const sub = new URLSearchParams(body).get('login') ?? '';
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: sub } },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      const grant = new provider.Grant({
        accountId: details.session?.accountId ?? '',
        clientId: String(details.params.client_id),
      });
      grant.addOIDCScope(String(details.params.scope));
      await provider.interactionFinished(
        req,
        res,
        { consent: { grantId: await grant.save() } },
        { mergeWithLastSubmission: true },
      );
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });

  async function signIn(authorizationUrl: string, sub: string): Promise<URL> {
    const jar = new Map<string, string>();
    let url = new URL(authorizationUrl);
    let method: 'GET' | 'POST' = 'GET';
    for (let hop = 0; hop < 12; hop++) {
      if (url.href.startsWith(redirectUri)) return url;
      const res = await fetch(url, {
        method,
        redirect: 'manual',
        headers: {
          cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
          ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: method === 'POST' ? new URLSearchParams({ login: sub }) : undefined,
      });
      for (const cookie of res.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const [name, ...value] = (pair ?? '').split('=');
        if (name) jar.set(name, value.join('='));
      }
      const location = res.headers.get('location');
      if (location) {
        url = new URL(location, url);
        method = 'GET';
      } else if (/^\/interaction\//.test(url.pathname) && res.ok) {
        method = 'POST'; // the login or consent page: submit it
      } else {
        throw new Error(`provider answered ${res.status} at ${url.pathname}: ${await res.text()}`);
      }
    }
    throw new Error('too many redirects at the provider');
  }

  return {
    issuer,
    clientId,
    clientSecret,
    signIn,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
