import { randomBytes } from 'node:crypto';
import {
  type CreateVerifyFormRequest,
  FALLBACK_TIME_ZONE,
  type FormListSearch,
  localDateRange,
  localToday,
  tooManyRequestsText,
  type UpdateVerifyFormRequest,
  type VerifyForm,
  type VerifyFormList,
  type VerifyFormStats,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, asc, count, desc, eq, gte, ilike, inArray, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import { type AuditLog, auditTarget, changesOf } from '../audit/index.ts';
import type { WebhookEvents } from '../webhooks/index.ts';
import { toApiForm } from './api-object.ts';

const { verifyForms, verifications, verificationAttempts } = schema;

/** The form page's counts look back this far (VerifyFormStats). */
export const STATS_WINDOW_DAYS = 30;

export type VerifyFormRow = typeof verifyForms.$inferSelect;

/** Forms one account may create per day: generous for people, a wall for a runaway script. */
export const FORM_CREATION_LIMITS = { perAccount: 200, windowMs: 24 * 60 * 60 * 1000 };

/** DELETE of a form that has verifications (they keep pointing at it; the activity log needs them). */
export const formHasVerificationsText =
  'This form has verifications and cannot be deleted. Make it inactive instead.';

/** 12 random bytes → 16 URL-safe characters (96 bits): unguessable, never enumerable. */
export const newPublicId = () => randomBytes(12).toString('base64url');

/** `%`, `_` and `\` match themselves in a LIKE pattern (PostgreSQL's default escape is `\`). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Verification forms of one account (SPEC §2 /forms/, §7). Every function takes the AccountContext from
 * plugins/account-context.ts and filters every query by `ctx.accountId`, so another account's form is simply not found.
 */
export function createVerifyFormService(deps: {
  config: Config;
  db: Db;
  clock: Clock;
  rateLimit: RateLimiter;
  /** The audit log (issue #16): write with the change's own transaction. */
  audit: AuditLog;
  /** Webhook events (issue #17): `form.created`, `form.updated`, `form.live_changed`, in the change's transaction. */
  webhookEvents: WebhookEvents;
}) {
  const { config, db, clock, rateLimit, audit, webhookEvents } = deps;

  const toDto = (row: VerifyFormRow): VerifyForm => ({
    id: row.id,
    publicId: row.publicId,
    name: row.name,
    account: row.accountId,
    isLive: row.isLive,
    language: row.language,
    category: row.category,
    created: row.createdAt.toISOString(),
    bannerImage: row.bannerImage,
    publicUrl: `${config.publicUrl}/f/${row.publicId}`,
  });

  const ownForm = (ctx: AccountContext, id: number) =>
    and(eq(verifyForms.accountId, ctx.accountId), eq(verifyForms.id, id));

  async function create(ctx: AccountContext, body: Required<CreateVerifyFormRequest>): Promise<VerifyForm> {
    await rateLimit.consume(
      [
        {
          bucket: `form-create:account:${ctx.accountId}`,
          limit: FORM_CREATION_LIMITS.perAccount,
          windowMs: FORM_CREATION_LIMITS.windowMs,
        },
      ],
      tooManyRequestsText,
    );
    const now = clock.now();
    for (let attempt = 0; ; attempt++) {
      try {
        const row = await transaction(db, async (tx) => {
          const [inserted] = await tx
            .insert(verifyForms)
            .values({
              publicId: newPublicId(),
              accountId: ctx.accountId,
              name: body.name,
              language: body.language,
              category: body.category,
              createdAt: now,
              updatedAt: now,
            })
            .returning();
          if (!inserted) throw new Error('Form insert returned no row');
          await audit.record(tx, ctx, {
            action: 'form.created',
            targets: [auditTarget.form(inserted)],
            changes: {
              name: [null, inserted.name],
              language: [null, inserted.language],
              category: [null, inserted.category],
            },
          });
          await webhookEvents.emit(tx, ctx.accountId, {
            type: 'form.created',
            data: toApiForm(toDto(inserted)),
          });
          return inserted;
        });
        return toDto(row);
      } catch (error) {
        // 96 random bits collide practically never; one retry covers it.
        if (attempt < 2 && isUniqueViolation(error)) continue;
        throw error;
      }
    }
  }

  /** The WHERE of a list: the account, then each filter of the search params (SPEC §2). */
  function listWhere(ctx: AccountContext, query: FormListSearch): SQL | undefined {
    const conditions: (SQL | undefined)[] = [eq(verifyForms.accountId, ctx.accountId)];
    const isLive =
      query.isLive ?? (query.status === 'active' ? true : query.status === 'inactive' ? false : undefined);
    if (isLive !== undefined) conditions.push(eq(verifyForms.isLive, isLive));
    if (query.language !== 'all') conditions.push(eq(verifyForms.language, query.language));
    if (query.category__in && query.category__in.length > 0)
      conditions.push(inArray(verifyForms.category, query.category__in));

    const tz = query.tz ?? FALLBACK_TIME_ZONE;
    const range = localDateRange(query.created__date__preset, localToday(clock.now(), tz), {
      gte: query.created__date__gte,
      lte: query.created__date__lte,
    });
    // Local days become instants in SQL, so a daylight-saving day is 23 or 25 hours; the column stays bare for the
    // (account_id, created_at) index.
    if (range.gte)
      conditions.push(sql`${verifyForms.createdAt} >= (${range.gte}::timestamp AT TIME ZONE ${tz}::text)`);
    if (range.lte)
      conditions.push(
        sql`${verifyForms.createdAt} < ((${range.lte}::date + 1)::timestamp AT TIME ZONE ${tz}::text)`,
      );

    if (query.q) {
      const pattern = `%${escapeLike(query.q)}%`;
      conditions.push(or(ilike(verifyForms.name, pattern), ilike(verifyForms.category, pattern)));
    }
    return and(...conditions);
  }

  function orderOf(o: FormListSearch['o']): SQL[] {
    const descending = o.startsWith('-');
    const key = descending ? o.slice(1) : o;
    const column =
      key === 'name'
        ? sql`lower(${verifyForms.name})`
        : key === 'category'
          ? sql`lower(${verifyForms.category})`
          : sql`${verifyForms.createdAt}`;
    const direction = descending ? desc : asc;
    return [direction(column), direction(verifyForms.id)];
  }

  async function list(ctx: AccountContext, query: FormListSearch): Promise<VerifyFormList> {
    const where = listWhere(ctx, query);
    const [total] = await db.select({ n: count() }).from(verifyForms).where(where);
    const rows = await db
      .select()
      .from(verifyForms)
      .where(where)
      .orderBy(...orderOf(query.o))
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize);
    return {
      count: total?.n ?? 0,
      pageNumber: query.pageNumber,
      pageSize: query.pageSize,
      results: rows.map(toDto),
    };
  }

  /**
   * API v1's list: newest first, a cursor page keyed by id (ids only grow, so a form created while a caller pages
   * lands before its first page, never inside it). `startingAfter` is the last id of the previous page.
   */
  async function page(
    ctx: AccountContext,
    query: { limit: number; startingAfter: number | undefined },
  ): Promise<{ rows: VerifyForm[]; hasMore: boolean }> {
    const rows = await db
      .select()
      .from(verifyForms)
      .where(
        and(
          eq(verifyForms.accountId, ctx.accountId),
          query.startingAfter === undefined ? undefined : lt(verifyForms.id, query.startingAfter),
        ),
      )
      .orderBy(desc(verifyForms.id))
      .limit(query.limit + 1);
    return { rows: rows.slice(0, query.limit).map(toDto), hasMore: rows.length > query.limit };
  }

  /** The account's categories in use (non-empty, distinct), sorted case-insensitively. */
  async function categories(ctx: AccountContext): Promise<{ results: string[] }> {
    const rows = await db
      .selectDistinct({ category: verifyForms.category })
      .from(verifyForms)
      .where(and(eq(verifyForms.accountId, ctx.accountId), ne(verifyForms.category, '')));
    const results = rows
      .map((r) => r.category)
      .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()) || (a < b ? -1 : a > b ? 1 : 0));
    return { results };
  }

  async function find(ctx: AccountContext, id: number): Promise<VerifyFormRow> {
    const [row] = await db.select().from(verifyForms).where(ownForm(ctx, id)).limit(1);
    if (!row) throw new AppError('not_found');
    return row;
  }

  /**
   * A PATCH (or a banner upload or removal) and its events, in one transaction after reading the form under its lock,
   * so "before" is what this change replaced. One request may record several events: the edited fields
   * (`form.updated`), going live or offline (`form.live_changed`), the banner (`form.banner_changed`); a field saved
   * with the value it had records nothing. Webhook events likewise: `form.updated` for the edited fields,
   * `form.live_changed` for going live or offline (both for a PATCH that does both).
   */
  async function update(
    ctx: AccountContext,
    id: number,
    values: UpdateVerifyFormRequest & { bannerImage?: string | null },
  ): Promise<VerifyForm> {
    const row = await transaction(db, async (tx) => {
      // FOR NO KEY UPDATE, as every lock of the app's rows (lib/account-lock.ts: the lock order).
      const [before] = await tx.select().from(verifyForms).where(ownForm(ctx, id)).for('no key update');
      if (!before) throw new AppError('not_found');
      const [after] = await tx
        .update(verifyForms)
        .set({ ...values, updatedAt: clock.now() })
        .where(ownForm(ctx, id))
        .returning();
      if (!after) throw new AppError('not_found');
      const targets = [auditTarget.form(after)];
      const edited = changesOf(before, after, ['name', 'language', 'category']);
      if (edited) await audit.record(tx, ctx, { action: 'form.updated', targets, changes: edited });
      const live = changesOf(before, after, ['isLive']);
      if (live) await audit.record(tx, ctx, { action: 'form.live_changed', targets, changes: live });
      // The API's form has no banner: a banner alone changes nothing a receiver could see, and sends nothing.
      const data = toApiForm(toDto(after));
      if (edited) await webhookEvents.emit(tx, ctx.accountId, { type: 'form.updated', data });
      if (live) await webhookEvents.emit(tx, ctx.accountId, { type: 'form.live_changed', data });
      const banner = changesOf(before, after, ['bannerImage']);
      if (banner) await audit.record(tx, ctx, { action: 'form.banner_changed', targets, changes: banner });
      return after;
    });
    return toDto(row);
  }

  /**
   * Hard delete, only while the form has no verifications (the activity log keeps pointing at them): otherwise 400
   * with formHasVerificationsText. The check uses (account_id, verify_form_id, …); the foreign key backs it up.
   */
  async function remove(ctx: AccountContext, id: number): Promise<void> {
    await find(ctx, id);
    const [used] = await db
      .select({ id: verifications.id })
      .from(verifications)
      .where(and(eq(verifications.accountId, ctx.accountId), eq(verifications.verifyFormId, id)))
      .limit(1);
    if (used) throw AppError.nonField('validation_error', formHasVerificationsText);
    try {
      await transaction(db, async (tx) => {
        // Only a delete that removed the row is recorded (two DELETEs at once: the second removes nothing).
        const [deleted] = await tx
          .delete(verifyForms)
          .where(ownForm(ctx, id))
          .returning({ id: verifyForms.id, name: verifyForms.name });
        if (deleted)
          await audit.record(tx, ctx, { action: 'form.deleted', targets: [auditTarget.form(deleted)] });
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw AppError.nonField('validation_error', formHasVerificationsText);
      throw error;
    }
  }

  /**
   * The form page's counts (VerifyFormStats), every one scoped by the account as well as the form. The last 30 days
   * are counted back from `clock.now()`; "codes sent" are the form's attempts (test numbers included, like the
   * verifications), so verified ÷ sent is the conversion of the same population.
   */
  async function stats(ctx: AccountContext, id: number): Promise<VerifyFormStats> {
    await find(ctx, id);
    const since = new Date(clock.now().getTime() - STATS_WINDOW_DAYS * 24 * 60 * 60 * 1000);
    const ofForm = and(eq(verifications.accountId, ctx.accountId), eq(verifications.verifyFormId, id));
    const [totals] = await db
      .select({
        all: count(),
        recent:
          sql<number>`count(*) filter (where ${verifications.createdAt} >= ${since.toISOString()}::timestamptz)`.mapWith(
            Number,
          ),
        // A verification is made when its code checks, so its creation is the verification time if verified_at
        // was not recorded.
        last: sql<Date | null>`max(coalesce(${verifications.verifiedAt}, ${verifications.createdAt}))`.mapWith(
          (value: string | Date | null) => (value === null ? null : new Date(value)),
        ),
      })
      .from(verifications)
      .where(ofForm);
    const [sent] = await db
      .select({ n: count() })
      .from(verificationAttempts)
      .where(
        and(
          eq(verificationAttempts.accountId, ctx.accountId),
          eq(verificationAttempts.verifyFormId, id),
          gte(verificationAttempts.createdAt, since),
        ),
      );
    return {
      verifications: totals?.all ?? 0,
      verificationsLast30Days: totals?.recent ?? 0,
      codesSentLast30Days: sent?.n ?? 0,
      lastVerifiedAt: totals?.last ? totals.last.toISOString() : null,
    };
  }

  return {
    create,
    list,
    page,
    categories,
    remove,
    stats,
    get: async (ctx: AccountContext, id: number) => toDto(await find(ctx, id)),
    update: (ctx: AccountContext, id: number, patch: UpdateVerifyFormRequest) => update(ctx, id, patch),
    setBanner: (ctx: AccountContext, id: number, url: string) => update(ctx, id, { bannerImage: url }),
    /** As for profile pictures, the stored bytes stay in `media`; only the reference goes. */
    deleteBanner: (ctx: AccountContext, id: number) => update(ctx, id, { bannerImage: null }),
  };
}

/** PostgreSQL's foreign_key_violation, whichever driver raised it. */
function isForeignKeyViolation(error: unknown): boolean {
  let e = error;
  for (let depth = 0; depth < 5 && typeof e === 'object' && e !== null; depth++) {
    if ('code' in e && e.code === '23503') return true;
    e = 'cause' in e ? e.cause : undefined;
  }
  return false;
}

export type VerifyFormService = ReturnType<typeof createVerifyFormService>;
