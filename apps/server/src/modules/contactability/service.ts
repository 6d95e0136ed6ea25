import {
  CONTACTABILITY_AT_RANGE_DAYS,
  type ContactabilityCheck,
  type ContactabilityCheckList,
  type ContactabilityCheckListQuery,
  type ContactabilityCheckPage,
  type ContactabilityQuestion,
  type ContactabilityReason,
  type ContactabilitySearch,
  type ContactabilityVerdict,
  contactabilityReasonSchema,
  contactabilityTexts,
} from '@veriform/contracts';
import { type Db, schema } from '@veriform/db';
import { and, count, desc, eq, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  CALLING_RULES_VERSION,
  type CallingWindowAnswer,
  callingWindowAt,
} from '../../domain/calling-windows.ts';
import { e164Of } from '../../domain/phone.ts';
import type { Clock } from '../../lib/clock.ts';
import { cursorPage, parseIdCursor } from '../../lib/cursor-pages.ts';
import { AppError } from '../../lib/errors.ts';
import { rowsOf } from '../../lib/rows.ts';
import { type AccountContext, keyLivemode } from '../../plugins/account-context.ts';
import { latestReassignmentOf, type ReassignmentChecks, reassignedChecksFrom } from '../lookups/index.ts';
import { firstRevocationSince } from '../revocations/index.ts';
import { checksBeforeJudging } from './reassignment.ts';

const { accounts, contactabilityChecks, lookupSettings, verificationAttempts } = schema;

const DAY_MS = 86_400_000;

const contactabilityReasonsSchema = z.array(contactabilityReasonSchema);

/** Both drivers answer a timestamp as a Date or its text, a bigint as a number or its text. */
const instant = z.union([z.date(), z.string()]).transform((value) => new Date(value));
const standingRowsSchema = z.array(
  z
    .object({
      n: z.coerce.number(),
      verification_id: z.string().nullable(),
      verified_at: instant.nullable(),
      certificate_id: z.string().nullable(),
      revocation_id: z.string().nullable(),
      revoked_at: instant.nullable(),
      method: z.enum(['sms', 'email']).nullable(),
      reassigned: z.enum(['yes', 'no', 'no_data']).nullable(),
      reassignment_checked_at: instant.nullable(),
    })
    .transform((row) => ({
      n: row.n,
      verificationId: row.verification_id,
      verifiedAt: row.verified_at,
      certificateId: row.certificate_id,
      revocationId: row.revocation_id,
      revokedAt: row.revoked_at,
      method: row.method,
      reassigned: row.reassigned,
      reassignmentCheckedAt: row.reassignment_checked_at,
    })),
);

/** A question read: the number in E.164, the instant a Date. */
type Asked = { phone: string; channel: 'sms' | 'voice'; purpose: 'marketing' | 'informational'; at: Date };

/** What the database knows of one number at one instant (one row of the batch statement). */
type Standing = {
  n: number;
  verificationId: string | null;
  verifiedAt: Date | null;
  certificateId: string | null;
  revocationId: string | null;
  revokedAt: Date | null;
  /** How that verification was made: by text, or by e-mail (proving no number). */
  method: 'sms' | 'email' | null;
  /** The latest reassigned-number check of that verification (issue #36): only `yes` refuses; `no_data` is no `no`. */
  reassigned: 'yes' | 'no' | 'no_data' | null;
  /** When that check was answered. */
  reassignmentCheckedAt: Date | null;
};

/** `months` calendar months before `at` (UTC), the day clamped to the month's last (31 Mar − 1 month = 28/29 Feb). */
export function monthsBefore(at: Date, months: number): Date {
  const target = new Date(at.getTime());
  const day = target.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() - months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}

const reason = (code: ContactabilityReason['code'], text: string): ContactabilityReason => ({ code, text });

/**
 * The consent of a number at an instant, as a subquery (alias it; its own alias is `nv`): the account's newest
 * verification of the number in the mode, approved at or before the instant, not redacted, and not restricted by then
 * (GDPR art. 18, a data-subject request: issue #37; kept, but no longer processed as consent). `id`, `verified_at`,
 * `email`, `verification_method`. The verdict joins it per question; the schedule keeps the verifications it names.
 */
