import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { ApiKeyMode } from '@veriform/contracts';

/**
 * The text of an API key (ADR 16): `vf_live_` or `vf_test_`, 32 random bytes in base62 (43 characters, zero-padded so
 * every key has the same length), then the CRC-32 of those 43 characters in base62 (6 characters). The checksum lets
 * a typo, a truncated paste or a made-up token fail here, before any database query; it is no secret (anyone can
 * compute it), the 256 random bits are. Secret scanners can recognise our keys by the same shape.
 */

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_BYTES = 32;
/** ⌈256 / log2(62)⌉: the base62 length of the largest 32-byte value. */
const RANDOM_LENGTH = 43;
/** ⌈32 / log2(62)⌉. */
const CHECKSUM_LENGTH = 6;
/** What lists and logs show of a key: `vf_live_` and 4 random characters (24 bits: tells keys apart, opens nothing). */
export const API_KEY_PREFIX_LENGTH = 12;

const SHAPE = new RegExp(`^vf_(live|test)_([0-9A-Za-z]{${RANDOM_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`);
export const API_KEY_LENGTH = 'vf_live_'.length + RANDOM_LENGTH + CHECKSUM_LENGTH;

function base62(value: bigint, length: number): string {
  let text = '';
  let rest = value;
  while (rest > 0n) {
    text = ALPHABET.charAt(Number(rest % 62n)) + text;
    rest /= 62n;
  }
  return text.padStart(length, '0');
}

const checksumOf = (random: string): string => base62(BigInt(crc32(random)), CHECKSUM_LENGTH);

/** A new key of `mode`, from `crypto.randomBytes`. */
export function generateApiKey(mode: ApiKeyMode): string {
  const random = base62(BigInt(`0x${randomBytes(RANDOM_BYTES).toString('hex')}`), RANDOM_LENGTH);
  return `vf_${mode}_${random}${checksumOf(random)}`;
}

export type ParsedApiKey = { mode: ApiKeyMode; prefix: string };

/** The key's mode and prefix when `text` has our shape and its checksum holds; null otherwise (no query needed). */
export function parseApiKey(text: string): ParsedApiKey | null {
  const match = SHAPE.exec(text);
  const mode = match?.[1];
  const random = match?.[2];
  if ((mode !== 'live' && mode !== 'test') || random === undefined) return null;
  if (match?.[3] !== checksumOf(random)) return null;
  return { mode, prefix: text.slice(0, API_KEY_PREFIX_LENGTH) };
}

/** What the table keeps of a key: the SHA-256 of its whole text (32 bytes). */
export function hashApiKey(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
