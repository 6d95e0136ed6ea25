import { Readable } from 'node:stream';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import {
  localToday,
  type VerificationSort,
  type VerificationSortKey,
  type verificationExportQuerySchema,
} from '@veriform/contracts';
import { type Db, type StreamCsv, schema, transaction } from '@veriform/db';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { resolveDateRange } from '../../domain/date-range.ts';
import type { Clock } from '../../lib/clock.ts';
import { csvQuotedSql, formulaSafeSql } from '../../lib/csv.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import { type AuditLog, auditTarget, filtersForTheLog } from '../audit/index.ts';
import { latestReassignmentOf } from '../lookups/index.ts';
import { countVerifications } from './count.ts';
import { resolveForms, verificationOrderBy, verificationWhere } from './filters.ts';
import { revocationMarkOn } from './revoked.ts';

const { verifications, accounts, revocationMarks, verificationAttempts, reassignmentChecks } = schema;

export type VerificationExportParams = z.output<typeof verificationExportQuerySchema>;

/**
 * Rows per batch. Each batch is one short keyset query (`WHERE (sort, id) > (last…) ORDER BY sort, id LIMIT n`), never
 * a cursor or a transaction held across the download: with PGlite (one query at a time, on the main thread) other
 * requests are answered between batches, and on PostgreSQL no connection is held while the client is slow.
 * 2000 rows of ~120 bytes keep one batch around 250 KB of CSV and, on 1M rows, each query at a few milliseconds.
 * Tests set `exportTuning.batchSize` to a small number to cross batch boundaries with a handful of rows, and
 * `onBatch` to see how many batches were read (a cancelled download must stop reading).
 */
export const exportTuning: { batchSize: number; onBatch?: (rows: number) => void } = { batchSize: 2000 };

/**
 * The CSV's columns, in order (issue #6). Later columns are added at the end — Source (issue #15), then the consent
 * version and hash (issue #18), then when the consumer's personal data was redacted (issue #19), then when consent was
 * revoked (issue #35), then the latest reassigned-number check's answer (issue #36) — so a sheet or script that reads the earlier columns by position keeps reading them.
 */
export const exportHeader = [
  'ID',
  'Cell phone',
  'External ref',
  'Form ID',
  'Form name',
  'Category',
  'Method',
  'Test',
  'Created',
  'Source',
  'Consent version',
  'Consent hash',
  'Redacted',
  'Revoked at',
  'Reassigned',
] as const;

/**
 * The sort column of each sort key. The export orders by it and then by id, in the same direction, so that the pair is
 * unique and a row comparison `(col, id) > ($last, $lastId)` resumes exactly after the previous batch.
 * `castAs`: how the keyset value (read back as text, see `keysetValue`) is turned into the column's type again.
 */
const sortColumns = {
  cellPhone: { column: verifications.cellPhone, castAs: 'text' },
  externalRefId: { column: verifications.externalRefId, castAs: 'text' },
  verifyFormId: { column: verifications.verifyFormId, castAs: 'integer' },
  verifyFormName: { column: verifications.verifyFormName, castAs: 'text' },
  verifyFormCategory: { column: verifications.verifyFormCategory, castAs: 'text' },
  created: { column: verifications.createdAt, castAs: 'timestamptz' },
} as const satisfies Record<VerificationSortKey, { column: unknown; castAs: string }>;

function parseSort(o: VerificationSort): { key: VerificationSortKey; descending: boolean } {
  const descending = o.startsWith('-');
  return { key: (descending ? o.slice(1) : o) as VerificationSortKey, descending };
}

/**
 * `2026-11-22 06:08:12 -05:00`: the instant as wall-clock time in `timeZone`, with that zone's offset at that instant.
 *
 * Intl's formatToParts costs microseconds per call, which at a million rows is seconds; the offset, however, only
 * changes at a zone's transitions, and those fall on whole quarter hours in UTC (offsets are multiples of 15 minutes
 * and transitions happen at local whole or half hours). So the offset is looked up once per UTC quarter hour and cached,
 * and the wall-clock fields are computed arithmetically.
 */
export function createLocalTimeFormatter(timeZone: string): (instant: Date) => string {
  const offsetFormat = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
  const offsets = new Map<number, { minutes: number; label: string }>();
  const QUARTER_HOUR = 15 * 60 * 1000;
  const pad = (n: number) => (n < 10 ? `0${n}` : `${n}`);

  function offsetAt(ms: number): { minutes: number; label: string } {
    const block = Math.floor(ms / QUARTER_HOUR);
    let offset = offsets.get(block);
    if (!offset) {
      const name = offsetFormat
        .formatToParts(new Date(block * QUARTER_HOUR))
        .find((p) => p.type === 'timeZoneName')?.value;
      // "GMT-05:00", "GMT+05:45", or plain "GMT" for a zero offset.
      const match = /^GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
      const minutes = match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
      const label = match ? `${match[1]}${match[2]}:${match[3]}` : '+00:00';
      offset = { minutes, label };
      // A download spans at most a few thousand quarter hours per year of data; the bound only guards memory.
      if (offsets.size > 200_000) offsets.clear();
      offsets.set(block, offset);
    }
    return offset;
  }

  return (instant) => {
    const ms = instant.getTime();
    const offset = offsetAt(ms);
    const local = new Date(ms + offset.minutes * 60_000);
    return (
      `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ` +
      `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())} ${offset.label}`
    );
  };
}