export function newestConsentOf(of: { accountId: number; isTest: boolean; phone: SQL; at: SQL }): SQL {
  return sql`(
    select nv.id, nv.verified_at, nv.email, nv.verification_method from verifications nv
    where nv.account_id = ${of.accountId} and nv.cell_phone = ${of.phone} and nv.is_test = ${of.isTest}
      and nv.verified_at <= ${of.at} and nv.redacted_at is null
      and not exists (
        select 1 from verification_restrictions vr where vr.verification_id = nv.id and vr.restricted_at <= ${of.at}
      )
    order by nv.verified_at desc, nv.id desc limit 1
  )`;
}

/**
 * Why the consent does not stand at the instant asked about, before any reassigned-number check: no verification,
 * one older than the account's consent age, or revoked since. Empty when it stands. The verdict judges by it, and asks
 * only standing consents' checks; the schedule checks only consents standing now.
 */
export function consentRefusals(
  at: Date,
  standing: Pick<Standing, 'verifiedAt' | 'revokedAt'>,
  consentMaxAgeMonths: number,
): ContactabilityReason[] {
  const reasons: ContactabilityReason[] = [];
  if (!standing.verifiedAt) reasons.push(reason('no_consent', contactabilityTexts.no_consent));
  else if (standing.verifiedAt < monthsBefore(at, consentMaxAgeMonths))
    reasons.push(reason('consent_too_old', contactabilityTexts.consent_too_old(consentMaxAgeMonths)));
  if (standing.verifiedAt && standing.revokedAt) reasons.push(reason('revoked', contactabilityTexts.revoked));
  return reasons;
}

/**
 * The verdict of one question, from what the database knows and the calling windows: the pure part, so each rule is
 * tested at its edges without a database. Consent first (none, too old, revoked), then quiet hours for marketing.
 */
export function judge(
  asked: Asked,
  standing: Omit<Standing, 'n'>,
  window: CallingWindowAnswer,
  consentMaxAgeMonths: number,
): Pick<ContactabilityVerdict, 'allowed' | 'reasons' | 'nextAllowedAt'> {
  const reasons = consentRefusals(asked.at, standing, consentMaxAgeMonths);
  if (standing.verifiedAt && standing.reassigned === 'yes')
    reasons.push(reason('number_reassigned', contactabilityTexts.number_reassigned));
  const stands = reasons.length === 0;
  if (asked.purpose === 'marketing')
    for (const closed of window.closedBy) reasons.push(reason(closed.code, closed.text));
  // Time helps only when the window alone refuses, and only if the consent still stands when it opens.
  const opensAt = window.nextOpenAt;
  const nextAllowedAt =
    stands &&
    reasons.length > 0 &&
    opensAt &&
    standing.verifiedAt &&
    standing.verifiedAt >= monthsBefore(opensAt, consentMaxAgeMonths)
      ? opensAt.toISOString()
      : null;
  return { allowed: reasons.length === 0, reasons, nextAllowedAt };
}

/**
 * What the verdict needs of the account, in one read: its consent age in months (`accounts.consent_max_age_months`)
 * and its reassigned-number check settings (`lookup_settings`, joined: the defaults without a row). The schedule reads
 * the consent age the same way.
 */
export async function accountRulesOf(
  db: Db,
  accountId: number,
): Promise<{ consentMaxAgeMonths: number; reassignedChecks: { on: boolean; maxAgeDays: number } }> {
  const [row] = await db
    .select({
      months: accounts.consentMaxAgeMonths,
      on: lookupSettings.reassignedChecks,
      maxAgeDays: lookupSettings.reassignedMaxAgeDays,
    })
    .from(accounts)
    .leftJoin(lookupSettings, eq(lookupSettings.accountId, accounts.id))
    .where(eq(accounts.id, accountId));
  if (!row) throw new AppError('not_found');
  return { consentMaxAgeMonths: row.months, reassignedChecks: reassignedChecksFrom(row) };
}

