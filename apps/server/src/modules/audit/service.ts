import {
  type AuditEvent,
  type AuditEventList,
  type AuditFilter,
  type AuditSearch,
  auditActionLabels,
  auditActionSchema,
  auditTargetSchema,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, count, eq, gt, inArray, lt, lte, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { createdWithin, resolveDateRange } from '../../domain/date-range.ts';
import type { Clock } from '../../lib/clock.ts';
import { csvTextCell } from '../../lib/csv.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import type { ChainedEvent } from './chain.ts';

const { auditEvents, users } = schema;

type AuditRow = typeof auditEvents.$inferSelect;

const targetsSchema = z.array(auditTargetSchema);
const changesSchema = z.record(z.string(), z.unknown()).nullable();

/** A row as the API shows it (the stored JSON read back through the contract's schemas). */
export function toAuditEvent(row: AuditRow): AuditEvent {
  return {
    id: row.id,
    sequence: row.sequence,
    occurredAt: row.occurredAt.toISOString(),
    actor: { type: row.actorType, id: row.actorId, name: row.actorName },
    action: auditActionSchema.parse(row.action),
    targets: targetsSchema.parse(row.targets),
    changes: changesSchema.parse(row.changes),
    ip: row.ip,
    userAgent: row.userAgent,
    requestId: row.requestId,
    prevHash: row.prevHash,
    hash: row.hash,
  };
}

/** The fields the chain's hash covers, in the form the check reads them. */
export const chainedOf = (event: AuditEvent, account: number): ChainedEvent => ({
  account,
  sequence: event.sequence,
  occurredAt: event.occurredAt,
  actor: event.actor,
  action: event.action,
  targets: event.targets,
  changes: event.changes,
  ip: event.ip,
  userAgent: event.userAgent,
  requestId: event.requestId,
  prevHash: event.prevHash,
  hash: event.hash,
});

/** Rows per batch of an export: one short query each, so PGlite's single connection is never held long. */
const EXPORT_BATCH = 1000;

/**
 * Reading the audit log: the screen's pages, API v1's cursor pages, exports. Every query is one account's, by the
 * indexes of migration 0014 (each ends in occurred_at desc, id desc).
 */
export function createAuditReader(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  function whereOf(ctx: AccountContext, filter: AuditFilter): SQL | undefined {
    const range = resolveDateRange(filter, clock.now());
    return and(
      eq(auditEvents.accountId, ctx.accountId),
      filter.action ? eq(auditEvents.action, filter.action) : undefined,
      filter.actorType ? eq(auditEvents.actorType, filter.actorType) : undefined,
      filter.actorId ? eq(auditEvents.actorId, filter.actorId) : undefined,
      filter.targetType ? eq(auditEvents.targetType, filter.targetType) : undefined,
      filter.targetId ? eq(auditEvents.targetId, filter.targetId) : undefined,
      ...createdWithin(auditEvents.occurredAt, range),
    );
  }

  const newestFirst = [
    sql`${auditEvents.occurredAt} desc nulls last`,
    sql`${auditEvents.id} desc nulls last`,
  ];

  /**
   * How many events match. Unfiltered, the account's chain has no gaps (events are only appended, and retention
   * removes from the start), so its count is the span of its sequences: two probes of the unique index instead of
   * counting a million rows (60 ms → under 1 ms at a million; docs/benchmarks.md).
   */
  async function countOf(ctx: AccountContext, filter: AuditFilter, where: SQL | undefined): Promise<number> {
    const unfiltered =
      !filter.action &&
      !filter.actorType &&
      !filter.actorId &&
      !filter.targetType &&
      !filter.targetId &&
      filter.created__date__preset === 'all';
    if (unfiltered) {
      const [span] = await db
        .select({
          n: sql<number>`coalesce(max(${auditEvents.sequence}) - min(${auditEvents.sequence}) + 1, 0)::int`,
        })
        .from(auditEvents)
        .where(eq(auditEvents.accountId, ctx.accountId));
      return span?.n ?? 0;
    }
    const [total] = await db.select({ n: count() }).from(auditEvents).where(where);
    return total?.n ?? 0;
  }

  /**
   * The current names of the people who acted in `events`, by user id: the stored actor name is the e-mail at the time
   * (hashed into the chain, so never rewritten); the screen shows who that is now. A deleted user has no row here.
   */
  async function actorUserNames(events: readonly AuditEvent[]): Promise<Map<string, string>> {
    const ids = [
      ...new Set(
        events.flatMap((e) =>
          e.actor.type === 'user' &&
          e.actor.id !== null &&
          /^\d{1,10}$/.test(e.actor.id) &&
          Number(e.actor.id) <= 2147483647
            ? [Number(e.actor.id)]
            : [],
        ),
      ),
    ];
    if (ids.length === 0) return new Map();
    const found = await db
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(inArray(users.id, ids));
    return new Map(found.filter((u) => u.name.trim() !== '').map((u) => [String(u.id), u.name.trim()]));
  }

  /** Newest first, by page number; the page is a deferred join (ids from the index, then their rows). */
  async function list(ctx: AccountContext, search: AuditSearch): Promise<AuditEventList> {
    const where = whereOf(ctx, search);
    const [total, ids] = await Promise.all([
      countOf(ctx, search, where),
      db
        .select({ id: auditEvents.id })
        .from(auditEvents)
        .where(where)
        .orderBy(...newestFirst)
        .limit(search.pageSize)
        .offset((search.pageNumber - 1) * search.pageSize),
    ]);
    const rows =
      ids.length === 0
        ? []
        : await db
            .select()
            .from(auditEvents)
            .where(
              inArray(
                auditEvents.id,
                ids.map((r) => r.id),
              ),
            )
            .orderBy(...newestFirst);
    const events = rows.map(toAuditEvent);
    const names = await actorUserNames(events);
    return {
      count: total,
      pageNumber: search.pageNumber,
      pageSize: search.pageSize,
      results: events.map((event) => ({
        ...event,
        actorUserName:
          event.actor.type === 'user' && event.actor.id !== null ? (names.get(event.actor.id) ?? null) : null,
      })),
    };
  }

  /** API v1: newest first by id (ids grow with each account's chain), `startingAfter` an event id. */
  async function page(
    ctx: AccountContext,
    query: { limit: number; startingAfter: number | undefined },
  ): Promise<{ rows: AuditEvent[]; hasMore: boolean }> {
    const rows = await db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.accountId, ctx.accountId),
          query.startingAfter === undefined ? undefined : lt(auditEvents.id, query.startingAfter),
        ),
      )
      .orderBy(sql`${auditEvents.id} desc`)
      .limit(query.limit + 1);
    return { rows: rows.slice(0, query.limit).map(toAuditEvent), hasMore: rows.length > query.limit };
  }

  /**
   * What an export will give (issue #33 item 8): the chain's last sequence now, and how many matching events there are
   * up to it. The export is recorded with that count before it streams, and streams exactly those: its own event and
   * any appended meanwhile come after `upTo`, in the next export.
   */
  async function exportSnapshot(
    ctx: AccountContext,
    filter: AuditFilter,
  ): Promise<{ count: number; upTo: number }> {
    const [head] = await db
      .select({ upTo: sql<number>`coalesce(max(${auditEvents.sequence}), 0)`.mapWith(Number) })
      .from(auditEvents)
      .where(eq(auditEvents.accountId, ctx.accountId));
    const upTo = head?.upTo ?? 0;
    const [total] = await db
      .select({ n: count() })
      .from(auditEvents)
      .where(and(whereOf(ctx, filter), lte(auditEvents.sequence, upTo)));
    return { count: total?.n ?? 0, upTo };
  }

  /** Every matching event up to sequence `upTo`, oldest first (the chain's order), in keyset batches by sequence. */
  async function* exportEvents(
    ctx: AccountContext,
    filter: AuditFilter,
    upTo: number,
  ): AsyncGenerator<AuditEvent> {
    const where = and(whereOf(ctx, filter), lte(auditEvents.sequence, upTo));
    let after = 0;
    for (;;) {
      const rows = await db
        .select()
        .from(auditEvents)
        .where(and(where, gt(auditEvents.sequence, after)))
        .orderBy(auditEvents.sequence)
        .limit(EXPORT_BATCH);
      for (const row of rows) yield toAuditEvent(row);
      const last = rows.at(-1);
      if (!last || rows.length < EXPORT_BATCH) return;
      after = last.sequence;
      // Other requests get their turn between batches (PGlite runs on this thread).
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  return { list, page, exportSnapshot, exportEvents };
}

export type AuditReader = ReturnType<typeof createAuditReader>;

/** One event as a JSON Lines line: the API's object with its account, everything the chain check needs. */
export const jsonLine = (event: AuditEvent, account: number) => `${JSON.stringify({ account, ...event })}\n`;

const CSV_COLUMNS = [
  'Sequence',
  'Time (UTC)',
  'Actor type',
  'Actor id',
  'Actor',
  'Action',
  'Action name',
  'Target type',
  'Target id',
  'Target',
  'Changes',
  'IP',
  'User agent',
  'Request id',
  'Previous hash',
  'Hash',
] as const;

/**
 * A cell through lib/csv.ts, as the activity log's and the attempts' CSV write theirs: the formula guard (full-width
 * ＝ ＋ － ＠ included) and RFC 4180 quoting.
 */
const csvCell = (value: string | number | null): string => csvTextCell(value === null ? null : String(value));

export const csvHeader = () => `${CSV_COLUMNS.join(',')}\r\n`;

export function csvLine(event: AuditEvent): string {
  const [target] = event.targets;
  return `${[
    event.sequence,
    event.occurredAt,
    event.actor.type,
    event.actor.id,
    event.actor.name,
    auditActionLabels[event.action],
    event.action,
    target?.type ?? null,
    target?.id ?? null,
    target?.name ?? null,
    event.changes === null ? null : JSON.stringify(event.changes),
    event.ip,
    event.userAgent,
    event.requestId,
    event.prevHash,
    event.hash,
  ]
    .map(csvCell)
    .join(',')}\r\n`;
}
