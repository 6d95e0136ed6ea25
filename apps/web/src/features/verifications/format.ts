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
