import { EMAIL_CHANGE_RESEND_SECONDS, type EmailChangeRequest, emailSchema } from '@veriform/contracts';

/** What the e-mail field offers for the address typed into it (SPEC §4). */
export type EmailChangeAction = 'send' | 'resend' | null;

/** Addresses compare without surrounding spaces and case (the server stores them lower-cased). */
export function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** A request whose link can still be sent again: pending or expired, with a target address. */
export function hasOpenEmailChange(
  request: EmailChangeRequest | null | undefined,
): request is EmailChangeRequest {
  return Boolean(
    request && (request.status === 'pending' || request.status === 'expired') && request.toEmail,
  );
}

/**
 * SPEC §4: the typed address equals an open (pending or expired) request's target → Resend; a different, valid
 * address that is not the current one → Send; empty, unchanged or not (yet) an address → no action.
 */
export function emailChangeAction(
  typed: string,
  currentEmail: string,
  request: EmailChangeRequest | null | undefined,
): EmailChangeAction {
  const email = typed.trim();
  if (!email) return null;
  if (hasOpenEmailChange(request) && sameEmail(email, request.toEmail)) return 'resend';
  if (sameEmail(email, currentEmail)) return null;
  return emailSchema.safeParse(email).success ? 'send' : null;
}

/**
 * Whole seconds until the server takes another change e-mail (request or resend): it sends at most one every
 * EMAIL_CHANGE_RESEND_SECONDS, counted from the request's `lastSentAChangeEmailAt`. 0 when a send is possible. Never
 * more than the spacing itself, so a clock running behind the server's cannot make the wait look longer.
 */
export function secondsUntilNextSend(request: EmailChangeRequest | null | undefined, nowMs: number): number {
  const lastSent = request?.lastSentAChangeEmailAt ? Date.parse(request.lastSentAChangeEmailAt) : Number.NaN;
  if (Number.isNaN(lastSent)) return 0;
  const left = Math.ceil((lastSent + EMAIL_CHANGE_RESEND_SECONDS * 1000 - nowMs) / 1000);
  return Math.min(EMAIL_CHANGE_RESEND_SECONDS, Math.max(0, left));
}
