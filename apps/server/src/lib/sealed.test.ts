import { describe, expect, it } from 'vitest';
import { createSealer, SealedValueError } from './sealed.ts';

const KEY = 'a-secret-key-that-is-long-enough-for-the-tests';

describe('sealed values', () => {
  const sealer = createSealer(KEY);

  it('opens what it sealed, under the same context', () => {
    const sealed = sealer.seal('482913', 'attempt-1');
    expect(sealed).toMatch(/^v1\.[\w-]+$/);
    expect(sealed).not.toContain('482913');
    expect(sealer.open(sealed, 'attempt-1')).toBe('482913');
  });

  it('seals the same text differently every time (random IV)', () => {
    expect(sealer.seal('482913', 'a')).not.toBe(sealer.seal('482913', 'a'));
  });

  it('refuses another context, another key, and any altered byte', () => {
    const sealed = sealer.seal('482913', 'attempt-1');
    expect(() => sealer.open(sealed, 'attempt-2')).toThrow(SealedValueError);
    expect(() => createSealer(`${KEY}-other`).open(sealed, 'attempt-1')).toThrow(SealedValueError);

    const raw = Buffer.from(sealed.slice(3), 'base64url');
    for (const index of [0, 12, raw.length - 1]) {
      const altered = Buffer.from(raw);
      altered[index] = (altered[index] ?? 0) ^ 1;
      expect(() => sealer.open(`v1.${altered.toString('base64url')}`, 'attempt-1')).toThrow(SealedValueError);
    }
  });

  it('refuses malformed input', () => {
    for (const value of ['', '482913', 'v2.abc', 'v1.', 'v1.short']) {
      expect(() => sealer.open(value, 'attempt-1')).toThrow(SealedValueError);
    }
  });
});
