import { type VerificationSearch, verificationSearchSchema } from '@veriform/contracts';

/**
 * The router reads each search value with JSON.parse first (TanStack's default parseSearch), so a hand-written or
 * older link gives numbers where the contracts' schemas expect text: `?verifyFormId__in=7` arrives as 7, `?q=5550123`
 * as 5550123, and the schema's fallbacks would then drop them silently. Scalars go back to text (and lists of scalars
 * to lists of text) before the schema reads them; links the app writes itself round-trip either way.
 */
export function searchValuesAsText(raw: Record<string, unknown>): Record<string, unknown> {
  const asText = (value: unknown): unknown =>
    typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
  return Object.fromEntries(
    Object.entries(raw).map(([key, value]) => [
      key,
      Array.isArray(value) ? value.map(asText) : asText(value),
    ]),
  );
}

/**
 * `validateSearch` of /activity-log/ and /activity-log/{id} (SPEC §2). A function rather than the schema itself so
 * that (1) the values are read as above and (2) `navigate({search})` takes the parsed shape (form ids as numbers), not
 * the schema's URL input shape.
 */
export function validateVerificationSearch(raw: Record<string, unknown>): VerificationSearch {
  return verificationSearchSchema.parse(searchValuesAsText(raw));
}

/** The defaults, kept out of the URL (the plain link is /activity-log/). */
export const verificationSearchDefaults: VerificationSearch = verificationSearchSchema.parse({});

/**
 * The log's view as it carries over to another account: forms (by id) and categories are the previous account's, and
 * a page number means nothing in another list; the method, dates, time zone, search, sort and page size keep their
 * meaning.
 */
export function verificationSearchForAnotherAccount(search: VerificationSearch): VerificationSearch {
  return { ...search, verifyFormId__in: undefined, verifyFormCategory__in: undefined, pageNumber: 1 };
}
