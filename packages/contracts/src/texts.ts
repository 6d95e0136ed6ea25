/** Texts of answers the spec leaves open (ours); kept here so the web app can match or show them verbatim. */
export const serverTexts = {
  resendVerificationEmail: 'If that address needs verifying, a new link is on its way.',
  malformedJson: 'The request body is not valid JSON.',
  /** U+0000 in a JSON body or a query string: PostgreSQL text cannot hold it (Django REST framework's wording). */
  nullCharacter: 'Null characters are not allowed.',
  /**
   * A lone UTF-16 surrogate (`"\ud800"` in a JSON body): no UTF-8 text holds one; PostgreSQL, encodeURIComponent
   * and hashing refuse or mangle it (issue #33 item 6).
   */
  loneSurrogate: 'Unpaired surrogate characters are not allowed.',
  resetPasswordSent: 'If an account uses that address, a link to reset the password is on its way.',
  wrongCurrentPassword: 'Your current password was entered incorrectly.',
  sameEmail: 'That is already your e-mail address.',
  emailChangeNothingPending: 'There is no pending e-mail change to resend.',
  /** POST /api/auth/change-email/cancel (the link sent to the old address). */
  emailChangeCancelled: 'The e-mail address change was cancelled. Your login keeps its address.',
  onlyOwner: (accountName: string) =>
    `You are the only owner of ${accountName}. Make someone else an owner, or close that account, first.`,
} as const;

function inMinutes(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** 429 after too many failed logins (per address or per IP). */
export const tooManyLoginAttemptsText = (retryAfterSeconds: number) =>
  `Too many failed login attempts. Try again in ${inMinutes(retryAfterSeconds)}.`;

/** 429 for any other limited action (e-mail sends, sign-ups, the generic per-IP backstop). */
export const tooManyRequestsText = (retryAfterSeconds: number) =>
  `Too many requests. Try again in ${inMinutes(retryAfterSeconds)}.`;
