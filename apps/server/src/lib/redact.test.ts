import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact.ts';

describe('redactUrl', () => {
  it.each([
    ['/auth/verify-email/confirm/MQ/abc-def/', '/auth/verify-email/confirm/MQ/[redacted]/'],
    ['/follow-invitation/?key=secret', '/follow-invitation/?key=[redacted]'],
    ['/auth/login/from-invitation?a=1&KEY=secret&b=2', '/auth/login/from-invitation?a=1&KEY=[redacted]&b=2'],
    ['/follow-invitation/?%6Bey=secret', '/follow-invitation/?%6Bey=[redacted]'],
    ['/follow-invitation/?key', '/follow-invitation/?key=[redacted]'],
    ['/x?monkey=1&keys=2', '/x?monkey=1&keys=2'],
    ['/x?%E0%A4%A=1', '/x?%E0%A4%A=1'],
    ['/plain/path', '/plain/path'],
  ])('%s → %s', (input, output) => {
    expect(redactUrl(input)).toBe(output);
  });
});
