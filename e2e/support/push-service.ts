import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  randomBytes,
  verify,
} from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A push service on 127.0.0.1 for the browser stories (the server's tests have their own twin,
 * apps/server/src/testing/fake-push-service.ts; the e2e project may not import the apps). After RFC 8030
 * §5 (POST to the endpoint, 201 Created), it checks the RFC 8292 VAPID header (ES256 JWT signed by `k`,
 * `aud` this origin, `exp` at most 24 h ahead) and DECRYPTS the RFC 8291 aes128gcm body with the private
 * key of the subscription it made, as the browser would; what it decrypted is what the story hands to the
 * page's service worker.
 */
const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

function decrypt(
  body: Buffer,
  ua: { privateKey: Buffer; publicKey: Buffer; auth: Buffer },
): string {
  const salt = body.subarray(0, 16);
  const idlen = body.readUInt8(20);
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(ua.privateKey);
  const ikm = hmac(
    hmac(ua.auth, ecdh.computeSecret(asPublic)),
    Buffer.concat([Buffer.from('WebPush: info\0'), ua.publicKey, asPublic, Buffer.from([1])]),
  );
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([
    decipher.update(record.subarray(0, record.length - 16)),
    decipher.final(),
  ]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

function vapidProblem(header: string | undefined, audience: string): string | null {
  const m = /^vapid t=([\w-]+)\.([\w-]+)\.([\w-]+),\s*k=([\w-]+)$/.exec(header ?? '');
  if (!m) return 'no vapid Authorization';
  const [, head, claims, signature, k] = m as unknown as [string, string, string, string, string];
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
  const signed = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) return 'bad ES256 signature';
  const alg = (JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string }).alg;
  const c = JSON.parse(Buffer.from(claims, 'base64url').toString()) as {
    aud?: string;
    exp?: number;
    sub?: string;
  };
  if (alg !== 'ES256') return 'alg is not ES256';
  if (c.aud !== audience) return `aud ${c.aud} is not ${audience}`;
  const now = Date.now() / 1000;
  if (typeof c.exp !== 'number' || c.exp < now || c.exp > now + 24 * 3600) return 'bad exp';
  if (!c.sub) return 'no sub';
  return null;
}

export async function startPushService() {
  const browsers = new Map<string, { privateKey: Buffer; publicKey: Buffer; auth: Buffer }>();
  const delivered: { subscriptionId: string; plaintext: string }[] = [];
  const refused: string[] = [];
  let origin = '';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1] ?? '';
      const browser = browsers.get(id);
      const problem = !browser
        ? 'no such subscription'
        : (vapidProblem(req.headers.authorization, origin) ??
          (req.headers['content-encoding'] === 'aes128gcm' ? null : 'not aes128gcm'));
      if (problem || !browser) {
        refused.push(problem ?? 'refused');
        res.statusCode = browser ? 401 : 404;
        return res.end(problem);
      }
      try {
        delivered.push({ subscriptionId: id, plaintext: decrypt(Buffer.concat(chunks), browser) });
        res.statusCode = 201;
      } catch (err) {
        refused.push(String(err));
        res.statusCode = 400;
      }
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    delivered,
    refused,
    /** A subscription as `PushSubscription.toJSON()` gives it; the private half stays here. */
    subscription() {
      const id = randomBytes(9).toString('base64url');
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const keys = {
        privateKey: ecdh.getPrivateKey(),
        publicKey: ecdh.getPublicKey(),
        auth: randomBytes(16),
      };
      browsers.set(id, keys);
      return {
        endpoint: `${origin}/push/${id}`,
        expirationTime: null,
        keys: {
          p256dh: keys.publicKey.toString('base64url'),
          auth: keys.auth.toString('base64url'),
        },
      };
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
