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

/** A numeric id in a path: anything else (abc, 0, 1.5, -1) answers 404 like an unknown id. */
export const idParamsSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
