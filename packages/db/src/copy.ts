import { type Readable, Transform, type TransformCallback } from 'node:stream';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

/**
 * A query's rows streamed by PostgreSQL's own `COPY (query) TO STDOUT`, for reads too big to hold (the CSV export):
 * one statement, one snapshot, the planner free to pick a parallel scan and sort, and the bytes forwarded with
 * back-pressure (a slow reader pauses the socket, and PostgreSQL waits). PostgreSQL only; see ADR 0010.
 *
 * COPY takes no bind parameters, so the query's parameters are written into its text as literals by Drizzle's
 * PostgreSQL dialect (strings quoted with '' doubled, which is exact under standard_conforming_strings, set on the
 * connection first; numbers as digits).
 */

export type StreamTextColumn = (query: SQL, signal: AbortSignal) => Promise<Readable>;

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const HEADER_FIXED = SIGNATURE.length + 8; // signature, flags (int32), header extension length (int32)

/**
 * COPY's binary format (https://www.postgresql.org/docs/current/sql-copy.html): a header, then per row an int16 field
 * count (-1 ends the data) and per field an int32 length (-1 is NULL) and its bytes. For a query of one `text`
 * column the bytes are the text itself (UTF-8), with no escaping: this passes them on, row after row.
 */
export class CopyBinaryTextColumn extends Transform {
  private pending: Buffer = Buffer.alloc(0);
  private headerRead = false;
  private ended = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const data = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    let at = 0;
    if (!this.headerRead) {
      if (data.length < HEADER_FIXED) {
        this.pending = data;
        callback();
        return;
      }
      if (!data.subarray(0, SIGNATURE.length).equals(SIGNATURE)) {
        callback(new Error('COPY binary: bad signature'));
        return;
      }
      const extension = data.readInt32BE(SIGNATURE.length + 4);
      if (data.length < HEADER_FIXED + extension) {
        this.pending = data;
        callback();
        return;
      }
      at = HEADER_FIXED + extension;
      this.headerRead = true;
    }
    const out: Buffer[] = [];
    while (!this.ended && data.length - at >= 2) {
      const fields = data.readInt16BE(at);
      if (fields === -1) {
        this.ended = true;
        at += 2;
        break;
      }
      if (fields !== 1) {
        callback(new Error(`COPY binary: expected one column, got ${fields}`));
        return;
      }
      if (data.length - at < 6) break;
      const length = data.readInt32BE(at + 2);
      const size = length === -1 ? 0 : length;
      if (data.length - at < 6 + size) break;
      if (size > 0) out.push(data.subarray(at + 6, at + 6 + size));
      at += 6 + size;
    }
    this.pending = at < data.length ? data.subarray(at) : Buffer.alloc(0);
    if (out.length > 0) this.push(out.length === 1 ? out[0] : Buffer.concat(out));
    callback();
  }

  override _flush(callback: TransformCallback): void {
    callback(this.ended ? null : new Error('COPY binary: the data ended early'));
  }
}

const dialect = new PgDialect();

/** The query's text with its parameters written in as literals (COPY accepts no parameters). */
export function inlinedSql(query: SQL): string {
  return dialect.sqlToQuery(query.inlineParams()).sql;
}

/**
 * Streams the single text column of `query`'s rows, concatenated (each row carries its own line end). The pool's
 * connection is held until the stream ends; an abort (the client went away) destroys that connection, which ends the
 * COPY on the server too.
 */
export function streamTextColumnFrom(pool: pg.Pool): StreamTextColumn {
  return async (query, signal) => {
    const client = await pool.connect();
    let released = false;
    const release = (error?: Error) => {
      if (released) return;
      released = true;
      // A COPY cut short leaves the connection mid-protocol: it is closed, not returned to the pool.
      client.release(error ?? undefined);
    };
    try {
      await client.query('SET standard_conforming_strings = on');
    } catch (error) {
      release(error as Error);
      throw error;
    }
    const copy = client.query(copyTo(`COPY (${inlinedSql(query)}) TO STDOUT (FORMAT binary)`));
    const rows = new CopyBinaryTextColumn();
    const onAbort = () => {
      const reason = new Error('export aborted');
      copy.destroy(reason);
      rows.destroy(reason);
      release(reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    copy.on('error', (error: Error) => {
      rows.destroy(error);
      release(error);
    });
    rows.on('close', () => signal.removeEventListener('abort', onAbort));
    copy.on('end', () => release());
    return copy.pipe(rows);
  };
}
