import { anonymousUser, type User } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { gateTarget, needsAccount } from './gate';

const user = (over: Partial<User>): User => ({
  ...anonymousUser,
  id: 1,
  name: 'A',
  email: 'a@example.com',
  isAuthenticated: true,
  emailIsVerified: true,
  emailVerifiedAsOf: '2026-01-01T00:00:00Z',
  ...over,
});

describe('gateTarget', () => {
  it('sends anonymous visitors to login', () => {
    expect(gateTarget(anonymousUser)).toBe('/auth/login');
  });
  it('sends never-verified users to the sign-up verification page', () => {
    expect(gateTarget(user({ emailIsVerified: false, emailVerifiedAsOf: null }))).toBe(
      '/auth/signup/verify-email',
    );
  });
  it('sends users verified earlier to the re-verification page', () => {
    expect(gateTarget(user({ emailIsVerified: false }))).toBe('/auth/verify-email');
  });
  it('lets verified users pass', () => {
    expect(gateTarget(user({}))).toBeNull();
  });
});

describe('needsAccount', () => {
  it('is true for a signed-in user without memberships only', () => {
    expect(needsAccount({ user: user({}), memberships: [] })).toBe(true);
    expect(needsAccount({ user: user({}), memberships: [{}] })).toBe(false);
    expect(needsAccount({ user: anonymousUser, memberships: [] })).toBe(false);
  });
});
