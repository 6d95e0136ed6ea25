import { WEBHOOK_DISABLE_AFTER_DAYS, WEBHOOK_WARN_AFTER_DAYS } from '@veriform/contracts';
import type { Db, ExecuteSql, Tx } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { claimedRowReader, sqlCount } from '../../jobs/claimed-row.ts';
import { type ClaimedRow, ROW_JOB_MARK, type RowStore } from '../../jobs/claims.ts';
import { deliverWebhook as deliverWebhookJob } from '../../jobs/definitions/deliver-webhook.ts';
import { sendWebhookFailingEmailJob } from '../../jobs/definitions/send-webhook-failing-email.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Sealer } from '../../lib/sealed.ts';
import { type DeliveryResult, deliverWebhook, type ResolveHost } from '../../lib/webhook-delivery.ts';
import { signDelivery } from '../../lib/webhook-signing.ts';
import type { HostResolver } from '../../lib/webhook-url.ts';
import type { AuditLog } from '../audit/index.ts';
import { endpointTarget } from './replay.ts';
import { signingSecrets } from './secrets.ts';

const { memberships, webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints, webhookEvents } = schema;

/**
 * The receiver's answer as stored with the attempt (issue #33, ADR 25): `[redacted]` instead when the delivery's event
 * is about a verification whose personal data was redacted (its `evidence` is then null; unredacted it is an object),
 * for a receiver may echo the number from its own records whatever we sent. The event row is read `for share`, so an
 * answer recorded while a redaction runs waits for it and is stored as it decided, and a redaction after this attempt
 * commits finds the row and replaces it.
 */
const storedAnswer = (deliveryId: number, snippet: string) => sql`(CASE WHEN EXISTS (
    SELECT 1 FROM ${webhookEvents} e
    WHERE e.id = (SELECT d.event_id FROM ${webhookDeliveries} d WHERE d.id = ${deliveryId})
      AND e.type LIKE 'verification.%' AND e.data->'evidence' = 'null'::jsonb
    FOR SHARE) THEN '[redacted]' ELSE ${snippet}::text END)`;

const DAY_MS = 86_400_000;

export type AttemptTrigger = 'scheduled' | 'replay' | 'test';
export type AttemptJob = { deliveryId: number; attempt: number; trigger: AttemptTrigger };

/** What one run of the deliver-webhook job did (its stored output). */
export type AttemptOutcome =
  | 'succeeded'
  | 'retrying'
  | 'failed'
  /** The delivery, its event or its endpoint was deleted. */
  | 'gone'
  /** This attempt was already made (a second run after a crash, or a replay that overtook a scheduled retry). */
  | 'stale'
  /** The endpoint was disabled meanwhile: the delivery fails for now and stays replayable. */
  | 'endpoint_disabled';

const JITTER = 0.1;

/** The delay before the next attempt after `made` attempts, ±10 %; null when they are used up. */
export function nextDelayMs(
  delaysSeconds: readonly number[],
  made: number,
  random = Math.random,
): number | null {
  const seconds = delaysSeconds[made - 1];
  if (seconds === undefined) return null;
  return Math.round(seconds * 1000 * (1 + JITTER * (2 * random() - 1)));
}

/** The body of a delivery (Standard Webhooks): `{type, timestamp, data}`, the same bytes at every attempt. */
export function deliveryBody(event: { type: string; createdAt: Date; data: unknown }): string {
  return JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data: event.data });
}

/**
 * Sends webhook deliveries (issue #17 item 3; ADR 21): one attempt per claim of the delivery's row (the deliver-webhook
 * row job, ADR 33). The HTTP request runs outside any transaction (up to 10 s); its outcome, the delivery's new state
 * (with when it is due again, for a retry) and the endpoint's failing streak are then written in one transaction,
 * guarded by the number of attempts made, so a claim run twice records one attempt.
 */
