import {
  type ReplayFailedWebhooksRequest,
  tooManyRequestsText,
  WEBHOOK_EVENT_REPLAYS_PER_MINUTE,
  WEBHOOK_TEST_EVENT_TYPE,
  WEBHOOK_TEST_EVENTS_PER_MINUTE,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookReplayQueued,
  webhookReplayTexts,
} from '@veriform/contracts';
import type { Db, Tx } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, eq, gte } from 'drizzle-orm';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import type { AuditLog } from '../audit/index.ts';
import { type DeliveryListQuery, listDeliveries } from './deliveries.ts';
import type { WebhookEvents } from './events.ts';
import { createWebhookReplay, endpointTarget, eventTarget, replayableSince } from './replay.ts';

const { webhookDeliveries, webhookEndpoints, webhookEvents } = schema;

const MINUTE_MS = 60_000;

/**
 * Operating an endpoint (Settings → Webhooks, issue #17 item 5; the routes ask `manageCompany`): its deliveries with
 * their attempts, "Send test event", and replays of one event or of every failed one in a range. Each action that
 * sends is in the audit log, in its own transaction.
 */
export function createWebhookOperations(deps: {
  db: Db;
  clock: Clock;
  jobs: JobQueue;
  rateLimit: RateLimiter;
  webhookEvents: WebhookEvents;
  audit: AuditLog;
}) {
  const { db, clock, rateLimit, audit } = deps;
  const replay = createWebhookReplay(deps);

  async function ownEndpoint(executor: Db | Tx, ctx: AccountContext, id: number) {
    const [row] = await executor
      .select({ id: webhookEndpoints.id, url: webhookEndpoints.url, enabled: webhookEndpoints.enabled })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.accountId, ctx.accountId), eq(webhookEndpoints.id, id)))
      .limit(1);
    if (!row) throw new AppError('not_found');
    return row;
  }

  async function deliveries(
    ctx: AccountContext,
    endpointId: number,
    query: DeliveryListQuery,
  ): Promise<WebhookDeliveryList> {
    await ownEndpoint(db, ctx, endpointId);
    return listDeliveries(db, endpointId, query);
  }

  /**
   * A `webhook.test` event to this endpoint only, enabled or not, tried once (sender.ts). Limited per endpoint: each
   * press is a request to the customer's server.
   */
  async function sendTest(ctx: AccountContext, endpointId: number): Promise<WebhookDelivery> {
    await rateLimit.consume(
      [
        {
          bucket: `webhook-test:endpoint:${endpointId}`,
          limit: WEBHOOK_TEST_EVENTS_PER_MINUTE,
          windowMs: MINUTE_MS,
        },
      ],
      tooManyRequestsText,
    );
    return transaction(db, async (tx) => {
      const endpoint = await ownEndpoint(tx, ctx, endpointId);
      const emitted = await deps.webhookEvents.emit(tx, ctx.accountId, {
        type: WEBHOOK_TEST_EVENT_TYPE,
        data: { endpointId, message: 'This is a test event from Veriform.' },
        endpointId,
      });
      const [deliveryId] = emitted.deliveryIds;
      if (deliveryId === undefined) throw new Error('send-test: no delivery was made');
      const [delivery] = await tx
        .select({
          eventId: webhookDeliveries.eventId,
          created: webhookDeliveries.eventCreatedAt,
          status: webhookDeliveries.status,
        })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.id, deliveryId))
        .limit(1);
      if (!delivery) throw new Error('send-test: the delivery just made is gone');
      await audit.record(tx, ctx, {
        action: 'webhook_endpoint.test_sent',
        targets: [
          endpointTarget(endpoint),
          eventTarget({ id: delivery.eventId, type: WEBHOOK_TEST_EVENT_TYPE }),
        ],
      });
      return {
        eventId: delivery.eventId,
        eventType: WEBHOOK_TEST_EVENT_TYPE,
        created: delivery.created.toISOString(),
        status: delivery.status,
        nextAttemptAt: null,
        attempts: [],
      };
    });
  }

  /**
   * One event again, to one enabled endpoint of the event's account (both else 404). Limited per event and endpoint,
   * and per endpoint, like "Send test event": each replay is a request to the customer's server. The endpoint's bucket
   * names the account too: the endpoint id comes from the body, and another account's id (a 404 below) must not use
   * up that endpoint's allowance.
   */
  async function replayEvent(
    ctx: AccountContext,
    eventId: string,
    endpointId: number,
  ): Promise<WebhookReplayQueued> {
    const endpointBucket = `webhook-replay:account:${ctx.accountId}:endpoint:${endpointId}`;
    await rateLimit.consume(
      [
        {
          bucket: `${endpointBucket}:event:${eventId}`,
          limit: WEBHOOK_EVENT_REPLAYS_PER_MINUTE.perEvent,
          windowMs: MINUTE_MS,
        },
        { bucket: endpointBucket, limit: WEBHOOK_EVENT_REPLAYS_PER_MINUTE.perEndpoint, windowMs: MINUTE_MS },
      ],
      tooManyRequestsText,
    );
    return transaction(db, async (tx) => {
      const now = clock.now();
      const [event] = await tx
        .select({ id: webhookEvents.id, type: webhookEvents.type })
        .from(webhookEvents)
        .where(
          and(
            eq(webhookEvents.id, eventId),
            eq(webhookEvents.accountId, ctx.accountId),
            gte(webhookEvents.createdAt, replayableSince(now)),
          ),
        )
        .limit(1);
      if (!event) throw new AppError('not_found');
      const endpoint = await ownEndpoint(tx, ctx, endpointId);
      if (!endpoint.enabled) throw AppError.nonField('validation_error', webhookReplayTexts.endpointDisabled);
      if (event.type === WEBHOOK_TEST_EVENT_TYPE && !(await hasDelivery(tx, endpointId, eventId))) {
        // A test event belongs to the endpoint it tested; another one never gets it.
        throw new AppError('not_found');
      }
      const queued = await replay.replayEvent(tx, { accountId: ctx.accountId, endpointId, eventId, now });
      await audit.record(tx, ctx, {
        action: 'webhook_event.replayed',
        targets: [eventTarget(event), endpointTarget(endpoint)],
      });
      return queued;
    });
  }

  async function hasDelivery(tx: Tx, endpointId: number, eventId: string): Promise<boolean> {
    const [row] = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.eventId, eventId)))
      .limit(1);
    return row !== undefined;
  }

  async function replayFailed(
    ctx: AccountContext,
    endpointId: number,
    range: ReplayFailedWebhooksRequest,
  ): Promise<WebhookReplayQueued> {
    return transaction(db, async (tx) => {
      const endpoint = await ownEndpoint(tx, ctx, endpointId);
      if (!endpoint.enabled) throw AppError.nonField('validation_error', webhookReplayTexts.endpointDisabled);
      const queued = await replay.replayFailed(tx, {
        accountId: ctx.accountId,
        endpointId,
        range,
        now: clock.now(),
      });
      await audit.record(tx, ctx, {
        action: 'webhook_endpoint.replayed_failed',
        targets: [endpointTarget(endpoint)],
        changes: { since: range.since, until: range.until, queued: queued.queued },
      });
      return queued;
    });
  }

  return { deliveries, sendTest, replayEvent, replayFailed };
}

export type WebhookOperations = ReturnType<typeof createWebhookOperations>;
