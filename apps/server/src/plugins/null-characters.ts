import { serverTexts } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors.ts';

/**
 * A lone UTF-16 surrogate: with the `u` flag a pair reads as one code point, so only an unpaired half is of the
 * category Cs (what `String.prototype.isWellFormed` tells, which this TypeScript library does not declare yet).
 */
const LONE_SURROGATE = /\p{Cs}/u;

/** Text no column can hold as given: a NUL, or a lone surrogate (no UTF-8 encodes it). */
const badText = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

/**
 * Where the first U+0000 or lone surrogate of a parsed value is: the path of the field holding it (empty for the
 * value itself or for a key), or null when there is none.
 */
export function nullCharacterPath(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return badText(value) ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    if (badText(key)) return [];
    const found = nullCharacterPath(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

/** The words for what was found at `path` of `value`: a NUL (DRF's wording) or a lone surrogate. */
function messageFor(value: unknown, path: readonly string[]): string {
  let found: unknown = value;
  for (const key of path)
    found = typeof found === 'object' && found !== null ? Reflect.get(found, key) : found;
  return typeof found === 'string' && !found.includes('\u0000') && LONE_SURROGATE.test(found)
    ? serverTexts.loneSurrogate
    : serverTexts.nullCharacter;
}

/**
 * PostgreSQL's text type cannot hold U+0000: a NUL in any string used to surface as a 500 from whichever query met it
 * first (an INSERT of a name, a search `q`, a category filter — found by the fuzz suite). A lone surrogate did too
 * (a certificate's revocation reason, an `externalRefId` on send-code and API v1's start: issue #33 item 6, found
 * again by the fuzz suite's input classes for every string field). Both are refused here for every route
 * at once, after the route's own checks (401, 404 for ids) and validation, before any handler: in the query string or
 * the JSON body a 400 on the field (DRF's wording), in a path parameter a 404 (no object has such an id).
 */
export function registerNullCharacterGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    if (nullCharacterPath(request.params)) throw new AppError('not_found');
    // A query is read only through the route's schema (which drops unknown keys); pages and routes without one
    // ignore it, and a stray `?x=%00` on them must not turn a page into an error.
    const query = request.routeOptions.schema?.querystring ? request.query : undefined;
    for (const value of [query, request.body]) {
      const path = nullCharacterPath(value);
      if (!path) continue;
      // As a failed validation's issue: on the body as a whole, or on a field whose name would collide with the body's
      // own keys (a stray `MainCode_` holding one), a non-field error; else on its field.
      throw AppError.fromIssues([{ path, message: messageFor(value, path) }]);
    }
  });
}