export function createWebhookSender(deps: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'webhooksAllowPrivateUrls' | 'webhookRetryDelaysSeconds' | 'webhookTimeoutMs'>;
  sealer: Sealer;
  jobs: JobQueue;
  /** Disabling a failing endpoint is Veriform's own action in the account's audit log. */
  audit: AuditLog;
  /** The same resolver that checked the URL when it was saved (tests inject one). */
  resolveHost: HostResolver;
}) {
  const { db, clock, config, sealer, jobs, audit } = deps;
  const resolve: ResolveHost = async (hostname) => {
    const [address] = await deps.resolveHost(hostname);
    if (!address) throw new Error(`${hostname} has no address`);
    return { address, family: address.includes(':') ? 6 : 4 };
  };

  async function load(deliveryId: number) {
    const [row] = await db
      .select({
        delivery: webhookDeliveries,
        event: {
          id: webhookEvents.id,
          type: webhookEvents.type,
          data: webhookEvents.data,
          createdAt: webhookEvents.createdAt,
        },
        endpoint: webhookEndpoints,
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookDeliveries.id, deliveryId))
      .limit(1);
    return row;
  }

  /** Only while no other run has recorded this attempt. */
  const unchanged = (job: AttemptJob) =>
    and(eq(webhookDeliveries.id, job.deliveryId), eq(webhookDeliveries.attemptCount, job.attempt));

  async function attempt(job: AttemptJob, log: FastifyBaseLogger): Promise<AttemptOutcome> {
    const found = await load(job.deliveryId);
    if (!found) return 'gone';
    const { delivery, event, endpoint } = found;
    if (delivery.attemptCount !== job.attempt) return 'stale';
    if (!endpoint.enabled && job.trigger !== 'test') {
      await db
        .update(webhookDeliveries)
        .set({ status: 'failed', nextAttemptAt: null, dueAt: null, claims: 0 })
        .where(unchanged(job));
      return 'endpoint_disabled';
    }

    const body = deliveryBody(event);
    const now = clock.now();
    const signature = signDelivery({
      id: event.id,
      timestamp: now,
      body,
      secrets: signingSecrets(sealer, endpoint, now),
    });
    const result = await deliverWebhook({
      url: endpoint.url,
      headers: { ...signature, 'content-type': 'application/json', 'user-agent': 'Veriform-Webhooks/1' },
      body,
      resolve,
      allowPrivate: config.webhooksAllowPrivateUrls,
      timeoutMs: config.webhookTimeoutMs,
    });
    const outcome = await record(job, endpoint.id, now, result);
    // Never the URL's query or the answer: a customer's URL may carry a token, an answer anything.
    log.info(
      {
        deliveryId: job.deliveryId,
        eventType: event.type,
        statusCode: result.statusCode,
        error: result.error,
      },
      `deliver-webhook: ${outcome}`,
    );
    return outcome;
  }

  async function record(
    job: AttemptJob,
    endpointId: number,
    attemptedAt: Date,
    result: DeliveryResult,
  ): Promise<AttemptOutcome> {
    const made = job.attempt + 1;
    // "Send test event" is tried once: its answer is shown at once, and it does not count for the endpoint's health.
    const delay =
      result.ok || job.trigger === 'test' ? null : nextDelayMs(config.webhookRetryDelaysSeconds, made);
    const status = result.ok ? 'succeeded' : delay === null ? 'failed' : 'retrying';
    const nextAttemptAt = delay === null ? null : new Date(attemptedAt.getTime() + delay);
    if (result.ok) return recordSuccess(job, endpointId, attemptedAt, result);
    return transaction(db, async (tx) => {
      const [updated] = await tx
        .update(webhookDeliveries)
        // The next attempt is this row coming due again: claimed then by any process's worker.
        .set({
          attemptCount: made,
          lastAttemptAt: attemptedAt,
          status,
          nextAttemptAt,
          dueAt: nextAttemptAt,
          nextTrigger: 'scheduled',
          claims: 0,
        })
        .where(unchanged(job))
        .returning({ id: webhookDeliveries.id });
      if (!updated) return 'stale';
      await tx.insert(webhookDeliveryAttempts).values({
        deliveryId: job.deliveryId,
        attemptedAt,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        error: result.error,
        responseSnippet: storedAnswer(job.deliveryId, result.responseSnippet),
        trigger: job.trigger,
      });
      if (job.trigger !== 'test') {
        // Written only when the streak starts or ends: every delivery of a busy endpoint updating its one row would
        // queue them all on that row's lock (measured: scripts/bench-webhooks.ts).
        await tx
          .update(webhookEndpoints)
          .set(result.ok ? { failingSince: null, failureWarnedAt: null } : { failingSince: attemptedAt })
          .where(
            and(
              eq(webhookEndpoints.id, endpointId),
              result.ok ? isNotNull(webhookEndpoints.failingSince) : isNull(webhookEndpoints.failingSince),
            ),
          );
        if (!result.ok) await actOnFailingStreak(tx, endpointId, attemptedAt);
      }
      return status;
    });
  }

  /**
   * A failing attempt may end a long streak's grace (issue #17 item 5): after WEBHOOK_WARN_AFTER_DAYS the owners are
   * warned (once per streak: failure_warned_at), after WEBHOOK_DISABLE_AFTER_DAYS the endpoint is disabled and they
   * are told. Each update is guarded by what it changes, so attempts recorded at once warn or disable once. Past both
   * marks at once (a single late attempt) only the disabling is mailed: a warning of what already happened is noise.
   * Both updates match no row (and lock none) while the streak is younger than a day.
   */
  /**
   * A success in one statement (no transaction round trips: the usual case, and the one throughput rests on): the
   * guarded delivery update, its attempt row, and the end of the endpoint's failing streak if there was one.
   */
  async function recordSuccess(
    job: AttemptJob,
    endpointId: number,
    attemptedAt: Date,
    result: DeliveryResult,
  ): Promise<AttemptOutcome> {
    const countsForHealth = job.trigger !== 'test';
    const answer: unknown = await db.execute(sql`
      WITH delivery AS (
        UPDATE ${webhookDeliveries}
        SET attempt_count = ${job.attempt + 1}, last_attempt_at = ${attemptedAt}, status = 'succeeded',
            next_attempt_at = NULL, due_at = NULL, claims = 0
        WHERE id = ${job.deliveryId} AND attempt_count = ${job.attempt}
        RETURNING id
      ), attempt AS (
        INSERT INTO ${webhookDeliveryAttempts}
          (delivery_id, attempted_at, status_code, latency_ms, error, response_snippet, trigger)
        SELECT id, ${attemptedAt}, ${result.statusCode}, ${result.latencyMs}, NULL,
          ${storedAnswer(job.deliveryId, result.responseSnippet)},
          ${job.trigger}
        FROM delivery
      ), streak AS (
        UPDATE ${webhookEndpoints} SET failing_since = NULL, failure_warned_at = NULL
        WHERE id = ${endpointId} AND failing_since IS NOT NULL AND ${countsForHealth}
          AND EXISTS (SELECT 1 FROM delivery)
      )
      SELECT count(*)::int AS recorded FROM delivery`);
    return recordedOne(answer) ? 'succeeded' : 'stale';
  }

  async function actOnFailingStreak(tx: Tx, endpointId: number, attemptedAt: Date): Promise<void> {
    const failingFor = (days: number) =>
      and(
        eq(webhookEndpoints.id, endpointId),
        eq(webhookEndpoints.enabled, true),
        lte(webhookEndpoints.failingSince, new Date(attemptedAt.getTime() - days * DAY_MS)),
      );
    const [disabled] = await tx
      .update(webhookEndpoints)
      .set({
        enabled: false,
        disabledAt: attemptedAt,
        disabledReason: 'failing',
        failureWarnedAt: sql`coalesce(${webhookEndpoints.failureWarnedAt}, ${attemptedAt})`,
      })
      .where(failingFor(WEBHOOK_DISABLE_AFTER_DAYS))
      .returning({
        id: webhookEndpoints.id,
        accountId: webhookEndpoints.accountId,
        url: webhookEndpoints.url,
      });
    if (disabled) {
      await audit.recordAsSystem(tx, disabled.accountId, {
        action: 'webhook_endpoint.disabled',
        targets: [endpointTarget(disabled)],
        changes: { enabled: [true, false] },
      });
      await mailOwners(tx, disabled, 'disabled');
      return;
    }
    const [warned] = await tx
      .update(webhookEndpoints)
      .set({ failureWarnedAt: attemptedAt })
      .where(and(failingFor(WEBHOOK_WARN_AFTER_DAYS), isNull(webhookEndpoints.failureWarnedAt)))
      .returning({ id: webhookEndpoints.id, accountId: webhookEndpoints.accountId });
    if (warned) await mailOwners(tx, warned, 'warning');
  }

  async function mailOwners(
    tx: Tx,
    endpoint: { id: number; accountId: number },
    kind: 'warning' | 'disabled',
  ): Promise<void> {
    const owners = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.accountId, endpoint.accountId), eq(memberships.role, 'owner')))
      .orderBy(memberships.userId);
    for (const { userId } of owners) {
      await jobs.enqueue(sendWebhookFailingEmailJob, { endpointId: endpoint.id, userId, kind }, { tx });
    }
  }

  return { attempt };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;

