import { z } from 'zod';
import type { ClaimedRow } from './claims.ts';

/**
 * A claim statement's rows come back untyped from raw SQL (`RETURNING …`), and a bigint or integer column arrives as a
 * string from node-postgres but as a number from PGlite: the count columns accept both, and the caller maps the
 * checked row to what its handler gets.
 */
export const sqlCount = z.union([z.number(), z.string()]).transform(Number);

/**
 * A reader for one row job's claimed rows: `columns` is the shape its claim statement returns, `toClaimed` turns a
 * row of that shape into the loop's `ClaimedRow`. A row of another shape throws, naming `what` (a statement that
 * drifted from its reader is a bug, not data to skip).
 */
export function claimedRowReader<Columns extends z.ZodRawShape>(
  what: string,
  columns: Columns,
  toClaimed: (row: z.infer<z.ZodObject<Columns>>) => ClaimedRow,
): (row: unknown) => ClaimedRow {
  const schema = z.object(columns);
  return (row) => {
    const parsed = schema.safeParse(row);
    if (!parsed.success) throw new Error(`${what}: unexpected row`);
    return toClaimed(parsed.data);
  };
}
