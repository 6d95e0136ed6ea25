import type { Readable } from 'node:stream';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

/**
 * A query's rows as CSV, written by PostgreSQL's own `COPY (query) TO STDOUT (FORMAT csv)`, for reads too big to hold
 * (the CSV export): one statement, one snapshot, PostgreSQL's RFC 4180 quoting, and the bytes forwarded with
 * back-pressure (a slow reader pauses the socket, and PostgreSQL waits). PostgreSQL only; see ADR 0010.
 *
 * COPY takes no bind parameters, so the query's parameters are written into its text as literals by Drizzle's
 * PostgreSQL dialect (strings quoted with '' doubled, which is exact under standard_conforming_strings, set on the
 * connection first; numbers as digits).
 */
export type StreamCsv = (query: SQL, options: StreamCsvOptions) => Promise<Readable>;

export type StreamCsvOptions = {
  /** Ends the COPY (and closes its connection) when the reader goes away. */
  signal: AbortSignal;
  /**
   * The connection's TimeZone while the COPY runs: timestamptz values, and `to_char` of them, are written in it. Must
   * be a zone PostgreSQL knows (contracts `usableTimeZone`).
   */
  timeZone: string;
};

const dialect = new PgDialect();

/** The query's text with its parameters written in as literals (COPY accepts no parameters). */
export function inlinedSql(query: SQL): string {
  return dialect.sqlToQuery(query.inlineParams()).sql;
}

/**
 * Streams `query`'s rows as CSV (no header; NULL as an empty field, an empty string as `""`). The pool's connection is
 * held until the stream ends, then its TimeZone is reset and it goes back to the pool; an abort (the client went away)
 * destroys that connection instead, which ends the COPY on the server too.
 */
export function streamCsvFrom(pool: pg.Pool): StreamCsv {
  return async (query, { signal, timeZone }) => {
    const client = await pool.connect();
    let released = false;
    const release = (error?: Error) => {
      if (released) return;
      released = true;
      // A COPY cut short leaves the connection mid-protocol: it is closed, not returned to the pool.
      client.release(error ?? undefined);
    };
    try {
      await client.query(
        "SELECT set_config('standard_conforming_strings', 'on', false), set_config('TimeZone', $1, false)",
        [timeZone],
      );
    } catch (error) {
      release(error as Error);
      throw error;
    }
    const copy = client.query(copyTo(`COPY (${inlinedSql(query)}) TO STDOUT (FORMAT csv)`));
    const onAbort = () => {
      const reason = new Error('export aborted');
      copy.destroy(reason);
      release(reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    copy.on('error', (error: Error) => release(error));
    copy.on('close', () => signal.removeEventListener('abort', onAbort));
    // The pool's other users must not inherit the export's zone.
    copy.on('end', () => {
      client.query('RESET TimeZone').then(
        () => release(),
        (error: Error) => release(error),
      );
    });
    return copy;
  };
}