/**
 * "May I contact this number now?" (issue #35). One statement reads the standing of every number of a batch (the
 * newest verification at its instant, its attempt and certificate ids, the first revocation since), one inserts the
 * verdicts: a batch of 1,000 costs two round trips. With the account's reassigned-number checks on, the due checks
 * are made between them (reassignment.ts, ADR 43). Every verdict is kept: the customer's proof that it checked.
 */
export function createContactability(deps: {
  db: Db;
  clock: Clock;
  /** The reassigned-number checks the verdict makes when due (issue #36 item 2). */
  reassignmentChecks: ReassignmentChecks;
  /** How long a verdict waits for them (config `reassignmentCheckWaitMs`). */
  reassignmentCheckWaitMs: number;
}) {
  const { db, clock } = deps;

  /** The questions read, or a 400 naming the first bad field (`phone`, or `checks.3.at` in a batch). */
  function read(
    questions: ContactabilityQuestion[],
    now: Date,
    fieldOf: (i: number, field: string) => string,
  ) {
    return questions.map((question, i): Asked => {
      const phone = e164Of(question.phone);
      if (!phone)
        throw AppError.field('validation_error', fieldOf(i, 'phone'), contactabilityTexts.invalidPhone);
      const at = question.at ? new Date(question.at) : now;
      if (Math.abs(at.getTime() - now.getTime()) > CONTACTABILITY_AT_RANGE_DAYS * DAY_MS)
        throw AppError.field('validation_error', fieldOf(i, 'at'), contactabilityTexts.atOutOfRange);
      return { phone, channel: question.channel, purpose: question.purpose, at };
    });
  }

  async function standingsOf(accountId: number, isTest: boolean, asked: Asked[]): Promise<Standing[]> {
    const phones = asked.map((a) => a.phone);
    const ats = asked.map((a) => a.at.toISOString());
    const revocation = firstRevocationSince({
      accountId,
      isTest,
      phone: sql`q.phone`,
      email: sql`v.email`,
      since: sql`v.verified_at`,
      until: sql`q.at`,
    });
    const answer = await db.execute(sql`
      select q.n, a.id as verification_id, v.verified_at, c.id as certificate_id,
             r.id as revocation_id, r.received_at as revoked_at, v.verification_method as method,
             rc.answer as reassigned, rc.checked_at as reassignment_checked_at
      from unnest(${sql.param(phones)}::text[], ${sql.param(ats)}::timestamptz[]) with ordinality as q(phone, at, n)
      left join lateral ${newestConsentOf({ accountId, isTest, phone: sql`q.phone`, at: sql`q.at` })} v on true
      left join lateral (
        select a.id from verification_attempts a where a.verification_id = v.id limit 1
      ) a on true
      left join verification_certificates c on c.verification_id = v.id
      left join lateral ${revocation} r on v.id is not null
      left join lateral ${latestReassignmentOf(sql`a.id`)} rc on a.id is not null
      order by q.n`);
    return standingRowsSchema.parse(rowsOf(answer));
  }

  /** The verdicts of one or more questions, kept; in the order asked. */
  async function check(
    ctx: AccountContext,
    questions: ContactabilityQuestion[],
    fieldOf: (i: number, field: string) => string = (_i, field) => field,
  ): Promise<ContactabilityVerdict[]> {
    return (await keep(ctx, questions, fieldOf)).map(toVerdict);
  }

  /** The rows of one or more questions' verdicts, kept; in the order asked. */
  async function keep(
    ctx: AccountContext,
    questions: ContactabilityQuestion[],
    fieldOf: (i: number, field: string) => string,
  ): Promise<CheckRow[]> {
    const now = clock.now();
    const asked = read(questions, now, fieldOf);
    const isTest = keyLivemode(ctx) === false;
    const [rules, standings] = await Promise.all([
      accountRulesOf(db, ctx.accountId),
      standingsOf(ctx.accountId, isTest, asked),
    ]);
    const months = rules.consentMaxAgeMonths;
    const checked = await checksBeforeJudging(
      { checks: deps.reassignmentChecks, waitMs: deps.reassignmentCheckWaitMs },
      { accountId: ctx.accountId, livemode: !isTest },
      rules.reassignedChecks,
      now,
      asked.map((question, i) => {
        const standing = standings[i] ?? NO_STANDING;
        return {
          ...standing,
          phone: question.phone,
          stands: consentRefusals(question.at, standing, months).length === 0,
        };
      }),
    );
    const askedBy = ctx.actor.type === 'member' ? ctx.actor.user.email : ctx.actor.prefix;
    const rows = asked.map((question, i): NewCheck => {
      const standing = { ...(standings[i] ?? NO_STANDING), reassigned: checked[i]?.reassigned ?? null };
      const used = checked[i]?.used;
      const window = callingWindowAt(question.phone, question.at);
      const verdict = judge(question, standing, window, months);
      return {
        accountId: ctx.accountId,
        isTest,
        askedBy,
        phone: question.phone,
        channel: question.channel,
        purpose: question.purpose,
        at: question.at,
        allowed: verdict.allowed,
        reasons: verdict.reasons,
        verificationId: standing.verificationId,
        verifiedAt: standing.verifiedAt,
        certificateId: standing.certificateId,
        revocationId: standing.revocationId,
        revokedAt: standing.revokedAt,
        timeZone: window.timeZone,
        localTime: window.localTime,
        state: window.state,
        withinCallingWindow: window.timeZone === null ? null : window.open,
        nextAllowedAt: verdict.nextAllowedAt ? new Date(verdict.nextAllowedAt) : null,
        rulesVersion: CALLING_RULES_VERSION,
        checkedAt: now,
        reassignmentCheckedAt: used?.reassignment ? new Date(used.reassignment.checkedAt) : null,
        reassignmentAnswer: used?.reassignment?.answer ?? null,
        reassignmentCheck: used?.reassignmentCheck ?? null,
      };
    });
    return db.insert(contactabilityChecks).values(rows).returning();
  }

  /** The verdicts given, newest first, in cursor pages (the cursor is the last check's id). */
  async function page(
    ctx: AccountContext,
    query: ContactabilityCheckListQuery,
  ): Promise<ContactabilityCheckList> {
    const conditions: (SQL | undefined)[] = [
      eq(contactabilityChecks.accountId, ctx.accountId),
      eq(contactabilityChecks.isTest, keyLivemode(ctx) === false),
    ];
    const after = parseIdCursor(query.startingAfter, Number.MAX_SAFE_INTEGER);
    if (after !== undefined) conditions.push(lt(contactabilityChecks.id, after));
    if (query.phone) {
      const phone = e164Of(query.phone);
      if (!phone) throw AppError.field('validation_error', 'phone', contactabilityTexts.invalidPhone);
      conditions.push(eq(contactabilityChecks.phone, phone));
    }
    const rows = await db
      .select()
      .from(contactabilityChecks)
      .where(and(...conditions))
      .orderBy(desc(contactabilityChecks.id))
      .limit(query.limit + 1);
    return cursorPage(rows.slice(0, query.limit).map(toVerdict), rows.length > query.limit);
  }

  /**
   * The Activity Log's ids of the verifications the rows relied on (a kept check names its attempt, as API v1 names
   * verifications), by attempt id: the app links the consent to its page. One statement for a page.
   */
  async function logIdsOf(accountId: number, rows: CheckRow[]): Promise<Map<string, number>> {
    const attemptIds = [...new Set(rows.flatMap((row) => (row.verificationId ? [row.verificationId] : [])))];
    if (attemptIds.length === 0) return new Map();
    const found = await db
      .select({ id: verificationAttempts.id, verificationId: verificationAttempts.verificationId })
      .from(verificationAttempts)
      .where(
        and(eq(verificationAttempts.accountId, accountId), inArray(verificationAttempts.id, attemptIds)),
      );
    return new Map(
      found.flatMap((a) => (a.verificationId === null ? [] : [[a.id, a.verificationId] as const])),
    );
  }

  async function asChecks(accountId: number, rows: CheckRow[]): Promise<ContactabilityCheck[]> {
    const logIds = await logIdsOf(accountId, rows);
    return rows.map((row) => ({
      ...toVerdict(row),
      askedBy: row.askedBy,
      consentLogId: row.verificationId === null ? null : (logIds.get(row.verificationId) ?? null),
    }));
  }

  /** A member's question in the app (Activity Log › Contactability): its verdict, kept as API v1's are. */
  async function ask(ctx: AccountContext, question: ContactabilityQuestion): Promise<ContactabilityCheck> {
    const [kept] = await asChecks(ctx.accountId, await keep(ctx, [question], (_i, field) => field));
    if (!kept) throw new Error('a verdict was not kept');
    return kept;
  }

  /**
   * The app's list: the live verdicts (members' and live keys'), newest first, in offset pages like the app's other
   * lists; `phone` matches any run of the number's digits, as typed (`555-0199`), `allowed` the verdict.
   */
  async function list(ctx: AccountContext, search: ContactabilitySearch): Promise<ContactabilityCheckPage> {
    const conditions: (SQL | undefined)[] = [
      eq(contactabilityChecks.accountId, ctx.accountId),
      eq(contactabilityChecks.isTest, false),
    ];
    if (search.allowed !== undefined) conditions.push(eq(contactabilityChecks.allowed, search.allowed));
    const typed = search.phone?.trim();
    if (typed) {
      const digits = typed.replace(/\D/g, '');
      conditions.push(digits ? sql`${contactabilityChecks.phone} like ${`%${digits}%`}` : sql`false`);
    }
    const where = and(...conditions);
    const [total, rows] = await Promise.all([
      db.select({ n: count() }).from(contactabilityChecks).where(where),
      db
        .select()
        .from(contactabilityChecks)
        .where(where)
        .orderBy(desc(contactabilityChecks.id))
        .limit(search.pageSize)
        .offset((search.pageNumber - 1) * search.pageSize),
    ]);
    return {
      count: total[0]?.n ?? 0,
      pageNumber: search.pageNumber,
      pageSize: search.pageSize,
      results: await asChecks(ctx.accountId, rows),
    };
  }

  return { check, page, ask, list };
}

