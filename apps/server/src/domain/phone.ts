import type { CarrierLineType } from '@veriform/contracts';
import { type CountryCode, type PhoneNumberType, parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Cell phone numbers of the public page, parsed by libphonenumber-js with its full metadata (`/max`: the default
 * metadata cannot tell number types apart). Numbers without a country code are read as US numbers; the stored form
 * is E.164.
 */

export const DEFAULT_COUNTRY = 'US';

/**
 * Any common way of typing a number, whatever its type (a number without a country is a US one): its E.164, or null
 * when it is no valid number. The activity log's search, the certificate page's unlock and a recorded revocation read
 * numbers so.
 */
export function e164Of(typed: string): string | null {
  const number = parsePhoneNumberFromString(typed, DEFAULT_COUNTRY);
  return number?.isValid() ? number.number : null;
}

/** Text made only of digits and what people type around them (spaces, brackets, +, -, /, dots): a number's reading. */
export const PHONE_TEXT = /^[\d\s().+\-/]+$/;

export type PhoneRefusal = 'invalid' | 'landline' | 'unsupported';

export type CellPhone = { ok: true; e164: string; international: string; country: CountryCode };

export type ParsedCellPhone =
  | CellPhone
  /**
   * A number the pattern calls a landline keeps its reading (`fixedLine`): where the account asks the carrier's line
   * type, the carrier's `mobile` overrules the pattern (issue #36 item 1, modules/attempts' issue decides).
   */
  | { ok: false; reason: 'landline'; fixedLine?: CellPhone }
  | { ok: false; reason: Exclude<PhoneRefusal, 'landline'> };

/**
 * The only types a code is sent to. All of the US and Canada is FIXED_LINE_OR_MOBILE (their plans do not tell cell
 * phones from landlines), so it must pass. Every other type is a toll-fraud route or cannot take a text: premium-rate
 * (+1 900, +44 9, +7 809) and shared-cost numbers pay whoever holds them for each message, toll-free, VoIP, personal,
 * pager, UAN and voicemail numbers forward to who knows where.
 */
const RECEIVING_TYPES: ReadonlySet<PhoneNumberType> = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE']);

/**
 * FIXED_LINE keeps its own text (the consumer mistyped which phone to use); other refused types get one text. A
 * number without a country — satellite (+881, +870) and the other non-geographic codes — is refused whatever its type:
 * the metadata calls satellite phones MOBILE, and they cost many times a national text.
 */
export function parseCellPhone(input: string): ParsedCellPhone {
  const number = parsePhoneNumberFromString(input, DEFAULT_COUNTRY);
  if (!number?.isValid()) return { ok: false, reason: 'invalid' };
  const type = number.getType();
  const reading: CellPhone | null = number.country
    ? { ok: true, e164: number.number, international: number.formatInternational(), country: number.country }
    : null;
  if (type === 'FIXED_LINE')
    return reading
      ? { ok: false, reason: 'landline', fixedLine: reading }
      : { ok: false, reason: 'landline' };
  if (!reading || !type || !RECEIVING_TYPES.has(type)) return { ok: false, reason: 'unsupported' };
  return reading;
}

/**
 * What the carrier's line type (Twilio Lookup's, issue #36) says of where a code may go, by the same rule as the
 * pattern's RECEIVING_TYPES: `mobile` receives; `landline` is refused with its own text; every other type it names
 * (VoIP, toll-free, premium, shared-cost, personal, UAN, voicemail, pager) is refused as the pattern refuses them.
 * Null when the carrier told nothing (`unknown`, no type): the pattern's answer stands.
 */
export function carrierLineVerdict(lineType: CarrierLineType | null): 'receives' | PhoneRefusal | null {
  if (lineType === null || lineType === 'unknown') return null;
  if (lineType === 'mobile') return 'receives';
  return lineType === 'landline' ? 'landline' : 'unsupported';
}

/** A number a code may not go to: not a cell phone (parseCellPhone's reasons), or of a country the account refuses. */
export type CellPhoneRefusal = PhoneRefusal | 'country';

export type CheckedCellPhone =
  | CellPhone
  | Extract<ParsedCellPhone, { ok: false }>
  | { ok: false; reason: 'country'; country: CountryCode };

/**
 * The one check of where a code may go (the hosted page and API v1 alike): a cell phone by parseCellPhone, of a
 * country in the account's allow-list. Each adapter words the refusal in its own texts.
 */
export function checkCellPhone(
  parsed: ParsedCellPhone,
  allowedCountries: readonly string[],
): CheckedCellPhone {
  if (!parsed.ok) {
    // A landline of a country the account refuses stays a landline, without the reading a carrier could overrule.
    if (
      parsed.reason === 'landline' &&
      parsed.fixedLine &&
      !allowedCountries.includes(parsed.fixedLine.country)
    )
      return { ok: false, reason: 'landline' };
    return parsed;
  }
  if (!allowedCountries.includes(parsed.country))
    return { ok: false, reason: 'country', country: parsed.country };
  return parsed;
}

const regionNames = new Map<string, Intl.DisplayNames>();

/** "Canada" / "Canadá": a country's name in the form's language (Node's ICU), for refusals that name it. */
export function countryName(country: string, language: string): string {
  let names = regionNames.get(language);
  if (!names) {
    names = new Intl.DisplayNames([language], { type: 'region' });
    regionNames.set(language, names);
  }
  return names.of(country) ?? country;
}

/** The country of a stored number (E.164), or null when it belongs to none (a US reassigned-number check needs US). */
export function countryOfNumber(e164: string): CountryCode | null {
  return parsePhoneNumberFromString(e164)?.country ?? null;
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
  return maskFormatted(formatInternational(e164), e164);
}

/** maskPhone of a number whose international format is known already (a parsed number's): no second parse. */
export function maskFormatted(formatted: string, e164: string): string {
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
