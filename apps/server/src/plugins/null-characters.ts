import { serverTexts } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors.ts';

/**
 * Where the first U+0000 of a parsed value is: the path of the field holding it (empty for the value itself or for a
 * key), or null when there is none.
 */
export function nullCharacterPath(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return [];
    const found = nullCharacterPath(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

/**
 * PostgreSQL's text type cannot hold U+0000: a NUL in any string used to surface as a 500 from whichever query met it
 * first (an INSERT of a name, a search `q`, a category filter — found by the fuzz suite). Refused here for every route
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
      if (path.length === 0) throw AppError.nonField('validation_error', serverTexts.nullCharacter);
      throw AppError.field('validation_error', path.join('.'), serverTexts.nullCharacter);
    }
  });
}
