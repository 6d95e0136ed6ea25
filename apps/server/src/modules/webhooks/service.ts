import {
  type AuditTarget,
  type CreatedBy,
  type CreateWebhookEndpointRequest,
  MAX_WEBHOOK_ENDPOINTS,
  type RotateWebhookSecretRequest,
  type UpdateWebhookEndpointRequest,
  type WebhookEndpoint,
  type WebhookEndpointList,
  type WebhookSecret,
  webhookTexts,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import { lockAccount } from '../../lib/account-lock.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { Sealer } from '../../lib/sealed.ts';
import { type HostResolver, resolveWebhookTarget, webhookUrlPolicy } from '../../lib/webhook-url.ts';
import { type AccountContext, assertStillCan, memberOf } from '../../plugins/account-context.ts';
import { type AuditLog, changesOf } from '../audit/index.ts';
import { generateWebhookSecret, webhookSecretContext, webhookSecretPreview } from './secrets.ts';

const { users, webhookEndpoints } = schema;

/** The creator as lists show them (ADR 30), from a LEFT JOIN of users: null when unknown. */
const creator = { id: users.id, name: users.name, email: users.email };

type EndpointRow = typeof webhookEndpoints.$inferSelect;

const HOUR_MS = 3_600_000;

/**
 * Webhook endpoints (issue #17 item 1; ADR 20), managed by owners (the routes ask `manageCompany`). The signing
 * secret is generated here, sealed with SECRET_KEY under the endpoint's id, and leaves only through `secret`; lists
 * show its preview. A URL is checked (lib/webhook-url.ts: https in production, no private, loopback, link-local or
 * metadata address, every resolved address) before anything is written, so the owner hears at once. At most
 * MAX_WEBHOOK_ENDPOINTS per account, counted and inserted under the account row's lock.
 *
 * Every change, and every reading of a secret, is in the audit log (webhook_endpoint.*), in the change's transaction.
 */
export function createWebhookEndpointService(deps: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'isProduction' | 'webhooksAllowPrivateUrls'>;
  sealer: Sealer;
  /** How URLs' host names are resolved when saved (the operating system's resolver; tests inject one). */
  resolveHost: HostResolver;
  /** The audit log (issue #16): write with the change's own transaction. */
  audit: AuditLog;
}) {
  const { db, clock, sealer, resolveHost, audit } = deps;
  /** Named by its URL: what an owner recognises. */
  const endpointTarget = (row: { id: number; url: string }): AuditTarget => ({
    type: 'webhook_endpoint',
    id: String(row.id),
    name: row.url,
  });
  /** The fields an owner edits, as the audit log names them (never the secret). */
  const audited = (row: EndpointRow) => ({
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    enabled: row.enabled,
  });
  const policy = webhookUrlPolicy(deps.config);

  const toDto = (row: EndpointRow, createdBy: CreatedBy): WebhookEndpoint => ({
    id: row.id,
    account: row.accountId,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    enabled: row.enabled,
    created: row.createdAt.toISOString(),
    secretPreview: webhookSecretPreview(sealer.open(row.secretSealed, webhookSecretContext(row.id))),
    disabledAt: row.disabledAt?.toISOString() ?? null,
    disabledReason: row.enabled ? null : (row.disabledReason ?? 'manual'),
    failingSince: row.failingSince?.toISOString() ?? null,
    createdBy,
  });

  /** The endpoint's creator, for answers that read one row (a PATCH, a rotation). */
  async function creatorOf(executor: Db, row: EndpointRow): Promise<CreatedBy> {
    if (row.createdByUserId === null) return null;
    const [found] = await executor
      .select(creator)
      .from(users)
      .where(eq(users.id, row.createdByUserId))
      .limit(1);
    return found ?? null;
  }

  const own = (ctx: AccountContext, id: number) =>
    and(eq(webhookEndpoints.accountId, ctx.accountId), eq(webhookEndpoints.id, id));

  /** A 400 on `url` when it may not receive webhooks; the URL as the owner typed it (trimmed) otherwise. */
  async function checkedUrl(url: string): Promise<string> {
    const target = await resolveWebhookTarget(url, policy, resolveHost);
    if (!target.ok) throw AppError.field('validation_error', 'url', target.message);
    return url;
  }

  /** Newest first, each with its creator. */
  async function list(ctx: AccountContext): Promise<WebhookEndpointList> {
    const rows = await db
      .select({ endpoint: webhookEndpoints, creator })
      .from(webhookEndpoints)
      .leftJoin(users, eq(users.id, webhookEndpoints.createdByUserId))
      .where(eq(webhookEndpoints.accountId, ctx.accountId))
      .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
    return { results: rows.map((row) => toDto(row.endpoint, row.creator)) };
  }

  async function get(ctx: AccountContext, id: number): Promise<WebhookEndpoint> {
    const [row] = await db
      .select({ endpoint: webhookEndpoints, creator })
      .from(webhookEndpoints)
      .leftJoin(users, eq(users.id, webhookEndpoints.createdByUserId))
      .where(own(ctx, id))
      .limit(1);
    if (!row) throw new AppError('not_found');
    return toDto(row.endpoint, row.creator);
  }

  async function create(
    ctx: AccountContext,
    body: Required<CreateWebhookEndpointRequest>,
  ): Promise<WebhookEndpoint> {
    const url = await checkedUrl(body.url);
    const { user } = memberOf(ctx);
    const secret = generateWebhookSecret();
    const row = await transaction(db, async (tx) => {
      await lockAccount(tx, ctx.accountId);
      // The owner's rights were checked before the lock; one demoted or removed meanwhile loses them here.
      await assertStillCan(tx, ctx, 'manageCompany');
      const [existing] = await tx
        .select({ n: count() })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.accountId, ctx.accountId));
      if ((existing?.n ?? 0) >= MAX_WEBHOOK_ENDPOINTS)
        throw AppError.nonField('validation_error', webhookTexts.tooMany);
      const now = clock.now();
      const [inserted] = await tx
        .insert(webhookEndpoints)
        .values({
          accountId: ctx.accountId,
          url,
          description: body.description,
          eventTypes: body.eventTypes,
          enabled: body.enabled,
          // Sealed under the endpoint's id (so it cannot be moved to another endpoint), which the insert assigns.
          secretSealed: '',
          createdByUserId: user.id,
          createdAt: now,
          disabledAt: body.enabled ? null : now,
          disabledReason: body.enabled ? null : 'manual',
        })
        .returning({ id: webhookEndpoints.id });
      if (!inserted) throw new Error('webhook endpoint insert returned no row');
      const [sealed] = await tx
        .update(webhookEndpoints)
        .set({ secretSealed: sealer.seal(secret, webhookSecretContext(inserted.id)) })
        .where(eq(webhookEndpoints.id, inserted.id))
        .returning();
      if (!sealed) throw new Error('webhook endpoint update returned no row');
      await audit.record(tx, ctx, {
        action: 'webhook_endpoint.created',
        targets: [endpointTarget(sealed)],
        // As API keys and forms record their creation: each field [null, value].
        changes: Object.fromEntries(
          Object.entries(audited(sealed)).map(([field, value]) => [field, [null, value]]),
        ),
      });
      return sealed;
    });
    return toDto(row, { id: user.id, name: user.name, email: user.email });
  }

  async function update(
    ctx: AccountContext,
    id: number,
    body: UpdateWebhookEndpointRequest,
  ): Promise<WebhookEndpoint> {
    const url = body.url === undefined ? undefined : await checkedUrl(body.url);
    const row = await transaction(db, async (tx) => {
      const [before] = await tx.select().from(webhookEndpoints).where(own(ctx, id)).for('no key update');
      if (!before) throw new AppError('not_found');
      const changes = {
        ...(url === undefined ? {} : { url }),
        ...(body.description === undefined ? {} : { description: body.description }),
        ...(body.eventTypes === undefined ? {} : { eventTypes: body.eventTypes }),
        // Disabling an endpoint that is disabled keeps the time it was first disabled.
        ...(body.enabled === undefined || body.enabled === before.enabled
          ? {}
          : body.enabled
            ? // A fresh start: the failing streak that may have disabled it is forgotten, missed events stay replayable.
              {
                enabled: true,
                disabledAt: null,
                disabledReason: null,
                failingSince: null,
                failureWarnedAt: null,
              }
            : { enabled: false, disabledAt: clock.now(), disabledReason: 'manual' as const }),
      };
      if (Object.keys(changes).length === 0) return before;
      const [after] = await tx.update(webhookEndpoints).set(changes).where(own(ctx, id)).returning();
      if (!after) throw new AppError('not_found');
      const changed = changesOf(audited(before), audited(after), [
        'url',
        'description',
        'eventTypes',
        'enabled',
      ]);
      if (changed) {
        await audit.record(tx, ctx, {
          action: 'webhook_endpoint.updated',
          targets: [endpointTarget(after)],
          changes: changed,
        });
      }
      return after;
    });
    return toDto(row, await creatorOf(db, row));
  }

  /**
   * The audit event first, then the DELETE (lib/account-lock.ts: a deleted row is the lock order's one exception): a
   * DELETE's lock blocks the share locks of deliveries made under the chain head (a form rename's event), so the
   * head is taken before it. Two DELETEs at once: the second deletes nothing, answers 404 and records nothing.
   */
  async function remove(ctx: AccountContext, id: number): Promise<void> {
    await transaction(db, async (tx) => {
      const [found] = await tx
        .select({ id: webhookEndpoints.id, url: webhookEndpoints.url })
        .from(webhookEndpoints)
        .where(own(ctx, id))
        .limit(1);
      if (!found) throw new AppError('not_found');
      await audit.record(tx, ctx, { action: 'webhook_endpoint.deleted', targets: [endpointTarget(found)] });
      const [deleted] = await tx
        .delete(webhookEndpoints)
        .where(own(ctx, id))
        .returning({ id: webhookEndpoints.id });
      if (!deleted) throw new AppError('not_found');
    });
  }

  /**
   * The current signing secret, for the owner to paste into the receiver's configuration. Each reading is recorded:
   * who saw a secret is what a security review asks first.
   */
  async function secret(ctx: AccountContext, id: number): Promise<WebhookSecret> {
    return transaction(db, async (tx) => {
      const [row] = await tx
        .select({
          id: webhookEndpoints.id,
          url: webhookEndpoints.url,
          secretSealed: webhookEndpoints.secretSealed,
        })
        .from(webhookEndpoints)
        .where(own(ctx, id))
        .limit(1);
      if (!row) throw new AppError('not_found');
      await audit.record(tx, ctx, {
        action: 'webhook_endpoint.secret_viewed',
        targets: [endpointTarget(row)],
      });
      return { secret: sealer.open(row.secretSealed, webhookSecretContext(id)) };
    });
  }

  /**
   * A new secret signs from now on; the current one becomes the previous and keeps signing until now +
   * `overlapHours` (0: not at all). A previous secret still in its overlap is dropped: two secrets sign at most.
   */
  async function rotateSecret(
    ctx: AccountContext,
    id: number,
    body: RotateWebhookSecretRequest,
  ): Promise<WebhookEndpoint> {
    const next = sealer.seal(generateWebhookSecret(), webhookSecretContext(id));
    const row = await transaction(db, async (tx) => {
      const [before] = await tx
        .select({ secretSealed: webhookEndpoints.secretSealed })
        .from(webhookEndpoints)
        .where(own(ctx, id))
        .for('no key update');
      if (!before) throw new AppError('not_found');
      const overlap = body.overlapHours > 0;
      const [after] = await tx
        .update(webhookEndpoints)
        .set({
          secretSealed: next,
          previousSecretSealed: overlap ? before.secretSealed : null,
          previousSecretExpiresAt: overlap
            ? new Date(clock.now().getTime() + body.overlapHours * HOUR_MS)
            : null,
        })
        .where(own(ctx, id))
        .returning();
      if (!after) throw new AppError('not_found');
      await audit.record(tx, ctx, {
        action: 'webhook_endpoint.secret_rotated',
        targets: [endpointTarget(after)],
        changes: { overlapHours: [null, body.overlapHours] },
      });
      return after;
    });
    return toDto(row, await creatorOf(db, row));
  }

  return { list, get, create, update, remove, secret, rotateSecret };
}

export type WebhookEndpointService = ReturnType<typeof createWebhookEndpointService>;
