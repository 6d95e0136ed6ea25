/** API v1's cursor pages (issue #15): shared by every module whose objects API v1 lists. */
import { MAX_INT_ID } from '@veriform/contracts';
import { AppError } from './errors.ts';

/**
 * A list's `startingAfter`: the `nextCursor` it handed out, which is the last object's id. Anything else is a 400 on
 * that parameter, never an empty page (a caller's bug should be loud).
 */
export function parseIdCursor(startingAfter: string | undefined, max = MAX_INT_ID): number | undefined {
  if (startingAfter === undefined) return undefined;
  const id = /^[1-9][0-9]{0,15}$/.test(startingAfter) ? Number(startingAfter) : Number.NaN;
  if (!(id <= max)) throw notACursor();
  return id;
}

/** The 400 for a `startingAfter` this list never handed out (a text id of another list, another account's…). */
export function notACursor(): AppError {
  return AppError.field(
    'validation_error',
    'startingAfter',
    'Not a cursor of this list: pass a `nextCursor` it answered.',
  );
}

/** `{data, hasMore, nextCursor}` from a page fetched with one row more than asked. */
export function cursorPage<T extends { id: number | string }>(rows: T[], hasMore: boolean) {
  const last = rows.at(-1);
  return { data: rows, hasMore, nextCursor: hasMore && last ? String(last.id) : null };
}
