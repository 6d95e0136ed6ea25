import type { PgDatabase, PgQueryResultHKT, PgTransactionConfig } from 'drizzle-orm/pg-core';
import type { ExecuteSql } from './client.ts';
import type * as schema from './schema.ts';

/** A transaction of the app's database (what `db.transaction()` hands its callback). */
export type Tx = Parameters<Parameters<PgDatabase<PgQueryResultHKT, typeof schema>['transaction']>[0]>[0];

/**
 * Plain SQL inside a transaction, for libraries that bring their own SQL (pg-boss `send(…, { db })`): one
 * parameterised statement, run on the transaction's own connection (node-postgres: its pooled client; PGlite: its
 * transaction, the only way in while it is open), so it commits or rolls back with the caller's writes.
 */
export function executeSqlIn(tx: Tx): ExecuteSql {
  return async (text, values) => {
    // Drizzle's own path for `tx.execute(sql)`, minus building the SQL: the driver's raw result.
    const result: unknown = await tx._.session
      .prepareQuery({ sql: text, params: values ?? [] }, undefined, undefined, false)
      .execute();
    if (typeof result !== 'object' || result === null || !('rows' in result) || !Array.isArray(result.rows)) {
      throw new Error('executeSqlIn: the driver answered without rows');
    }
    return { rows: result.rows };
  };
}

type Callback = () => void;

/** The callbacks waiting for each open transaction's commit (nested ones hold their own until they are released). */
const waiting = new WeakMap<object, Callback[]>();

/**
 * Runs `callback` once `tx` has committed (for a nested transaction: once the outermost one has), never when it
 * rolls back. For what must not happen before other connections can see the writes, such as waking a job worker.
 * `callback` must not throw: the transaction is already committed when it runs.
 */
export function afterCommit(tx: Tx, callback: Callback): void {
  const callbacks = waiting.get(tx);
  if (!callbacks) throw new Error('afterCommit: not an open transaction of a database made by createDb');
  callbacks.push(callback);
}

function runCommitted(callbacks: Callback[]): void {
  for (const callback of callbacks) {
    try {
      callback();
    } catch (error) {
      // Reported, not thrown: the caller's transaction did commit.
      console.error('afterCommit callback failed:', error);
    }
  }
}

function track(tx: Tx, callbacks: Callback[]): void {
  waiting.set(tx, callbacks);
  const savepoint = tx.transaction.bind(tx);
  tx.transaction = async <T>(work: (inner: Tx) => Promise<T>): Promise<T> => {
    const inner: Callback[] = [];
    const result = await savepoint((nested) => {
      track(nested, inner);
      return work(nested);
    });
    // Released into the enclosing transaction; a savepoint rolled back (work threw) drops them.
    callbacks.push(...inner);
    return result;
  };
}

/**
 * Makes `db.transaction()` run the `afterCommit` callbacks of its transaction once it has committed. Applied by
 * createDb to the one `db` of a handle, so every transaction of the app supports `afterCommit`.
 */
export function trackCommits(db: PgDatabase<PgQueryResultHKT, typeof schema>): void {
  const begin = db.transaction.bind(db);
  db.transaction = async <T>(work: (tx: Tx) => Promise<T>, config?: PgTransactionConfig): Promise<T> => {
    const callbacks: Callback[] = [];
    const result = await begin((tx) => {
      track(tx, callbacks);
      return work(tx);
    }, config);
    runCommitted(callbacks);
    return result;
  };
}
