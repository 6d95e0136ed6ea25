import {
  type WebhookDeliveryAttempt,
  type WebhookDeliveryList,
  type WebhookDeliveryStatus,
  webhookAttemptErrors,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';

const { webhookDeliveries, webhookDeliveryAttempts, webhookEvents } = schema;

export type DeliveryListQuery = {
  status?: WebhookDeliveryStatus | undefined;
  startingAfter?: string | undefined;
  limit: number;
};

type AttemptRow = typeof webhookDeliveryAttempts.$inferSelect;

export const attemptDto = (row: AttemptRow): WebhookDeliveryAttempt => ({
  at: row.attemptedAt.toISOString(),
  statusCode: row.statusCode,
  latencyMs: row.latencyMs,
  error: webhookAttemptError(row.error),
  responseSnippet: row.responseSnippet,
  trigger: row.trigger,
});

const attemptErrorSchema = z.enum(webhookAttemptErrors);

/** The column is plain text; only the contract's reasons are shown. */
const webhookAttemptError = (error: string | null): WebhookDeliveryAttempt['error'] =>
  attemptErrorSchema.safeParse(error).data ?? null;

const EVENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** `startingAfter` is the last event id of the previous page; anything else is a 400 on it. */
const unknownCursor = () =>
  AppError.field(
    'validation_error',
    'startingAfter',
    'Use the eventId of the last delivery of the previous page.',
  );

/**
 * An endpoint's deliveries (the endpoint page, issue #17 item 5): newest event first, keyset-paged on
 * (event_created_at, event_id) so a delivery made while paging never shifts a page (one of the two
 * webhook_deliveries_endpoint_*_created indexes walks it, with or without `status`). The page's attempts come in one
 * more query, oldest first.
 */
export async function listDeliveries(
  db: Db,
  endpointId: number,
  query: DeliveryListQuery,
): Promise<WebhookDeliveryList> {
  const conditions = [eq(webhookDeliveries.endpointId, endpointId)];
  if (query.status) conditions.push(eq(webhookDeliveries.status, query.status));
  if (query.startingAfter !== undefined) {
    if (!EVENT_ID.test(query.startingAfter)) throw unknownCursor();
    const [cursor] = await db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.eventId, query.startingAfter)),
      )
      .limit(1);
    if (!cursor) throw unknownCursor();
    // Compared in SQL as stored: the timestamps' microseconds never pass through a JavaScript Date.
    conditions.push(
      sql`(${webhookDeliveries.eventCreatedAt}, ${webhookDeliveries.eventId}) < (select c.event_created_at, c.event_id from webhook_deliveries c where c.id = ${cursor.id})`,
    );
  }
  const rows = await db
    .select({
      id: webhookDeliveries.id,
      eventId: webhookDeliveries.eventId,
      eventType: webhookEvents.type,
      created: webhookDeliveries.eventCreatedAt,
      status: webhookDeliveries.status,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(...conditions))
    .orderBy(desc(webhookDeliveries.eventCreatedAt), desc(webhookDeliveries.eventId))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const attempts = await attemptsOf(
    db,
    page.map((row) => row.id),
  );
  return {
    results: page.map((row) => ({
      eventId: row.eventId,
      eventType: row.eventType,
      created: row.created.toISOString(),
      status: row.status,
      nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
      attempts: attempts.get(row.id) ?? [],
    })),
    hasMore: rows.length > query.limit,
  };
}

/** The attempts of these deliveries, oldest first, by delivery id. */
async function attemptsOf(db: Db, deliveryIds: number[]): Promise<Map<number, WebhookDeliveryAttempt[]>> {
  const byDelivery = new Map<number, WebhookDeliveryAttempt[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const rows = await db
    .select()
    .from(webhookDeliveryAttempts)
    .where(inArray(webhookDeliveryAttempts.deliveryId, deliveryIds))
    .orderBy(asc(webhookDeliveryAttempts.attemptedAt), asc(webhookDeliveryAttempts.id));
  for (const row of rows) {
    const list = byDelivery.get(row.deliveryId) ?? [];
    list.push(attemptDto(row));
    byDelivery.set(row.deliveryId, list);
  }
  return byDelivery;
}
