import { randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { sha256Hex } from '../../lib/crypto.ts';

const { recoveryCodes } = schema;

/** Lower-case letters and digits: 36^10 ≈ 2^51.7 per code, read aloud or typed without ambiguity of case. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const HALF = 5;

function randomChars(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/**
 * The stored form of a code: SHA-256 of its 10 characters (the contract's recoveryCodeSchema already dropped the
 * hyphen and the case). A code is 51 random bits, too many to try against a leaked hash table, so a plain hash does.
 */
export const recoveryCodeHash = (normalized: string): string => sha256Hex(normalized);

/**
 * Replaces the person's recovery codes with RECOVERY_CODE_COUNT new ones (from the CSPRNG, `xxxxx-xxxxx`), in the
 * caller's transaction; answers them, the only time they are ever seen: only their hashes are stored.
 */
export async function replaceRecoveryCodes(tx: Db, userId: number, now: Date): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(randomChars(HALF * 2));
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx
    .insert(recoveryCodes)
    .values([...codes].map((code) => ({ userId, codeHash: recoveryCodeHash(code), createdAt: now })));
  return [...codes].map((code) => `${code.slice(0, HALF)}-${code.slice(HALF)}`);
}