/**
 * The deliveries' rows (ADR 33): a delivery is owed an attempt while `due_at` is set and has come (new or replayed:
 * now; a retry: its time). The claim leases it (due again after the lease, should this process die) and counts the
 * claim; recording an attempt (`attempt` above) sets `due_at` for the next one or clears it, so a finished run needs
 * no statement of its own.
 */
export function createWebhookDeliveryStore(executeSql: ExecuteSql): RowStore {
  const run = (text: string, values: unknown[]) => executeSql(`${ROW_JOB_MARK} ${text}`, values);
  return {
    name: deliverWebhookJob.name,
    async claim(limit, leaseSeconds) {
      const { rows } = await run(
        `UPDATE webhook_deliveries d
         SET due_at = now() + $2::integer * interval '1 second', claims = d.claims + 1
         FROM (
           SELECT id FROM webhook_deliveries
           WHERE due_at <= now() AND status IN ('pending', 'retrying')
           ORDER BY due_at
           LIMIT $1::integer
           FOR UPDATE SKIP LOCKED
         ) due
         WHERE d.id = due.id
         RETURNING d.id, d.attempt_count, d.next_trigger, d.claims`,
        [limit, leaseSeconds],
      );
      return rows.map(readClaimed);
    },
    // The attempt recorded its outcome (and the next due time) itself; a stale or vanished delivery owes nothing.
    async done() {},
    async retry(row: ClaimedRow, delayMs: number) {
      await run(
        `UPDATE webhook_deliveries SET due_at = now() + $2::integer * interval '1 millisecond' WHERE id = $1::bigint`,
        [row.id, delayMs],
      );
    },
    async giveUp(row: ClaimedRow) {
      await run(
        `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, due_at = NULL, claims = 0
         WHERE id = $1::bigint`,
        [row.id],
      );
    },
  };
}

/** bigint arrives as a string (node-postgres) or a number (PGlite). */
const readClaimed = claimedRowReader(
  'delivery claim',
  {
    id: z.union([z.string(), z.number()]),
    attempt_count: sqlCount,
    next_trigger: z.unknown(),
    claims: sqlCount,
  },
  (row) => ({
    id: String(row.id),
    data: { deliveryId: Number(row.id), attempt: row.attempt_count, trigger: row.next_trigger },
    tries: row.claims,
  }),
);

/** Whether the success statement's `recorded` column says 1 (node-postgres and PGlite both answer `{rows}`). */
function recordedOne(answer: unknown): boolean {
  if (typeof answer !== 'object' || answer === null || !('rows' in answer) || !Array.isArray(answer.rows)) {
    throw new Error('recordSuccess: the driver answered without rows');
  }
  const [row]: unknown[] = answer.rows;
  return typeof row === 'object' && row !== null && 'recorded' in row && Number(row.recorded) === 1;
}
