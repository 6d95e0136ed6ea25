import type { User } from '@veriform/contracts';

export type GateTarget = '/auth/login' | '/auth/signup/verify-email' | '/auth/verify-email';

/**
 * SPEC §4 gate: anonymous → login; e-mail never verified → the sign-up verification page; verified once but not now
 * (the address changed) → the re-verification page; otherwise the user may pass (null).
 */
export function gateTarget(user: User): GateTarget | null {
  if (!user.isAuthenticated) return '/auth/login';
  if (!user.emailIsVerified)
    return user.emailVerifiedAsOf ? '/auth/verify-email' : '/auth/signup/verify-email';
  return null;
}

/**
 * A signed-in user without any membership: the root sends them to create a company; the pages that work in an
 * account show "No membership found" (SPEC §6) instead.
 */
export function needsAccount(session: { user: User; memberships: readonly unknown[] }): boolean {
  return session.user.isAuthenticated && session.memberships.length === 0;
}
