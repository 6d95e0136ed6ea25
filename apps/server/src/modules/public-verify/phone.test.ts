import { describe, expect, it } from 'vitest';
import { CODE_PATTERN, codeMatches, hashCode, newAttemptId, newCode } from './codes.ts';
import { maskEmail, maskPhone, parseCellPhone } from './phone.ts';

describe('parseCellPhone', () => {
  it.each([
    ['(201) 555-0123', '+12015550123', '+1 201 555 0123'],
    ['201.555.0123', '+12015550123', '+1 201 555 0123'],
    ['+1 201 555 0123', '+12015550123', '+1 201 555 0123'],
    ['+44 7400 123456', '+447400123456', '+44 7400 123456'],
    ['+52 55 1234 5678', '+525512345678', '+52 55 1234 5678'],
    ['+1 800 555 0100', '+18005550100', '+1 800 555 0100'],
  ])('reads %s as %s', (typed, e164, international) => {
    expect(parseCellPhone(typed)).toEqual({ ok: true, e164, international });
  });

  it.each(['12345', 'call me', '020 7946 0018', '+1 201 555 01234567', ''])(
    'refuses %j as invalid',
    (typed) => {
      expect(parseCellPhone(typed)).toEqual({ ok: false, reason: 'invalid' });
    },
  );

  it.each(['+44 20 7946 0018', '+33 1 23 45 67 89'])('refuses the landline %s', (typed) => {
    expect(parseCellPhone(typed)).toEqual({ ok: false, reason: 'landline' });
  });
});

describe('masks', () => {
  it('keeps the country code and the last four digits of a number', () => {
    expect(maskPhone('+12015550123')).toBe('+1 ••• ••• 0123');
    expect(maskPhone('+447400123456')).toBe('+44 •••• ••3456');
    expect(maskPhone('+525512345678')).toBe('+52 •• •••• 5678');
  });

  it('keeps the first character and the domain of an address', () => {
    expect(maskEmail('jane.doe@example.com')).toBe('j•••@example.com');
    expect(maskEmail('x@y.org')).toBe('x•••@y.org');
  });
});

describe('codes', () => {
  it('are six digits and attempt ids 128-bit base64url', () => {
    for (let i = 0; i < 200; i++) expect(newCode()).toMatch(CODE_PATTERN);
    expect(newAttemptId()).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('hash bound to the attempt and the key', () => {
    const hash = hashCode('k'.repeat(40), 'attempt-a', '123456');
    expect(codeMatches('k'.repeat(40), 'attempt-a', '123456', hash)).toBe(true);
    expect(codeMatches('k'.repeat(40), 'attempt-a', '123457', hash)).toBe(false);
    expect(codeMatches('k'.repeat(40), 'attempt-b', '123456', hash)).toBe(false);
    expect(codeMatches('j'.repeat(40), 'attempt-a', '123456', hash)).toBe(false);
  });
});
