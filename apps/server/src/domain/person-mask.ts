import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { maskEmail, maskPhone } from './phone.ts';

/**
 * The person behind one verification as texts may name them, and those texts masked (issue #19, #33): the redaction
 * masks the verification's own rows (modules/attempts) and the other copies of them (modules/verifications, API v1's
 * stored answers) by the same spellings, so the rule lives here, below both.
 */

/** The masked forms are idempotent (a masked number masks to itself), so a row masked twice stays as it was. */
export const maskedEmail = (email: string | null): string | null =>
  email === null ? null : maskEmail(email);

/**
 * Every way a text may spell the number (issue #33): E.164 `+15555550123`, with spaces `+1 555 555 0123`, the
 * country code's digits `15555550123`, the national digits `5555550123`, and the national groups as people write them
 * `(555) 555-0123`, `555-555-0123`, `555.555.0123`, `555 555 0123`. Longest first, so a longer spelling is masked
 * whole before a shorter one inside it could be.
 */
export function phoneSpellings(e164: string): string[] {
  const number = parsePhoneNumberFromString(e164);
  if (!number) return [e164];
  const national = String(number.nationalNumber);
  const international = number.formatInternational();
  const groups = international.slice(international.indexOf(' ') + 1).split(' ');
  const spellings = new Set([
    e164,
    international,
    `${number.countryCallingCode}${national}`,
    number.formatNational(),
    groups.join('-'),
    groups.join('.'),
    groups.join(' '),
    national,
  ]);
  return [...spellings].sort((a, b) => b.length - a.length);
}

/** `text` with every character a regular expression reads specially escaped: an address matched as written. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The person behind one verification as texts may name them: every spelling of the number, the address in any case. */
export type Person = { cellPhone: string; email: string | null };

/** `text` with every spelling of the person's number and address masked (the rest kept). */
export function maskPerson(text: string, person: Person): string {
  let masked = text;
  const shown = maskPhone(person.cellPhone);
  for (const spelling of phoneSpellings(person.cellPhone)) masked = masked.split(spelling).join(shown);
  if (person.email)
    masked = masked.replace(new RegExp(escapeRegExp(person.email), 'gi'), maskEmail(person.email));
  return masked;
}
