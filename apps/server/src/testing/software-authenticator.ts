import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A passkey authenticator in software, so the server's tests run the real WebAuthn verification
 * (@simplewebauthn/server) on real answers: ES256 (P-256) keys, `none` attestation, the
 * authenticator data of WebAuthn Level 3 §6.1 and the signature of §6.3.3 (over authData ‖
 * SHA-256(clientDataJSON), DER as WebAuthn's ES256 is). It keeps discoverable credentials, as a
 * phone or a laptop does: `assert` without a credential id picks the only one for the relying party.
 */

// --- The little CBOR (RFC 8949) an attestation object and a COSE key need ---------------------
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;
function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  const b = Buffer.alloc(3);
  b[0] = (major << 5) | 25;
  b.writeUInt16BE(length, 1);
  return b;
}
function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** User present, user verified, attested credential data (WebAuthn §6.1 flags). */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

interface Credential {
  id: Buffer;
  rpId: string;
  key: KeyObject;
  userHandle: string;
  counter: number;
}

export interface CreationOptionsLike {
  challenge: string;
  rp: { id?: string | undefined };
  user: { id: string };
}
export interface RequestOptionsLike {
  challenge: string;
  rpId?: string | undefined;
  allowCredentials?: { id: string }[] | undefined;
}

export interface CeremonyOverrides {
  /** Another origin than the relying party's (a phishing page). */
  origin?: string;
  /** Another challenge than the options' (a replay of an earlier one). */
  challenge?: string;
  /** Without user verification (the authenticator was only touched). */
  userVerified?: boolean;
  /** Signed with another key than the registered one. */
  wrongKey?: boolean;
}

export function softwareAuthenticator(origin: string) {
  const credentials: Credential[] = [];

  function clientData(
    type: 'webauthn.create' | 'webauthn.get',
    challenge: string,
    o: CeremonyOverrides,
  ) {
    return Buffer.from(
      JSON.stringify({
        type,
        challenge: o.challenge ?? challenge,
        origin: o.origin ?? origin,
        crossOrigin: false,
      }),
    );
  }

  function authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([
      sha256(rpId),
      Buffer.from([flags]),
      count,
      ...(attested ? [attested] : []),
    ]);
  }

  return {
    credentials,

    /** navigator.credentials.create(): the RegistrationResponseJSON the browser would send. */
    register(options: CreationOptionsLike, o: CeremonyOverrides = {}) {
      const rpId = options.rp.id ?? new URL(origin).hostname;
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const coseKey = cbor(
        new Map<Cbor, Cbor>([
          [1, 2], // kty: EC2
          [3, -7], // alg: ES256
          [-1, 1], // crv: P-256
          [-2, Buffer.from(jwk.x ?? '', 'base64url')],
          [-3, Buffer.from(jwk.y ?? '', 'base64url')],
        ]),
      );
      const id = randomBytes(16);
      const length = Buffer.alloc(2);
      length.writeUInt16BE(id.length);
      const attested = Buffer.concat([Buffer.alloc(16), length, id, coseKey]);
      const flags = UP | AT | (o.userVerified === false ? 0 : UV);
      const data = authData(rpId, flags, 0, attested);
      const attestationObject = cbor(
        new Map<Cbor, Cbor>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', data],
        ]),
      );
      credentials.push({ id, rpId, key: privateKey, userHandle: options.user.id, counter: 0 });
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge, o)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
      };
    },

    /** navigator.credentials.get(): the AuthenticationResponseJSON the browser would send. */
    assert(options: RequestOptionsLike, o: CeremonyOverrides & { credentialId?: string } = {}) {
      const rpId = options.rpId ?? new URL(origin).hostname;
      const allowed = (options.allowCredentials ?? []).map((c) => c.id);
      const credential = credentials.find((c) =>
        o.credentialId
          ? b64url(c.id) === o.credentialId
          : c.rpId === rpId && (allowed.length === 0 || allowed.includes(b64url(c.id))),
      );
      if (!credential) throw new Error('no credential for this relying party');
      credential.counter += 1;
      const data = authData(rpId, UP | (o.userVerified === false ? 0 : UV), credential.counter);
      const client = clientData('webauthn.get', options.challenge, o);
      const key = o.wrongKey
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey
        : credential.key;
      const signature = sign('sha256', Buffer.concat([data, sha256(client)]), key);
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(client),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          userHandle: credential.userHandle,
        },
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
      };
    },
  };
}
export type SoftwareAuthenticator = ReturnType<typeof softwareAuthenticator>;
