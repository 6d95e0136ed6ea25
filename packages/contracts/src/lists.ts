import { z } from 'zod';

/** Every list answer (DESIGN §5): `{count, pageNumber, pageSize, results}`. */
export function listResponseSchema<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int(),
    pageNumber: z.number().int(),
    pageSize: z.number().int(),
    results: z.array(item),
  });
}
export type ListResponse<T> = { count: number; pageNumber: number; pageSize: number; results: T[] };

/** The largest id of a `serial`/`integer` column. */
export const MAX_INT_ID = 2_147_483_647;
/** The largest id of a `bigint` column that a JavaScript number holds exactly (verifications). */
export const MAX_BIGINT_ID = Number.MAX_SAFE_INTEGER;

/** A numeric id in a path: anything else (abc, 0, 1.5, -1, beyond the column) answers 404 like an unknown id. */
export const idParamsSchema = z.object({ id: z.coerce.number().int().positive().max(MAX_INT_ID) });
/** The same for the `bigint` ids of verifications. */
export const bigIdParamsSchema = z.object({ id: z.coerce.number().int().positive().max(MAX_BIGINT_ID) });
