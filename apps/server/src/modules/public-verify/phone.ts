import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Cell phone numbers of the public page, parsed by libphonenumber-js with its full metadata (`/max`: the number
 * types need it). Numbers without a country code are read as US numbers; the stored form is E.164.
 */

export const DEFAULT_COUNTRY = 'US';

export type ParsedCellPhone =
  | { ok: true; e164: string; international: string }
  | { ok: false; reason: 'invalid' | 'landline' };

/**
 * Only a number the metadata calls FIXED_LINE is refused as a landline: FIXED_LINE_OR_MOBILE (all of the US and
 * Canada), MOBILE, VOIP, toll-free and unknown types may receive texts, and refusing a real cell phone is worse than
 * letting a landline through (its code simply never arrives).
 */
export function parseCellPhone(input: string): ParsedCellPhone {
  const number = parsePhoneNumberFromString(input, DEFAULT_COUNTRY);
  if (!number?.isValid()) return { ok: false, reason: 'invalid' };
  if (number.getType() === 'FIXED_LINE') return { ok: false, reason: 'landline' };
  return { ok: true, e164: number.number, international: number.formatInternational() };
}

/** E.164 → "+1 201 555 0123" (the stored number, for reading). */
export function formatInternational(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}

const VISIBLE_DIGITS = 4;

/**
 * "+1 ••• ••• 0123": the country code and the last four digits stay, every other digit becomes a dot, the grouping
 * of the international format is kept. Enough for the consumer to recognise their number, not enough for someone
 * looking over their shoulder (or at a screenshot) to learn it.
 */
export function maskPhone(e164: string): string {
  const formatted = formatInternational(e164);
  const space = formatted.indexOf(' ');
  if (!formatted.startsWith('+') || space === -1) return maskDigits(e164, 0);
  return formatted.slice(0, space) + maskDigits(formatted.slice(space), VISIBLE_DIGITS);
}

function maskDigits(text: string, keepLast: number): string {
  const total = text.replace(/\D/g, '').length;
  let seen = 0;
  return text.replace(/\d/g, (digit) => {
    seen += 1;
    return seen > total - keepLast ? digit : '•';
  });
}

/** "j•••@example.com": the first character of the local part and the whole domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}
