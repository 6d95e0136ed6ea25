import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A software WebAuthn authenticator for the tests (issue #38): real ES256 (P-256) key pairs from node:crypto, real
 * registration answers (attestation `none`, attested credential data with a COSE public key) and real assertions
 * (authenticator data with flags, counter and the RP id's hash; the signature over it and the client data's hash), as
 * a browser and a platform authenticator would make them. The server's WebAuthn library verifies them for real.
 * Each ceremony may be bent (another origin, another RP id, a counter set back) to test the refusals.
 */

/** The parts of the server's options a ceremony reads. */
type CreationOptions = { challenge: string; rp?: { id?: string }; user?: { id?: string } };
type RequestOptions = { challenge: string; rpId?: string };

export type Bend = {
  /** The page's origin in clientDataJSON (default: the authenticator's). */
  origin?: string;
  /** The RP id whose hash the authenticator data carries (default: the options', else the authenticator's). */
  rpId?: string;
  /** The signature counter to report (default: the credential's, plus one). */
  counter?: number;
  /** Whether the person was verified (UV flag); default true. */
  userVerified?: boolean;
  /** Sign with another key than the credential's (a forged assertion). */
  signWith?: KeyObject;
};

export type SoftCredential = {
  id: string;
  privateKey: KeyObject;
  publicKeyCose: Buffer;
  counter: number;
  userHandle: string | undefined;
};

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

// A minimal CBOR encoder (RFC 8949): unsigned and negative integers, byte and text strings, maps. Enough for an
// attestation object and a COSE key.
type Cbor = number | string | Buffer | Map<Cbor, Cbor>;

function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(length, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(length, 1);
  return b;
}

export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') {
    return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([cborHead(3, bytes.length), bytes]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([cborHead(2, value.length), value]);
  const parts: Buffer[] = [cborHead(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  if (!jwk.x || !jwk.y) throw new Error('not an EC key');
  return cbor(
    new Map<Cbor, Cbor>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x, 'base64url')],
      [-3, Buffer.from(jwk.y, 'base64url')],
    ]),
  );
}

export class SoftAuthenticator {
  readonly origin: string;
  readonly rpId: string;
  readonly credentials = new Map<string, SoftCredential>();

  /** `origin`: the app's public URL's origin (the tests' TEST_PUBLIC_URL). */
  constructor(origin: string) {
    this.origin = new URL(origin).origin;
    this.rpId = new URL(origin).hostname;
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, bend: Bend): Buffer {
    return Buffer.from(
      JSON.stringify({ type, challenge, origin: bend.origin ?? this.origin, crossOrigin: false }),
    );
  }

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const head = Buffer.alloc(37);
    sha256(rpId).copy(head, 0);
    head[32] = flags;
    head.writeUInt32BE(counter, 33);
    return attested ? Buffer.concat([head, attested]) : head;
  }

  /** Answers a registration ceremony's options (navigator.credentials.create) with a new credential. */
  register(options: CreationOptions, bend: Bend = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const rawId = randomBytes(16);
    const id = rawId.toString('base64url');
    const publicKeyCose = coseKey(publicKey);
    const counter = bend.counter ?? 0;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(rawId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, rawId, publicKeyCose]);
    const flags = FLAG_UP | (bend.userVerified === false ? 0 : FLAG_UV) | FLAG_AT;
    const rpId = bend.rpId ?? options.rp?.id ?? this.rpId;
    const authData = this.authData(rpId, flags, counter, attested);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    this.credentials.set(id, { id, privateKey, publicKeyCose, counter, userHandle: options.user?.id });
    return {
      id,
      rawId: id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge, bend).toString('base64url'),
        attestationObject: attestationObject.toString('base64url'),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }

  /**
   * Answers an assertion ceremony's options (navigator.credentials.get) with `credentialId` (default: the only or the
   * first credential held), counting its use.
   */
  assert(options: RequestOptions, credentialId?: string, bend: Bend = {}) {
    const credential = credentialId ? this.credentials.get(credentialId) : [...this.credentials.values()][0];
    if (!credential) throw new Error('the authenticator holds no such credential');
    const counter = bend.counter ?? credential.counter + 1;
    credential.counter = counter;
    const flags = FLAG_UP | (bend.userVerified === false ? 0 : FLAG_UV);
    const authData = this.authData(bend.rpId ?? options.rpId ?? this.rpId, flags, counter);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, bend);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      bend.signWith ?? credential.privateKey,
    );
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
        ...(credential.userHandle ? { userHandle: credential.userHandle } : {}),
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }
}

/** A key that belongs to no credential (for forged signatures). */
export function strayKey(): KeyObject {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
}
