import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createPasswords } from './passwords.ts';

describe('passwords (argon2id)', () => {
  it('hashes at OWASP’s cost unless asked for the tests’ cost; either checks any stored hash by its own parameters', async () => {
    const real = createPasswords({ fast: false });
    const fast = createPasswords({ fast: true });
    const realHash = await real.hashPassword('Correct horse 1');
    const fastHash = await fast.hashPassword('Correct horse 1');
    expect(realHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(fastHash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    for (const passwords of [real, fast]) {
      expect(await passwords.verifyPassword(realHash, 'Correct horse 1')).toBe(true);
      expect(await passwords.verifyPassword(fastHash, 'Correct horse 1')).toBe(true);
      expect(await passwords.verifyPassword(realHash, 'Correct horse 2')).toBe(false);
      expect(await passwords.verifyPassword('not a hash', 'Correct horse 1')).toBe(false);
      expect(await passwords.verifyAgainstDummy('anything')).toBe(false);
    }
  });

  it('the tests’ cost is refused in production and off by default', () => {
    const production = {
      NODE_ENV: 'production',
      SECRET_KEY: 'x'.repeat(64),
      PUBLIC_URL: 'https://veriform.example',
    };
    expect(() => loadConfig({ ...production, FAST_PASSWORD_HASHING: 'true' })).toThrow(
      /FAST_PASSWORD_HASHING/,
    );
    expect(loadConfig(production).fastPasswordHashing).toBe(false);
  });
});
