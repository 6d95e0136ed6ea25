import type { EmailChangeRequest, EmailChangeStatus } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { emailChangeAction, hasOpenEmailChange } from './email-change';

function request(status: EmailChangeStatus, toEmail = 'new@example.com'): EmailChangeRequest {
  return {
    id: status ? 7 : null,
    user: 1,
    fromEmail: 'ada@example.com',
    toEmail: status ? toEmail : '',
    requestedAt: status ? '2026-01-01T00:00:00Z' : null,
    successfullyChangedAt: null,
    lastRequestedANewFromOrToEmailAt: null,
    lastSentAChangeEmailAt: null,
    lastSuccessfullyChangedAt: null,
    status,
    status_display: status,
  };
}

const current = 'ada@example.com';

describe('emailChangeAction (SPEC §4)', () => {
  it('offers nothing for an empty or unchanged address', () => {
    expect(emailChangeAction('', current, null)).toBeNull();
    expect(emailChangeAction('   ', current, request('pending'))).toBeNull();
    expect(emailChangeAction(current, current, null)).toBeNull();
    expect(emailChangeAction(' ADA@example.com ', current, request(''))).toBeNull();
    expect(emailChangeAction(current, current, request('pending'))).toBeNull();
  });

  it('offers Send for a different, valid address', () => {
    expect(emailChangeAction('other@example.com', current, null)).toBe('send');
    expect(emailChangeAction('other@example.com', current, request(''))).toBe('send');
    expect(emailChangeAction('other@example.com', current, request('pending'))).toBe('send');
    expect(emailChangeAction(' other@example.com ', current, request('successfully_changed'))).toBe('send');
  });

  it('offers nothing while the text is not an address yet', () => {
    expect(emailChangeAction('other@', current, null)).toBeNull();
    expect(emailChangeAction('not an address', current, null)).toBeNull();
  });

  it('offers Resend for the target of a pending or expired request', () => {
    expect(emailChangeAction('new@example.com', current, request('pending'))).toBe('resend');
    expect(emailChangeAction('NEW@example.com ', current, request('expired'))).toBe('resend');
  });

  it('offers Send again once the request to that address has completed', () => {
    expect(emailChangeAction('new@example.com', current, request('successfully_changed'))).toBe('send');
  });

  it('knows which requests are open', () => {
    expect(hasOpenEmailChange(null)).toBe(false);
    expect(hasOpenEmailChange(request(''))).toBe(false);
    expect(hasOpenEmailChange(request('pending'))).toBe(true);
    expect(hasOpenEmailChange(request('expired'))).toBe(true);
    expect(hasOpenEmailChange(request('successfully_changed'))).toBe(false);
  });
});
