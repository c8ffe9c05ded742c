import { createECDH } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptAes128gcm } from '../../testing/fake-push-service.js';
import { PUSH_SENDER_DEFAULTS, pushTopic, sendPush } from './push-sender.js';
import { startFakePushService } from '../../testing/fake-push-service.js';
import { vapidPublicKeyOf } from './vapid-keys.js';

const b64 = (s: string) => Buffer.from(s, 'base64url');

describe('the fake push service decrypts as a browser does', () => {
  it('never sends to this machine or a private network unless PUSH_ALLOW_PRIVATE', async () => {
    const vapid = { privateKey: 'x', publicKey: 'y', subject: 'mailto:ops@example.test' };
    for (const endpoint of [
      'http://127.0.0.1:9/push/a',
      'https://10.0.0.8/push/a',
      'https://169.254.169.254/x',
    ]) {
      const outcome = await sendPush(
        { endpoint, p256dh: 'p', auth: 'a' },
        { payload: '{}', topic: 't', urgency: 'normal', ttlSeconds: 60 },
        vapid,
      );
      expect(outcome, endpoint).toMatchObject({ result: 'failed', tries: 0 });
      expect(outcome.error, endpoint).toMatch(/refused address/);
    }
  });

  // RFC 8291 Appendix A ("Push Message Encryption Example"): the user agent's keys, the auth secret and the
  // encrypted body printed there decrypt to the printed plain text.
  it("RFC 8291 Appendix A's example decrypts to its plain text", () => {
    const ua = {
      privateKey: b64('q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94'),
      publicKey: b64(
        'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
      ),
      auth: b64('BTBZMqHH6r4Tts7J_aSIgg'),
    };
    const body = b64(
      'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
    );
    expect(decryptAes128gcm(body, ua)).toBe('When I grow up, I want to be a watermelon');
  });

  it('a message web-push encrypts and signs reaches the fake, decrypted and its VAPID JWT verified', async () => {
    const fake = await startFakePushService();
    try {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const privateKey = ecdh.getPrivateKey().toString('base64url');
      const vapid = {
        privateKey,
        publicKey: vapidPublicKeyOf(privateKey),
        subject: 'mailto:ops@example.test',
      };
      const sub = fake.subscription();
      const outcome = await sendPush(
        { endpoint: sub.endpoint, ...sub.keys },
        { payload: '{"hello":"世界"}', topic: pushTopic('a'), urgency: 'high', ttlSeconds: 60 },
        vapid,
        { ...PUSH_SENDER_DEFAULTS, allowPrivate: true },
      );
      expect(outcome).toMatchObject({ result: 'accepted', status: 201, tries: 1 });
      const [got] = fake.delivered();
      expect(got?.plaintext).toBe('{"hello":"世界"}');
      expect(got?.claims.aud).toBe(fake.origin);
      expect(got?.vapidKey).toBe(vapid.publicKey);
      expect(got?.headers.urgency).toBe('high');
      expect(got?.headers.topic).toBe(pushTopic('a'));
    } finally {
      await fake.close();
    }
  });
});
