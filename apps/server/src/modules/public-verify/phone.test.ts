import { describe, expect, it } from 'vitest';
import { maskEmail, maskPhone, parseCellPhone } from '../../domain/phone.ts';
import { CODE_PATTERN, codeMatches, hashCode, newAttemptId, newCode } from '../attempts/index.ts';

describe('parseCellPhone', () => {
  it.each([
    ['(201) 555-0123', '+12015550123', '+1 201 555 0123', 'US'],
    ['201.555.0123', '+12015550123', '+1 201 555 0123', 'US'],
    ['+1 201 555 0123', '+12015550123', '+1 201 555 0123', 'US'],
    ['(415) 200-0001', '+14152000001', '+1 415 200 0001', 'US'],
    ['+1 416 555 0123', '+14165550123', '+1 416 555 0123', 'CA'],
    ['+44 7400 123456', '+447400123456', '+44 7400 123456', 'GB'],
    ['+52 55 1234 5678', '+525512345678', '+52 55 1234 5678', 'MX'],
    ['+34 612 34 56 78', '+34612345678', '+34 612 34 56 78', 'ES'],
  ])('reads %s as %s (%s, %s)', (typed, e164, international, country) => {
    expect(parseCellPhone(typed)).toEqual({ ok: true, e164, international, country });
  });

  it.each(['12345', 'call me', '020 7946 0018', '+1 201 555 01234567', ''])(
    'refuses %j as invalid',
    (typed) => {
      expect(parseCellPhone(typed)).toEqual({ ok: false, reason: 'invalid' });
    },
  );

  it.each([
    ['+44 20 7946 0018', { e164: '+442079460018', international: '+44 20 7946 0018', country: 'GB' }],
    ['+33 1 23 45 67 89', { e164: '+33123456789', international: '+33 1 23 45 67 89', country: 'FR' }],
  ])('refuses the landline %s, keeping the number for a carrier asked for its line type', (typed, number) => {
    expect(parseCellPhone(typed)).toEqual({
      ok: false,
      reason: 'landline',
      fixedLine: { ok: true, ...number },
    });
  });

  it.each([
    ['premium rate, US', '+1 900 555 0100'],
    ['premium rate, UK', '+44 909 879 0000'],
    ['premium rate, Russia', '+7 809 123 45 67'],
    ['satellite, Iridium', '+881 6 1234 5678'],
    ['satellite, Inmarsat', '+870 773 111 632'],
    ['toll-free, US', '+1 800 555 0100'],
    ['shared cost, Spain', '+34 901 12 34 56'],
    ['VoIP, UK', '+44 56 1234 5678'],
    ['personal number, UK', '+44 70 1234 5678'],
    ['international networks', '+883 510 012 345'],
  ])('refuses %s (%s) as a number that cannot receive codes', (_kind, typed) => {
    expect(parseCellPhone(typed)).toEqual({ ok: false, reason: 'unsupported' });
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
