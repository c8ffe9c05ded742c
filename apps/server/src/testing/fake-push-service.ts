import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  randomBytes,
} from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';

/**
 * A push service on 127.0.0.1 for tests and the bench, after RFC 8030 (Generic Event Delivery Using HTTP
 * Push, §5: POST to the subscription's endpoint, 201 Created; §7.3: 404/410 for a subscription that is
 * gone), with the checks a real one makes: the VAPID `Authorization: vapid t=<JWT>, k=<key>` of RFC 8292
 * §2–3 (ES256 by the key `k`, `aud` the endpoint's origin, `exp` within 24 hours, a `sub`), and the body
 * DECRYPTED as the browser would (RFC 8291 §3.3–3.4 key derivation over RFC 8188 aes128gcm) with the
 * private key of a subscription the test made (`subscription()`), as a browser makes one.
 */

/** A browser's side of a subscription: its key pair and auth secret (what `pushManager.subscribe()` holds). */
export interface FakeBrowserKeys {
  id: string;
  privateKey: Buffer;
  publicKey: Buffer;
  auth: Buffer;
}

export interface ReceivedPush {
  /** The subscription it was for. */
  subscriptionId: string;
  headers: IncomingHttpHeaders;
  /** The decrypted plain text (RFC 8291). */
  plaintext: string;
  /** The VAPID JWT's claims, verified. */
  claims: { aud: string; exp: number; sub: string };
  /** The VAPID public key `k`, base64url. */
  vapidKey: string;
  /** When it arrived (performance.now()). */
  at: number;
  /** The status the fake answered. */
  status: number;
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/**
 * RFC 8291 §3.4 and RFC 8188 §2: decrypts one aes128gcm message (one record) for the user agent's key pair
 * and auth secret. The header carries salt (16), rs (4), idlen (1) and keyid = the sender's public key.
 */
export function decryptAes128gcm(body: Buffer, ua: Omit<FakeBrowserKeys, 'id'>): string {
  const salt = body.subarray(0, 16);
  const idlen = body.readUInt8(20);
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(ua.privateKey);
  const ecdhSecret = ecdh.computeSecret(asPublic);
  // PRK_key = HMAC(auth_secret, ecdh_secret); IKM = HKDF-Expand(PRK_key, "WebPush: info" 0x00 ua_public as_public, 32)
  const prkKey = hmac(ua.auth, ecdhSecret);
  const keyInfo = Buffer.concat([
    Buffer.from('WebPush: info\0'),
    ua.publicKey,
    asPublic,
    Buffer.from([1]),
  ]);
  const ikm = hmac(prkKey, keyInfo);
  // RFC 8188 §2.2–2.3: PRK = HMAC(salt, IKM); CEK and NONCE expanded from it.
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([
    decipher.update(record.subarray(0, record.length - 16)),
    decipher.final(),
  ]);
  // The last record ends with the delimiter 0x02 and any zero padding (RFC 8188 §2).
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('aes128gcm: no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** The verified claims of `Authorization: vapid t=…, k=…` (RFC 8292 §3), or an Error saying what is wrong. */
async function verifyVapid(
  header: string | undefined,
  audience: string,
): Promise<{ claims: ReceivedPush['claims']; key: string } | Error> {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) return new Error('no vapid Authorization');
  const [, token, k] = m as unknown as [string, string, string];
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  try {
    const { payload, protectedHeader } = await jwtVerify(token, key, {
      algorithms: ['ES256'],
      audience,
    });
    const now = Date.now() / 1000;
    if (protectedHeader.alg !== 'ES256') return new Error('alg is not ES256');
    if (typeof payload.exp !== 'number' || payload.exp > now + 24 * 3600)
      return new Error('exp missing or more than 24 hours ahead');
    if (typeof payload.sub !== 'string' || !/^(mailto:|https:)/.test(payload.sub))
      return new Error('sub is not a mailto: or https: contact');
    return { claims: { aud: audience, exp: payload.exp, sub: payload.sub }, key: k };
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/**
 * Starts the fake. Each POST /push/<subscription id> is checked and decrypted; it answers the next of
 * `answers` (then 201), so a test can make it say 410, 429 or 503.
 */
export async function startFakePushService(answers: number[] = []) {
  const browsers = new Map<string, FakeBrowserKeys>();
  const received: ReceivedPush[] = [];
  const refused: { subscriptionId: string; status: number; why: string }[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  let origin = '';
  const settle = () => {
    for (const w of [...waiters])
      if (received.length >= w.n) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1] ?? '';
        const browser = browsers.get(id);
        const refuse = (status: number, why: string) => {
          refused.push({ subscriptionId: id, status, why });
          res.statusCode = status;
          res.end(why);
        };
        if (req.method !== 'POST' || !browser) return refuse(404, 'no such subscription');
        const vapid = await verifyVapid(req.headers.authorization, origin);
        if (vapid instanceof Error) return refuse(401, vapid.message);
        if (req.headers['content-encoding'] !== 'aes128gcm')
          return refuse(415, 'Content-Encoding must be aes128gcm');
        if (!/^\d+$/.test(String(req.headers.ttl ?? ''))) return refuse(400, 'TTL missing');
        let plaintext: string;
        try {
          plaintext = decryptAes128gcm(Buffer.concat(chunks), browser);
        } catch (err) {
          return refuse(400, `cannot decrypt: ${err instanceof Error ? err.message : String(err)}`);
        }
        const status = answers.shift() ?? 201;
        if (status === 429) res.setHeader('Retry-After', '0');
        received.push({
          subscriptionId: id,
          headers: req.headers,
          plaintext,
          claims: vapid.claims,
          vapidKey: vapid.key,
          at: performance.now(),
          status,
        });
        res.statusCode = status;
        res.end();
        settle();
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    refused,
    answers,
    /** The messages it accepted (201), decrypted. */
    delivered: () => received.filter((r) => r.status === 201),
    /**
     * A new browser's subscription, as `PushSubscription.toJSON()` gives it (endpoint here, the browser's
     * public key and auth secret), with the private half kept here for decrypting.
     */
    subscription(given?: Omit<FakeBrowserKeys, 'id'>) {
      const id = randomBytes(9).toString('base64url');
      let keys = given;
      if (!keys) {
        const ecdh = createECDH('prime256v1');
        ecdh.generateKeys();
        keys = {
          privateKey: ecdh.getPrivateKey(),
          publicKey: ecdh.getPublicKey(),
          auth: randomBytes(16),
        };
      }
      browsers.set(id, { id, ...keys });
      return {
        endpoint: `${origin}/push/${id}`,
        expirationTime: null,
        keys: {
          p256dh: keys.publicKey.toString('base64url'),
          auth: keys.auth.toString('base64url'),
        },
      };
    },
    /** Resolves once `n` messages were received (any status), rejecting after `ms`. */
    waitFor(n: number, ms = 30_000): Promise<void> {
      if (received.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `waited for ${n} pushes, got ${received.length} (refused: ${JSON.stringify(refused)})`,
              ),
            ),
          ms,
        );
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
export type FakePushService = Awaited<ReturnType<typeof startFakePushService>>;
