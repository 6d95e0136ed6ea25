import { PGlite, type Transaction as PgliteTransaction } from '@electric-sql/pglite';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import type { ExecuteSql } from './client.ts';
import * as schema from './schema.ts';

/**
 * Transactions and plain SQL, on the drivers' public APIs only (ADR 0034): node-postgres' `pool.connect()`,
 * `client.query({ name, text, values })` and `release()`; PGlite's `query(text, values)` and `transaction(work)`; and
 * Drizzle's `drizzle(client, { schema })`. This module owns BEGIN and COMMIT, so it knows each transaction's connection
 * (for `query`) and when it has committed (for `afterCommit`).
 */

/** The one database type the app codes against, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

declare const inTransaction: unique symbol;
/** A transaction opened by `transaction()`: a Drizzle database on the transaction's own connection. */
export type Tx = Db & { readonly [inTransaction]: true };

/** What a database or transaction of this module runs its SQL on. */
type Connection =
  | { kind: 'postgres'; client: pg.Pool | pg.PoolClient }
  | { kind: 'pglite'; client: PGlite | PgliteTransaction };

type Callback = () => void;

type Open = {
  connection: Connection;
  /** Run once the outermost transaction has committed; a nested one hands its own up when it is released. */
  callbacks: Callback[];
  /** 0 for a transaction, n for the n-th nested savepoint. */
  depth: number;
};

const databases = new WeakMap<Db, Connection>();
const transactions = new WeakMap<Db, Open>();

/** Called by createDb: `db` runs on `client` (a pool or a PGlite instance). */
export function registerDatabase(db: Db, connection: Connection): void {
  databases.set(db, connection);
}

function connectionOf(executor: Db): Connection {
  const connection = transactions.get(executor)?.connection ?? databases.get(executor);
  if (!connection) throw new Error('not a database or transaction of createDb / transaction()');
  return connection;
}

// Timestamps, dates and intervals (and their arrays, and numeric[]) as PostgreSQL's text, as Drizzle answers them.
const TEXT_TYPES = [1082, 1114, 1184, 1186, 1231, 1115, 1185, 1187, 1182];
const asText = (value: string) => value;
const pgTypes = {
  getTypeParser: (typeId: number, format?: 'text' | 'binary') =>
    TEXT_TYPES.includes(typeId) ? asText : pg.types.getTypeParser(typeId, format ?? 'text'),
};
const pgliteParsers = Object.fromEntries(TEXT_TYPES.map((type) => [type, asText]));

/** One parameterised statement for `query`. */
export type SqlQuery = {
  /**
   * PostgreSQL: a named prepared statement, parsed once per connection (node-postgres refuses one name for two
   * texts, so a name is unique in the process). PGlite has no named statements and ignores it.
   */
  name?: string | undefined;
  text: string;
  values?: readonly unknown[] | undefined;
};

/**
 * The port for plain SQL: one parameterised statement on `executor`'s connection (a database's pool, or a
 * transaction's own connection), answered as rows of objects with timestamps as text (as Drizzle reads them). The SQL's
 * select list is the rows' type; the drivers do not check it.
 */
export async function query(executor: Db, { name, text, values }: SqlQuery): Promise<{ rows: unknown[] }> {
  const connection = connectionOf(executor);
  const params = values ? [...values] : [];
  if (connection.kind === 'postgres') {
    const result = await connection.client.query({ name, text, values: params, types: pgTypes });
    return { rows: result.rows };
  }
  const result = await connection.client.query(text, params, { rowMode: 'object', parsers: pgliteParsers });
  return { rows: result.rows };
}

/**
 * Plain SQL inside a transaction, for libraries that bring their own SQL (pg-boss `send(…, { db })`): one
 * parameterised statement, run on the transaction's own connection, so it commits or rolls back with the caller's
 * writes.
 */
export function executeSqlIn(tx: Tx): ExecuteSql {
  return (text, values) => query(tx, { text, values });
}

/**
 * The Drizzle databases transactions run on, made once and reused: building one with the schema costs ~1.5 ms of CPU.
 * On PostgreSQL one per pooled connection (the pool hands the same ones out again); on PGlite one per instance, on a
 * stand-in that forwards to the transaction PGlite has open (it runs one at a time).
 */
const onPooledClient = new WeakMap<pg.PoolClient, Db>();
const onPgliteInstance = new WeakMap<PGlite, { db: Db; current: PgliteTransaction[] }>();

/** A Drizzle database on a PGlite transaction (Drizzle's types name only PGlite: ADR 0034's register). */
const drizzleOnPglite = (client: PgliteTransaction): Db =>
  drizzlePglite({ client: client as unknown as PGlite, schema });