/** `Acme Lending & Co.` → `acme-lending-co`: ASCII letters and digits only, so the header needs no encoding. */
export function accountSlug(displayName: string, accountId: number): string {
  const slug = displayName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || `account-${accountId}`;
}

/**
 * `<account-slug>-verifications-<gte>-to-<lte>.csv` with the local days the filter resolved to; `-all-time` when the
 * range is open at both ends, `-up-to-<lte>` / `-<gte>-to-<today>` when open at one. `subject` names what is exported
 * (the attempts view's CSV says `attempts`).
 */
export function exportFilename(
  slug: string,
  range: { gte: string | null; lte: string | null },
  today: string,
  subject: 'verifications' | 'attempts' = 'verifications',
) {
  const { gte, lte } = range;
  let span: string;
  if (gte && lte) span = `${gte}-to-${lte}`;
  else if (gte) span = `${gte}-to-${today}`;
  else if (lte) span = `up-to-${lte}`;
  else span = 'all-time';
  return `${slug}-${subject}-${span}.csv`;
}

/** The keys whose value is set: JSON drops `undefined` anyway, so the event's hash is over what it shows. */
const definedOnly = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));

/** Where the previous batch ended: its last row's sort value (as PostgreSQL prints it) and id. */
export type ExportKeyset = { value: string; id: number };

/**
 * The latest reassigned-number check of the code that approved the verification (issue #36; the lookups module's
 * `latestReassignmentOf`), in words: Yes, No, No data (never read as No), empty when never checked. Most rows have no
 * check: the account's checked verifications are read once per statement (a hashed subplan: one probe in memory a row,
 * the export's plan and order unchanged) and only those rows look their latest check up (two index probes). Measured
 * on 1M rows with 1% checked: +0.3 s, against +2–4 s for the lookup on every row.
 */
function reassignedCell(accountId: number): SQL {
  const v = verifications;
  const a = verificationAttempts;
  const rc = reassignmentChecks;
  const checked = sql`select (select ${a.verificationId} from ${a} where ${a.id} = ${rc.attemptId}) from ${rc} where ${rc.accountId} = ${accountId}`;
  const approvedAttempt = sql`(select ${a.id} from ${a} where ${a.verificationId} = ${v.id} limit 1)`;
  return sql`CASE WHEN ${v.id} IN (${checked}) THEN (select case latest_reassignment.answer when 'yes' then 'Yes' when 'no' then 'No' else 'No data' end from ${latestReassignmentOf(approvedAttempt)} latest_reassignment) END`;
}

/**
 * The CSV's cells, in `exportHeader`'s order, as SQL over `verifications` (ADR 0007), before quoting. Created is
 * written by `to_char(… TZH:TZM)` in the session's TimeZone, which the export sets to `tz` around its queries: one
 * conversion per row (`AT TIME ZONE` looks the zone up by name every time). `text`: may hold a quote, a comma or a
 * line break.
 */
function exportCells(accountId: number): { value: SQL; text: boolean }[] {
  const v = verifications;
  return [
    { value: sql`${v.id}`, text: false },
    { value: formulaSafeSql(sql`${v.cellPhone}`), text: true },
    { value: formulaSafeSql(sql`${v.externalRefId}`), text: true },
    { value: sql`${v.verifyFormId}`, text: false },
    { value: formulaSafeSql(sql`${v.verifyFormName}`), text: true },
    { value: formulaSafeSql(sql`${v.verifyFormCategory}`), text: true },
    { value: sql`CASE WHEN ${v.verificationMethod} = 'sms' THEN 'SMS' ELSE 'E-mail' END`, text: false },
    { value: sql`CASE WHEN ${v.isTest} THEN 'Yes' ELSE 'No' END`, text: false },
    { value: sql`to_char(${v.createdAt}, 'YYYY-MM-DD HH24:MI:SS TZH:TZM')`, text: false },
    // The activity log's words for it.
    { value: sql`CASE WHEN ${v.source} = 'api' THEN 'API' ELSE 'Hosted page' END`, text: false },
    // Issue #18: the version number and the hex SHA-256 of the consent text shown; empty when none was.
    { value: sql`${v.consentVersion}`, text: false },
    { value: sql`${v.consentSha256}`, text: false },
    // Issue #19: when the number was masked and the rest of the consumer's data removed (ADR 25); empty when it was not.
    { value: sql`to_char(${v.redactedAt}, 'YYYY-MM-DD HH24:MI:SS TZH:TZM')`, text: false },
    // Issue #35: when a later revocation of the number or address was received (revoked.ts); empty when none was.
    { value: sql`to_char(${revocationMarks.receivedAt}, 'YYYY-MM-DD HH24:MI:SS TZH:TZM')`, text: false },
    // Issue #36: the latest reassigned-number check's answer (reassignedCell).
    { value: reassignedCell(accountId), text: false },
  ];
}

