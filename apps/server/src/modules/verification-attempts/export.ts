import { Readable } from 'node:stream';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import {
  deliveryReasonOf,
  localToday,
  type VerificationAttempt,
  type verificationAttemptExportQuerySchema,
} from '@veriform/contracts';
import { type Db, schema, transaction } from '@veriform/db';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { resolveDateRange } from '../../domain/date-range.ts';
import type { Clock } from '../../lib/clock.ts';
import { csvTextCell } from '../../lib/csv.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import { type AuditLog, auditTarget, filtersForTheLog } from '../audit/index.ts';
import {
  accountSlug,
  createLocalTimeFormatter,
  exportFilename,
  exportTuning,
} from '../verifications/index.ts';
import {
  type AttemptRow,
  attemptFilter,
  attemptOrderBy,
  attemptRows,
  countAttempts,
  shownStatus,
} from './query.ts';

const { verificationAttempts, accounts } = schema;

export type VerificationAttemptExportParams = z.output<typeof verificationAttemptExportQuerySchema>;

/** The CSV's columns, in order. New ones go at the end, so scripts reading by position keep working. */
export const attemptExportHeader = [
  'Created',
  'Cell phone',
  'E-mail',
  'Reference',
  'Form ID',
  'Form',
  'Channel',
  'Source',
  'Test',
  'Status',
  'Delivery status',
  'Error code',
  'Reason',
  'Next step',
  'Provider message ID',
  'Codes entered',
  'Verified',
  'Verification ID',
] as const;

const statusWords: Record<VerificationAttempt['status'], string> = {
  pending: 'Pending',
  verified: 'Verified',
  locked: 'Locked',
  replaced: 'Replaced',
  canceled: 'Canceled',
  expired: 'Expired',
};

const deliveryWords: Record<VerificationAttempt['deliveryStatus'], string> = {
  queued: 'Queued',
  sent: 'Sent',
  delivered: 'Delivered',
  undelivered: 'Undelivered',
  failed: 'Failed',
  unknown: 'Unknown',
};

/** One attempt as a CSV line, in `attemptExportHeader`'s order; text from people or providers through csvTextCell. */
export function attemptCsvLine(row: AttemptRow, now: Date, created: (instant: Date) => string): string {
  const reason = deliveryReasonOf(row.method, row.deliveryErrorCode);
  return `${[
    created(row.createdAt),
    csvTextCell(row.cellPhone),
    csvTextCell(row.email),
    csvTextCell(row.externalRefId),
    String(row.verifyFormId),
    csvTextCell(row.verifyFormName),
    // The activity log's words, as the verifications' CSV.
    row.method === 'sms' ? 'SMS' : 'E-mail',
    row.source === 'api' ? 'API' : 'Hosted page',
    row.isTest ? 'Yes' : 'No',
    statusWords[shownStatus(row, now)],
    deliveryWords[row.deliveryStatus],
    csvTextCell(row.deliveryErrorCode),
    csvTextCell(reason?.reason ?? null),
    csvTextCell(reason?.nextStep ?? null),
    csvTextCell(row.providerMessageId),
    String(row.codesEntered),
    row.status === 'verified' ? 'Yes' : 'No',
    row.verificationId === null ? '' : String(row.verificationId),
  ].join(',')}\n`;
}

/** The keys whose value is set: JSON drops `undefined` anyway, so the event's hash is over what it shows. */
const definedOnly = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));

export type AttemptExport = {
  filename: string;
  /** Attempts the filter matches when the download starts. */
  total: number;
  /** The CSV (UTF-8 with a BOM, header row first), produced batch by batch as the reader pulls. */
  body: Readable;
};

/**
 * The attempts' CSV: every attempt of the filter, newest first, streamed in keyset batches (the verifications' export
 * explains the batches, `exportTuning` included, which this export shares). Unlike that export there is no COPY path:
 * the reason and next step come from contracts/delivery-reasons.ts and the derived statuses from the app's clock, so
 * lines are written here, on both engines.
 */
export function createAttemptExport(deps: { db: Db; clock: Clock; audit: AuditLog }) {
  const { db, clock, audit } = deps;

  async function startExport(
    ctx: AccountContext,
    query: VerificationAttemptExportParams,
    signal: AbortSignal,
  ): Promise<AttemptExport> {
    const now = clock.now();
    const filtered = await attemptFilter(db, ctx.accountId, query, now);
    const { where } = filtered;
    const [account] = await db
      .select({ displayName: accounts.displayName })
      .from(accounts)
      .where(eq(accounts.id, ctx.accountId));
    const total = await countAttempts(db, ctx.accountId, query, now, filtered);
    const range = resolveDateRange(query, now);
    const created = createLocalTimeFormatter(range.tz);

    // On record before any row is read, as the verifications' export (which explains why). Same action: it is the
    // activity log exported, numbers included; `view` tells which of its lists.
    const { account: _account, ...filters } = query;
    await transaction(db, (tx) =>
      audit.record(tx, ctx, {
        action: 'verifications.exported',
        targets: [auditTarget.account({ id: ctx.accountId, displayName: account?.displayName ?? '' })],
        changes: { view: 'attempts', filters: definedOnly(filtersForTheLog(filters)), rowCount: total },
      }),
    );

    const batchSize = exportTuning.batchSize;
    /** The batch after the attempt `lastId` (or the first), as CSV lines; the keyset is read in SQL, microseconds kept. */
    const fetchBatch = async (
      lastId: string | null,
    ): Promise<{ csv: string; rows: number; lastId: string | null }> => {
      // Lets pending I/O through between PGlite's synchronous queries (see the verifications' export).
      await yieldToEventLoop();
      const after: SQL | undefined =
        lastId === null
          ? undefined
          : sql`(${verificationAttempts.createdAt}, ${verificationAttempts.id}) < (select c.created_at, c.id from ${verificationAttempts} c where c.id = ${lastId})`;
      const ids = db
        .select({ id: verificationAttempts.id })
        .from(verificationAttempts)
        .where(and(where, after))
        .orderBy(...attemptOrderBy)
        .limit(batchSize);
      const rows = await attemptRows(db, now, ids);
      return {
        csv: rows.map((row) => attemptCsvLine(row, now, created)).join(''),
        rows: rows.length,
        lastId: rows.at(-1)?.id ?? null,
      };
    };

    async function* chunks(): AsyncGenerator<string> {
      // A byte-order mark: Excel otherwise reads UTF-8 as ANSI.
      yield `\uFEFF${attemptExportHeader.join(',')}\n`;
      let last: string | null = null;
      while (!signal.aborted) {
        const batch = await fetchBatch(last);
        exportTuning.onBatch?.(batch.rows);
        if (batch.rows > 0) yield batch.csv;
        if (batch.rows < batchSize || batch.lastId === null) break;
        last = batch.lastId;
      }
    }

    const filename = exportFilename(
      accountSlug(account?.displayName ?? '', ctx.accountId),
      range,
      localToday(now, range.tz),
      'attempts',
    );
    // highWaterMark 1: the next batch is read only when the response has written this one (back-pressure).
    return { filename, total, body: Readable.from(chunks(), { objectMode: false, highWaterMark: 1 }) };
  }

  return { startExport };
}