function pgliteTransactions(pglite: PGlite): { db: Db; current: PgliteTransaction[] } {
  let found = onPgliteInstance.get(pglite);
  if (!found) {
    const current: PgliteTransaction[] = [];
    const open = () => {
      const [transaction] = current;
      if (!transaction) throw new Error('no PGlite transaction is open');
      return transaction;
    };
    // Everything Drizzle's PGlite session calls on a transaction's client, passed on to the open one.
    const forward: PgliteTransaction = {
      query: (text, params, options) => open().query(text, params, options),
      sql: (strings, ...params) => open().sql(strings, ...params),
      exec: (text, options) => open().exec(text, options),
      rollback: () => open().rollback(),
      listen: (channel, callback) => open().listen(channel, callback),
      get closed() {
        return open().closed;
      },
    };
    found = { db: drizzleOnPglite(forward), current };
    onPgliteInstance.set(pglite, found);
  }
  return found;
}

function drizzleOn(connection: Connection, nested: boolean): Db {
  const { kind, client } = connection;
  if (kind === 'pglite') {
    if (client instanceof PGlite) throw new Error('a transaction runs on PGlite transaction');
    // A savepoint's own database, so that afterCommit in it is told apart from the enclosing transaction's.
    return drizzleOnPglite(client);
  }
  if (client instanceof pg.Pool) throw new Error('a transaction runs on one connection');
  if (nested) return drizzleNodePg(client, { schema });
  let db = onPooledClient.get(client);
  if (!db) {
    db = drizzleNodePg(client, { schema });
    onPooledClient.set(client, db);
  }
  return db;
}

/** Runs `work` on `db`, known as the transaction `state` describes while it runs. */
async function within<T>(db: Db, state: Open, work: (tx: Tx) => Promise<T>): Promise<T> {
  transactions.set(db, state);
  try {
    // The brand is a type only: a transaction is a Drizzle database on the transaction's connection.
    return await work(db as Tx);
  } finally {
    transactions.delete(db);
  }
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

async function onPostgres<T>(pool: pg.Pool, work: (tx: Tx) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const state: Open = { connection: { kind: 'postgres', client }, callbacks: [], depth: 0 };
  let broken: Error | undefined;
  try {
    await client.query('begin');
    let result: T;
    try {
      result = await within(drizzleOn(state.connection, false), state, work);
      await client.query('commit');
    } catch (error) {
      try {
        await client.query('rollback');
      } catch (rollbackError) {
        // The connection is unusable: the pool drops it instead of handing it out again.
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      }
      throw error;
    }
    runCommitted(state.callbacks);
    return result;
  } finally {
    client.release(broken);
  }
}

async function onPglite<T>(pglite: PGlite, work: (tx: Tx) => Promise<T>): Promise<T> {
  const callbacks: Callback[] = [];
  const { db, current } = pgliteTransactions(pglite);
  const result = await pglite.transaction(async (client) => {
    const state: Open = { connection: { kind: 'pglite', client }, callbacks, depth: 0 };
    current.push(client);
    try {
      return await within(db, state, work);
    } finally {
      current.pop();
    }
  });
  runCommitted(callbacks);
  return result;
}

async function savepoint<T>(parent: Open, work: (tx: Tx) => Promise<T>): Promise<T> {
  const state: Open = { connection: parent.connection, callbacks: [], depth: parent.depth + 1 };
  const name = `sp${state.depth}`;
  const run = (text: string) =>
    state.connection.kind === 'postgres'
      ? state.connection.client.query(text)
      : state.connection.client.query(text);
  await run(`savepoint ${name}`);
  let result: T;
  try {
    result = await within(drizzleOn(state.connection, true), state, work);
  } catch (error) {
    await run(`rollback to savepoint ${name}`);
    throw error;
  }
  await run(`release savepoint ${name}`);
  // Released into the enclosing transaction; a savepoint rolled back (work threw) drops them.
  parent.callbacks.push(...state.callbacks);
  return result;
}

/**
 * Runs `work` in a transaction: BEGIN, then COMMIT when `work` resolves, ROLLBACK when it throws (its error is
 * rethrown). On a transaction, a nested one (a savepoint): its writes roll back alone when its `work` throws. The
 * `afterCommit` callbacks of the transaction run once it has committed. Statements: `begin`, `commit` or `rollback`,
 * as Drizzle's `db.transaction()` sends them (`savepoint spN` and its release or rollback when nested).
 */
export function transaction<T>(executor: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  const parent = transactions.get(executor);
  if (parent) return savepoint(parent, work);
  const connection = databases.get(executor);
  if (!connection) throw new Error('transaction: not a database of createDb');
  if (connection.kind === 'postgres') {
    if (!(connection.client instanceof pg.Pool)) throw new Error('transaction: not a pool');
    return onPostgres(connection.client, work);
  }
  if (!(connection.client instanceof PGlite)) throw new Error('transaction: not a PGlite database');
  return onPglite(connection.client, work);
}

/**
 * Runs `callback` once `tx` has committed (for a nested transaction: once the outermost one has), never when it
 * rolls back. For what must not happen before other connections can see the writes, such as waking a job worker.
 * `callback` must not throw: the transaction is already committed when it runs.
 */
export function afterCommit(tx: Tx, callback: Callback): void {
  const state = transactions.get(tx);
  if (!state) throw new Error('afterCommit: not an open transaction of transaction()');
  state.callbacks.push(callback);
}
