import type { Db } from '@veriform/db';
import { vi } from 'vitest';
import { ROW_JOB_MARK } from '../jobs/claims.ts';

/**
 * The SQL statements the app sends while `call` runs, counted at the driver (node-postgres' pool or the PGlite
 * instance), pg-boss's polling and the row jobs' claims left out: what tests of a route's statement cost assert on.
 */

type Queryable = { query: (...args: never[]) => unknown };
const isQueryable = (value: unknown): value is Queryable =>
  typeof value === 'object' && value !== null && typeof Reflect.get(value, 'query') === 'function';

/** The SQL text of a driver call: a string, or a config object `{text}` (node-postgres' prepared statements). */
function textOf(arg: unknown): string {
  if (typeof arg === 'string') return arg;
  if (typeof arg === 'object' && arg !== null) {
    const text = Reflect.get(arg, 'text');
    if (typeof text === 'string') return text;
  }
  return '';
}

export async function statementsOf(db: Db, call: () => Promise<unknown>): Promise<string[]> {
  // Drizzle keeps the driver's client on `$client` (not in the Db type, which is the same for both engines).
  const client: unknown = Reflect.get(db, '$client');
  if (!isQueryable(client)) throw new Error('no driver client under the Drizzle instance');
  const spy = vi.spyOn(client, 'query');
  try {
    await call();
    return spy.mock.calls
      .map((args) => textOf(args[0]))
      .filter((text) => !text.includes('pgboss') && !text.includes(ROW_JOB_MARK));
  } finally {
    spy.mockRestore();
  }
}
