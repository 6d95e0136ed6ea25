import { hash, verify } from '@node-rs/argon2';
import { randomToken } from './crypto.ts';

/** @node-rs/argon2's `Algorithm.Argon2id` (a const enum, which isolated modules cannot import). */
const ARGON2ID = 2;

/** argon2id with OWASP's minimum parameters (DESIGN §2): 19 MiB, 2 passes, 1 lane. */
export const OWASP_ARGON2ID = {
  algorithm: ARGON2ID,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * Tests only (config `fastPasswordHashing`, FAST_PASSWORD_HASHING, refused when NODE_ENV=production): argon2id all the
 * same, at 1 MiB and one pass. A test suite that signs up thousands of people spent ~12 % of its server CPU on the
 * real cost (14 ms of CPU a hash, measured 2026-11-30); what the tests prove of passwords (right, wrong, unknown, the
 * guess limits) does not depend on it, and the one test of timing (attack-checks) runs at the real cost.
 */
const FAST_FOR_TESTS = { algorithm: ARGON2ID, memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

/**
 * Hashing and checking passwords. A hash names its own parameters (`$argon2id$v=19$m=…,t=…,p=…`), so checking follows
 * the stored hash whatever the current cost; only new hashes take `options`.
 */
export function createPasswords(options: { fast: boolean }) {
  const parameters = options.fast ? FAST_FOR_TESTS : OWASP_ARGON2ID;

  function hashPassword(password: string): Promise<string> {
    return hash(password, parameters);
  }

  async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password);
    } catch {
      // A malformed stored hash is a failed login, not a server error.
      return false;
    }
  }

  let dummyHash: Promise<string> | undefined;

  /**
   * Verifies against a throwaway hash made at the same cost, so that a login for an unknown address takes as long as
   * one with a wrong password and timing does not reveal which addresses have accounts.
   */
  async function verifyAgainstDummy(password: string): Promise<false> {
    dummyHash ??= hashPassword(randomToken());
    await verifyPassword(await dummyHash, password);
    return false;
  }

  return { hashPassword, verifyPassword, verifyAgainstDummy };
}

export type Passwords = ReturnType<typeof createPasswords>;
