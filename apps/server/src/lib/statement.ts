import { type Db, query, type Tx } from '@veriform/db';

/**
 * A statement of a request's hot path, written as SQL text once (issue #20 item 3). Drizzle's builder costs ~0.1 ms
 * of CPU per query, and a query built anew is parsed and planned anew by PostgreSQL; this one goes to the driver as
 * it is (`query` of @veriform/db), and on PostgreSQL as a named prepared statement, which each pooled connection
 * parses once. PGlite runs the same text (its driver has no named statements). Both drivers answer rows as objects,
 * timestamps as text.
 */
export type Statement<Row> = (executor: Db | Tx, values: readonly unknown[]) => Promise<Row[]>;

/** `name` must be unique in the process: node-postgres refuses one name for two texts. */
export function statement<Row>(name: string, text: string): Statement<Row> {
  return async (executor, values) => {
    const { rows } = await query(executor, { name, text, values });
    // The SQL's select list is the row's type; the drivers do not check it.
    return rows as Row[];
  };
}