/**
 * One batch: the next `limit` rows of `where` in the sort `o` after `last` (or the first ones), as one row holding the
 * batch's CSV text, its row count and its last keyset. PostgreSQL formats the lines and joins them, so the driver parses
 * one row per batch instead of ten columns per verification (see docs/benchmarks.md, CSV export). Created is written
 * in the session's TimeZone: run it where that is the export's `tz`.
 */
export function exportBatchQuery(
  db: Db,
  accountId: number,
  where: SQL,
  o: VerificationSort,
  last: ExportKeyset | null,
  limit: number,
) {
  const { key, descending } = parseSort(o);
  const sort = sortColumns[key];
  const after = sql.raw(descending ? '<' : '>');
  const orderBy = verificationOrderBy(o);
  const cells = exportCells(accountId);
  const batch = db
    .select({
      id: verifications.id,
      // The sort value as PostgreSQL prints it: exact (a JS Date would drop created_at's microseconds and skip or
      // repeat rows at a batch boundary), and cast back to the column's type in the next query.
      keysetValue: sql<string>`${sort.column}::text`.as('keyset_value'),
      // The position in the sort, so the outer aggregate keeps it (a subquery's ORDER BY alone promises nothing).
      n: sql<number>`row_number() OVER (ORDER BY ${sql.join(orderBy, sql`, `)})`.as('n'),
      ...Object.fromEntries(cells.map((cell, i) => [`cell_${i}`, cell.value.as(`cell_${i}`)])),
    })
    .from(verifications)
    .leftJoin(revocationMarks, revocationMarkOn)
    .where(
      last
        ? and(
            where,
            sql`(${sort.column}, ${verifications.id}) ${after} (cast(${last.value} as ${sql.raw(sort.castAs)}), ${last.id})`,
          )
        : where,
    )
    // The list's own ORDER BY (sort key, then id, both in the key's direction): the keyset condition above resumes it.
    .orderBy(...orderBy)
    .limit(limit)
    .as('batch');
  // Each cell is computed once in the subquery, then quoted here (PostgreSQL evaluates every occurrence of an
  // expression, and csvQuotedSql names its cell five times).
  const line = sql.join(
    cells.map((cell, i) => {
      const name = sql.identifier(`cell_${i}`);
      return cell.text ? csvQuotedSql(sql`${name}`) : sql`coalesce(${name}::text, '')`;
    }),
    sql`, `,
  );
  return db
    .select({
      csv: sql<string | null>`string_agg(concat_ws(',', ${line}) || chr(10), '' ORDER BY ${batch.n})`,
      rows: sql<number>`count(*)::integer`.mapWith(Number),
      lastValue: sql<string | null>`(array_agg(${batch.keysetValue} ORDER BY ${batch.n} DESC))[1]`,
      lastId: sql<number | null>`(array_agg(${batch.id} ORDER BY ${batch.n} DESC))[1]`,
    })
    .from(batch);
}

export type VerificationExport = {
  filename: string;
  /** Rows the filter matches when the download starts (rows verified during it may or may not be included). */
  total: number;
  /** The CSV (UTF-8 with a BOM, header row first), produced batch by batch as the reader pulls. */
  body: Readable;
};

