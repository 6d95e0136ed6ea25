import {
  type ApiEventList,
  type apiEventListQuerySchema,
  WEBHOOK_EVENT_RETENTION_DAYS,
  type WebhookEvent,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Clock } from '../../lib/clock.ts';
import { notACursor } from '../../lib/cursor-pages.ts';
import { AppError } from '../../lib/errors.ts';
import { type AccountContext, keyLivemode } from '../../plugins/account-context.ts';
import { EVENT_ID_PATTERN } from '../webhooks/index.ts';

const { webhookEvents, webhookDeliveries } = schema;

type ApiEventListQuery = z.output<typeof apiEventListQuerySchema>;

const RETENTION_MS = WEBHOOK_EVENT_RETENTION_DAYS * 24 * 60 * 60 * 1000;

/** Events older than this are gone for every reader, whether or not the prune job has removed them yet. */
export const oldestKeptEvent = (now: Date): Date => new Date(now.getTime() - RETENTION_MS);

const columns = {
  id: webhookEvents.id,
  type: webhookEvents.type,
  createdAt: webhookEvents.createdAt,
  data: webhookEvents.data,
  livemode: webhookEvents.livemode,
};
type EventRow = { id: string; type: string; createdAt: Date; data: unknown; livemode: boolean };

/**
 * The key's own mode only (issue #33, ADR 29): a `vf_test_` key's events are those about test objects, a `vf_live_`
 * key's all others; another mode's event answers as an unknown id does.
 */
