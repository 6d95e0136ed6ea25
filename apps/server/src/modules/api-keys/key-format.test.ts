import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_KEY_LENGTH, generateApiKey, hashApiKey, parseApiKey } from './key-format.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('API key format', () => {
  it('vf_live_ / vf_test_, 43 base62 characters of 32 random bytes and a 6-character checksum', () => {
    const live = generateApiKey('live');
    const test = generateApiKey('test');
    expect(live).toMatch(/^vf_live_[0-9A-Za-z]{49}$/);
    expect(test).toMatch(/^vf_test_[0-9A-Za-z]{49}$/);
    expect(live).toHaveLength(API_KEY_LENGTH);
    expect(API_KEY_LENGTH).toBe(57);
    expect(parseApiKey(live)).toEqual({ mode: 'live', prefix: live.slice(0, 12) });
    expect(parseApiKey(test)).toEqual({ mode: 'test', prefix: test.slice(0, 12) });
  });

  it('never repeats, and its random part uses the whole alphabet', () => {
    const keys = Array.from({ length: 500 }, () => generateApiKey('live'));
    expect(new Set(keys).size).toBe(keys.length);
    const used = new Set(keys.flatMap((key) => [...key.slice(8, 51)]));
    expect([...used].sort().join('')).toBe([...BASE62].sort().join(''));
  });

  it('one changed character anywhere in the random part or the checksum fails the checksum', () => {
    const key = generateApiKey('live');
    for (let i = 'vf_live_'.length; i < key.length; i++) {
      const original = key.charAt(i);
      const replacement = BASE62.charAt((BASE62.indexOf(original) + 1 + (i % 61)) % 62);
      const typo = `${key.slice(0, i)}${replacement}${key.slice(i + 1)}`;
      expect(parseApiKey(typo), `position ${i}`).toBeNull();
    }
    // Two neighbours swapped (the commonest typo after one wrong character).
    const swapAt = 20;
    const swapped = `${key.slice(0, swapAt)}${key.charAt(swapAt + 1)}${key.charAt(swapAt)}${key.slice(swapAt + 2)}`;
    if (swapped !== key) expect(parseApiKey(swapped)).toBeNull();
  });

  it('refuses a wrong prefix, length or alphabet without looking further', () => {
    const key = generateApiKey('test');
    const body = key.slice('vf_test_'.length);
    for (const text of [
      '',
      'vf_test_',
      `vf_prod_${body}`,
      `VF_TEST_${body}`,
      `sk_test_${body}`,
      `vf_test${body}`,
      key.slice(0, -1),
      `${key}0`,
      ` ${key}`,
      `${key}\n`,
      `vf_test_${body.slice(0, 10)}-${body.slice(11)}`,
      `vf_test_${body.slice(0, 10)}_${body.slice(11)}`,
      `vf_test_${body.slice(0, 10)}é${body.slice(11)}`,
    ]) {
      expect(parseApiKey(text), JSON.stringify(text)).toBeNull();
    }
    // The checksum covers the random part (as GitHub's does): a test key's under `vf_live_` parses, but the hash is of
    // the whole text, so no key is found for it.
    expect(parseApiKey(`vf_live_${body}`)).toEqual({ mode: 'live', prefix: `vf_live_${body.slice(0, 4)}` });
  });

  it('is kept as the SHA-256 of its whole text', () => {
    const key = generateApiKey('live');
    expect(hashApiKey(key)).toEqual(createHash('sha256').update(key).digest());
    expect(hashApiKey(key)).toHaveLength(32);
  });
});