/** The CSV export (SPEC §7 export-csv; issue #6): every row of the log's filter, in its sort, streamed. */
export function createVerificationExport(deps: {
  db: Db;
  clock: Clock;
  /** PostgreSQL's COPY stream (DatabaseHandle.streamCsv); without it (PGlite) the rows come in keyset batches. */
  streamCsv?: StreamCsv | undefined;
  /** The audit log (issue #16): write with the change's own transaction. */
  audit: AuditLog;
}) {
  const { db, clock, streamCsv, audit } = deps;

  async function start(
    ctx: AccountContext,
    query: VerificationExportParams,
    signal: AbortSignal,
  ): Promise<VerificationExport> {
    const now = clock.now();
    // The same reading of the filters as the list (form names and categories resolved to ids first).
    const forms = await resolveForms(db, ctx.accountId, query);
    const where = verificationWhere(ctx.accountId, query, now, forms);
    const batchSize = exportTuning.batchSize;

    const [account] = await db
      .select({ displayName: accounts.displayName })
      .from(accounts)
      .where(eq(accounts.id, ctx.accountId));
    // X-Total-Count: the list's exact total (daily counts), not a count of every matching row — on PGlite one long
    // count would stall every other request before the first byte.
    const total = await countVerifications(db, ctx.accountId, query, now, forms);
    const range = resolveDateRange(query, now);
    const today = localToday(now, range.tz);

    // `verifications.exported` (issue #16) is recorded here, as the export starts and before any row is read, in a
    // short transaction of its own: the download itself holds none (batches, or COPY on its own connection) and may
    // take minutes or be cancelled. So an export asked for is on record even when the client stops it halfway. The
    // filters as the request gave them (the account is the event's own) and the count X-Total-Count announces.
    const { account: _account, ...filters } = query;
    await transaction(db, (tx) =>
      audit.record(tx, ctx, {
        action: 'verifications.exported',
        targets: [auditTarget.account({ id: ctx.accountId, displayName: account?.displayName ?? '' })],
        changes: { filters: definedOnly(filtersForTheLog(filters)), rowCount: total },
      }),
    );

    type Batch = { csv: string | null; rows: number; lastValue: string | null; lastId: number | null };
    const fetchBatch = async (last: ExportKeyset | null): Promise<Batch> => {
      // PGlite runs a query synchronously in WASM and answers through promises only, so a chain of batches would be
      // one long run of microtasks: no socket would be read or written (other requests, and this very download)
      // until the export ended. Waiting for the event loop's check phase first lets pending I/O through.
      await yieldToEventLoop();
      // The zone is set for this transaction only (PGlite's one connection serves every request).
      const [batch] = await transaction(db, async (tx) => {
        await tx.execute(sql`SELECT set_config('TimeZone', ${range.tz}, true)`);
        return exportBatchQuery(tx, ctx.accountId, where, query.o, last, batchSize).execute();
      });
      return batch ?? { csv: null, rows: 0, lastValue: null, lastId: null };
    };

    async function* chunks(): AsyncGenerator<string> {
      // A byte-order mark: Excel otherwise reads UTF-8 (form names such as "Solicitud de préstamo") as ANSI.
      yield `\uFEFF${exportHeader.join(',')}\n`;
      let pending: Promise<Batch> | null = fetchBatch(null);
      try {
        while (pending && !signal.aborted) {
          const batch: Batch = await pending;
          exportTuning.onBatch?.(batch.rows);
          // The next batch is asked for before this one is written: on PostgreSQL the query runs while Node writes;
          // on PGlite it simply queues behind other requests' queries.
          pending =
            batch.rows === batchSize && batch.lastValue !== null && batch.lastId !== null && !signal.aborted
              ? fetchBatch({ value: batch.lastValue, id: Number(batch.lastId) })
              : null;
          if (batch.rows === 0 || !batch.csv) break;
          yield batch.csv;
        }
      } finally {
        // A cancelled download ends the generator early (return()) with the next batch possibly in flight: its
        // result is dropped, and a rejection (the app closing meanwhile) must not become an unhandled one.
        pending?.catch(() => undefined);
      }
    }

    const filename = exportFilename(accountSlug(account?.displayName ?? '', ctx.accountId), range, today);
    if (streamCsv) {
      // PostgreSQL: the same cells in one COPY, quoted by PostgreSQL's own CSV writer (ADR 0010), started before the
      // answer so that a refusal is a 500 rather than a cut download.
      const cells = Object.fromEntries(
        exportCells(ctx.accountId).map((cell, i) => [`cell_${i}`, cell.value]),
      );
      const rows = await streamCsv(
        db
          .select(cells)
          .from(verifications)
          .leftJoin(revocationMarks, revocationMarkOn)
          .where(where)
          .orderBy(...verificationOrderBy(query.o))
          .getSQL(),
        { signal, timeZone: range.tz },
      );
      async function* withHeader(): AsyncGenerator<Buffer | string> {
        yield `\uFEFF${exportHeader.join(',')}\n`;
        for await (const chunk of rows) yield chunk as Buffer;
      }
      return { filename, total, body: Readable.from(withHeader(), { objectMode: false, highWaterMark: 1 }) };
    }

    return {
      filename,
      total,
      // highWaterMark 1: at most one formatted batch waits in the stream; the generator (and so the next query) is
      // only resumed when the response has written it — back-pressure from a slow client reaches the database reads.
      body: Readable.from(chunks(), { objectMode: false, highWaterMark: 1 }),
    };
  }

  return { start };
}

export type VerificationExportService = ReturnType<typeof createVerificationExport>;
