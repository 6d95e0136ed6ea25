import type { VerificationMethod } from '@veriform/contracts';

/**
 * A stored E.164 number for reading. North American numbers (+1 and ten digits, the product's default country)
 * become "+1 (201) 555-0123"; any other number stays in E.164, which is already unambiguous. The server parsed and
 * validated the number (libphonenumber-js); this only inserts separators, so the web app does not ship phone metadata.
 */
export function formatPhoneForReading(e164: string): string {
  const nanp = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return nanp ? `+1 (${nanp[1]}) ${nanp[2]}-${nanp[3]}` : e164;
}

export const methodLabels: Record<VerificationMethod, string> = { sms: 'SMS', email: 'E-mail' };

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** An instant in the user's local time zone and locale. */
export function formatDateTime(iso: string): string {
  return dateTimeFormat.format(new Date(iso));
}

const integerFormat = new Intl.NumberFormat('en-US');

/** A count in the app's English texts: 1,234. */
export function formatCount(value: number): string {
  return integerFormat.format(value);
}

/**
 * The time from the code being sent to the right code being entered, for reading: "42 s", "3 min 5 s", "2 h 4 min".
 * Null when either end is unknown (a verification made before the evidence was kept).
 */
export function formatTimeToVerify(codeSentAt: string | null, verifiedAt: string | null): string | null {
  if (!codeSentAt || !verifiedAt) return null;
  const ms = Date.parse(verifiedAt) - Date.parse(codeSentAt);
  if (!Number.isFinite(ms) || ms < 0) return null;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}