type CheckRow = typeof contactabilityChecks.$inferSelect;
type NewCheck = typeof contactabilityChecks.$inferInsert;

const NO_STANDING: Omit<Standing, 'n'> = {
  verificationId: null,
  verifiedAt: null,
  certificateId: null,
  revocationId: null,
  revokedAt: null,
  method: null,
  reassigned: null,
  reassignmentCheckedAt: null,
};

/**
 * A kept check as API v1 shows it: the same object whether just given or listed later, the reassigned-number check it
 * relied on and what it did about it included (kept since migration 0052; null on verdicts kept before).
 */
function toVerdict(row: CheckRow): ContactabilityVerdict {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    id: String(row.id),
    phone: row.phone,
    channel: row.channel,
    purpose: row.purpose,
    at: row.at.toISOString(),
    allowed: row.allowed,
    reasons: contactabilityReasonsSchema.parse(row.reasons),
    consent:
      row.verificationId && row.verifiedAt
        ? {
            verificationId: row.verificationId,
            verifiedAt: row.verifiedAt.toISOString(),
            certificateId: row.certificateId,
          }
        : null,
    revokedAt: iso(row.revokedAt),
    revocationId: row.revocationId,
    timeZone: row.timeZone,
    localTime: row.localTime,
    state: row.state,
    withinCallingWindow: row.withinCallingWindow,
    nextAllowedAt: iso(row.nextAllowedAt),
    reassignment:
      row.reassignmentCheckedAt && row.reassignmentAnswer
        ? { checkedAt: row.reassignmentCheckedAt.toISOString(), answer: row.reassignmentAnswer }
        : null,
    reassignmentCheck: row.reassignmentCheck,
    rulesVersion: row.rulesVersion,
    checkedAt: row.checkedAt.toISOString(),
    livemode: !row.isTest,
  };
}

export type Contactability = ReturnType<typeof createContactability>;