const ofKeyMode = (ctx: AccountContext): SQL | undefined => {
  const livemode = keyLivemode(ctx);
  return livemode === null ? undefined : eq(webhookEvents.livemode, livemode);
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** As a delivery's body holds it, with the id its `webhook-id` header carries. */
const toApi = (row: EventRow): WebhookEvent => ({
  id: row.id,
  type: row.type,
  created: row.createdAt.toISOString(),
  livemode: row.livemode,
  data: isRecord(row.data) ? row.data : {},
});

/** A delivery that failed, whether more attempts are scheduled (`retrying`) or none are (`failed`). */
const failedDelivery = sql`exists (select 1 from ${webhookDeliveries} d where d.event_id = ${webhookEvents.id}
  and d.status in ('retrying', 'failed'))`;

/**
 * API v1's events (issue #17 item 2): the account's webhook events of the last WEBHOOK_EVENT_RETENTION_DAYS, as their
 * deliveries send them, so a receiver that missed some can catch up by listing. The retention cut is applied on read
 * too: the prune job runs daily, and an event is not readable one hour longer because the job has not run yet.
 */
export function createApiEvents(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  /**
   * Rows after the cursor's event in (created, id) order, as one row comparison the account's index (or the type's)
   * serves directly, as the verifications list does. The cursor's instant is read in SQL, keeping its microseconds.
   */
  const afterCursor = (ctx: AccountContext, startingAfter: string): SQL => {
    // A cursor of the other mode is no cursor of this list (none found: an empty page, then the 400 below).
    const livemode = keyLivemode(ctx);
    const sameMode = livemode === null ? sql`` : sql` and c.livemode = ${livemode}`;
    return sql`(${webhookEvents.createdAt}, ${webhookEvents.id}) < (
      select c.created_at, c.id from ${webhookEvents} c where c.id = ${startingAfter}
        and c.account_id = ${ctx.accountId}${sameMode})`;
  };

  /** An empty page after a cursor: fine for a real one (the list's end), a 400 for one that is not of this list. */
  async function assertCursor(ctx: AccountContext, startingAfter: string): Promise<void> {
    const [cursor] = EVENT_ID_PATTERN.test(startingAfter)
      ? await db
          .select({ id: webhookEvents.id })
          .from(webhookEvents)
          .where(
            and(
              eq(webhookEvents.id, startingAfter),
              eq(webhookEvents.accountId, ctx.accountId),
              ofKeyMode(ctx),
            ),
          )
          .limit(1)
      : [];
    if (!cursor) throw notACursor();
  }

  /** Newest first by (created, id), a keyset page: events emitted while a caller pages land before its first page. */
  async function list(ctx: AccountContext, query: ApiEventListQuery): Promise<ApiEventList> {
    const { startingAfter } = query;
    if (startingAfter !== undefined && !EVENT_ID_PATTERN.test(startingAfter))
      await assertCursor(ctx, startingAfter);
    const from = query['created[gte]'];
    const until = query['created[lt]'];
    const oldest = oldestKeptEvent(clock.now());
    const rows = await db
      .select(columns)
      .from(webhookEvents)
      .where(
        and(
          eq(webhookEvents.accountId, ctx.accountId),
          ofKeyMode(ctx),
          query.type === undefined ? undefined : eq(webhookEvents.type, query.type),
          gte(webhookEvents.createdAt, from === undefined ? oldest : maxDate(oldest, new Date(from))),
          until === undefined ? undefined : lt(webhookEvents.createdAt, new Date(until)),
          query.deliveryFailed === undefined
            ? undefined
            : query.deliveryFailed === 'true'
              ? failedDelivery
              : sql`not ${failedDelivery}`,
          startingAfter === undefined ? undefined : afterCursor(ctx, startingAfter),
        ),
      )
      // NULLS LAST as the indexes are built (drizzle's desc()), so the planner reads them in order.
      .orderBy(sql`${webhookEvents.createdAt} desc nulls last`, sql`${webhookEvents.id} desc nulls last`)
      .limit(query.limit + 1);
    if (rows.length === 0 && startingAfter !== undefined) await assertCursor(ctx, startingAfter);
    const page = rows.slice(0, query.limit).map(toApi);
    const hasMore = rows.length > query.limit;
    const last = page.at(-1);
    return { data: page, hasMore, nextCursor: hasMore && last ? last.id : null };
  }

  /** One event of the key's account and of the kept days; anything else, a malformed id included, is a 404. */
  async function get(ctx: AccountContext, id: string): Promise<WebhookEvent> {
    if (!EVENT_ID_PATTERN.test(id)) throw new AppError('not_found');
    const [row] = await db
      .select(columns)
      .from(webhookEvents)
      .where(
        and(
          eq(webhookEvents.id, id),
          eq(webhookEvents.accountId, ctx.accountId),
          ofKeyMode(ctx),
          gte(webhookEvents.createdAt, oldestKeptEvent(clock.now())),
        ),
      )
      .limit(1);
    if (!row) throw new AppError('not_found');
    return toApi(row);
  }

  return { list, get };
}

export type ApiEvents = ReturnType<typeof createApiEvents>;

const maxDate = (a: Date, b: Date): Date => (a.getTime() >= b.getTime() ? a : b);

/** Events removed per statement: a backlog (the job down for days) goes in bounded steps, each its own commit. */
const PRUNE_BATCH = 1_000;

/**
 * Deletes the events past WEBHOOK_EVENT_RETENTION_DAYS, across accounts (the daily prune-webhook-events job); their
 * deliveries and attempts go with them (foreign keys cascade). Each batch is one statement on the oldest events by
 * the created_at index; SKIP LOCKED makes two runs at once take different events instead of waiting on (or
 * deadlocking over) the same ones.
 */
export async function pruneWebhookEvents(db: Db, clock: Clock, batch = PRUNE_BATCH): Promise<number> {
  const cutoff = oldestKeptEvent(clock.now());
  let deleted = 0;
  for (;;) {
    const oldest = db
      .select({ id: webhookEvents.id })
      .from(webhookEvents)
      .where(lt(webhookEvents.createdAt, cutoff))
      .orderBy(webhookEvents.createdAt)
      .limit(batch)
      .for('update', { skipLocked: true });
    const gone = await db
      .delete(webhookEvents)
      .where(inArray(webhookEvents.id, oldest))
      .returning({ id: webhookEvents.id });
    deleted += gone.length;
    if (gone.length < batch) return deleted;
  }
}
