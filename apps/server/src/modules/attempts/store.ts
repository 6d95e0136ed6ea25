import type { PublicLanguage, PublicVerifyTexts } from '@veriform/contracts';
import { type Db, schema, type Tx, transaction } from '@veriform/db';
import { and, desc, eq, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import {
  type ApiVerificationRow,
  apiVerificationColumns,
  toApiVerification,
} from '../../domain/api-verification.ts';
import {
  type CodeDeliveryStatus,
  DELIVERY_EARLIER,
  expiresAtFor,
  isFinalDeliveryStatus,
  MAX_WRONG_TRIES,
  movesForward,
  RESEND_AFTER_MS,
  type StoredStatus,
  simulatedDelivery,
  statusAt,
} from '../../domain/attempt-state.ts';
import { type CellPhone, carrierLineVerdict, type PhoneRefusal } from '../../domain/phone.ts';
import { deliverWebhook } from '../../jobs/definitions/deliver-webhook.ts';
import { sendVerificationCode } from '../../jobs/definitions/send-verification-code.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { ipKey } from '../../lib/ip-key.ts';
import { type RateLimiter, type RateLimitRule, tooMany } from '../../lib/rate-limit.ts';
import { statement } from '../../lib/statement.ts';
import type { CurrentConsent } from '../consent/index.ts';
import {
  askAtSend,
  type CarrierAtSend,
  type Lookups,
  type LookupsAtSend,
  lookupsAtSendOf,
  NOTHING_ASKED,
} from '../lookups/index.ts';
import { linkForSend } from '../refresh-links/index.ts';
import { newEventId, type WebhookEvents } from '../webhooks/index.ts';
import type { CodeDelivery } from './code-delivery.ts';
import { codeMatches, hashCode, newAttemptId, newCode } from './codes.ts';
import { ATTEMPT_EVENT_TYPES, attemptEvent, deliveryOutcomeEvent, emitDeliveryOutcome } from './events.ts';

const { accounts, verifyForms, verificationAttempts, testPhoneNumbers, codeDeliveryEvents, lookupSettings } =
  schema;

/**
 * The attempt's one writer (issue #34, ADR 35): with redact.ts (the redaction's masking) and code-delivery.ts (the
 * send job's rows), the only code that writes `verification_attempts`, `verifications` and `code_delivery_events`
 * (ownership.test.ts), and the only caller of the two PL/pgSQL functions that issue and judge a code. The hosted page (public-verify) and API v1 are
 * adapters over it; the activity log, the attempts view and the report only read.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** Who is asking, as evidence (and for the per-IP limits). */
export type PublicRequestContext = { ip: string; userAgent: string | null };

/** What became of a code: the verification it made, a wrong guess, or an attempt that takes no code any more. */
export type CodeOutcome =
  | { kind: 'approved'; verificationId: number }
  | { kind: 'incorrect'; triesLeft: number }
  | { kind: 'closed'; state: 'verified' | 'locked' | 'replaced' | 'canceled' | 'expired' };

/** Where a code is asked for, and the rules that differ: API v1's caller is a server, not a consumer's browser. */
/** Why an attempt takes no code: its state, or its time ran out. */
export type Closed = Extract<CodeOutcome, { kind: 'closed' }>['state'];

export type IssueOptions = {
  source: 'hosted' | 'api';
  apiKeyId: number | null;
  /** The per-IP limit guards against one browser running through numbers; an API key is limited per key instead. */
  perIpLimit: boolean;
  /** A `vf_test_` key: only the account's test numbers (403 `test_mode_number_required` otherwise). */
  testNumbersOnly: boolean;
  /**
   * A `vf_live_` key: never a test number (403 `live_mode_test_number`), as Stripe's live mode declines its test cards:
   * what it made would be a test object, which a live key cannot read (issue #33, ADR 29).
   */
  liveNumbersOnly?: boolean;
  /**
   * The door's words for a number the carrier's answers refuse (issue #36 item 1): its field (`cellPhone`, `to`), its
   * texts and, for API v1, its problem type. `sim_swap`: a SIM swap within the account's window, which it refuses.
   */
  phoneRefused: (reason: PhoneRefusal | 'sim_swap') => AppError;
};

export type FormRow = {
  id: number;
  publicId: string;
  accountId: number;
  name: string;
  category: string;
  isLive: boolean;
  language: PublicLanguage;
  bannerImage: string | null;
  company: string;
  /** The account's allow-list: codes go only to numbers of these countries. */
  phoneCountries: string[];
  /**
   * The carrier lookups the account asks when a code is requested (issue #36 item 1), read with the form (a LEFT
   * JOIN on lookup_settings: no round trip of their own); null when both are off.
   */
  lookupsAtSend: LookupsAtSend | null;
};

const formColumns = {
  id: verifyForms.id,
  publicId: verifyForms.publicId,
  accountId: verifyForms.accountId,
  name: verifyForms.name,
  category: verifyForms.category,
  isLive: verifyForms.isLive,
  language: verifyForms.language,
  bannerImage: verifyForms.bannerImage,
  company: accounts.displayName,
  phoneCountries: accounts.phoneCountries,
  lookupLineType: lookupSettings.lineType,
  lookupSimSwap: lookupSettings.simSwap,
  lookupSimSwapWindowDays: lookupSettings.simSwapWindowDays,
  lookupRefuseOnSimSwap: lookupSettings.refuseOnSimSwap,
};

/** One of the account's test numbers (Settings → Company Info): its fixed code and the outcome its message shows. */
export type TestNumber = { code: string; simulatedErrorCode: string | null };

/** A limit of the code send, with the text that tells why it refused (in the form's language). */
type SendLimit = { rule: RateLimitRule; text: (seconds: number) => string };

/** What issue_verification_code (migration 0022) answers; bigint arrives as a string or a number by driver. */
type IssueRow = {
  outcome: 'sent' | 'too_soon' | 'limited';
  wait_ms: string | number;
  refused: number | null;
  deliveries: number;
};

/** A code send's one statement (migration 0022; ADR 26), its parameters in the function's order. */
const issueStatement = statement<IssueRow>(
  'issue_verification_code',
  `SELECT outcome, wait_ms, refused, deliveries FROM issue_verification_code(
    p_attempt_id => $1::text,
    p_account_id => $2::integer,
    p_form_id => $3::integer,
    p_cell_phone => $4::text,
    p_method => $5::text,
    p_email => $6::text,
    p_external_ref_id => $7::text,
    p_code_hash => $8::text,
    p_ip => $9::text,
    p_user_agent => $10::text,
    p_source => $11::text,
    p_api_key_id => $12::integer,
    p_consent_version_id => $13::text,
    p_consent_version => $14::integer,
    p_consent_language => $15::text,
    p_consent_sha256 => $16::text,
    p_page_view_id => $17::text,
    p_now => $18::timestamptz,
    p_expires_at => $19::timestamptz,
    p_resend_after_ms => $20::bigint,
    p_limits => $21::jsonb,
    p_test_delivery => $22::jsonb,
    p_events => $23::jsonb,
    p_job_name => $24::text,
    p_job_data => $25::jsonb,
    p_line_type_lookup_id => $26::bigint,
    p_sim_swap_lookup_id => $27::bigint,
    p_sim_swap_within_window => $28::boolean,
    p_sim_swap_window_days => $29::integer,
    p_refreshes => $30::text,
    p_refresh_link_id => $31::bigint
  )`,
);

/** What judge_verification_code (migration 0029) answers; bigint arrives as a string or a number by driver. */
type JudgeRow = {
  outcome: 'limited' | 'closed' | 'incorrect' | 'approved';
  retry_ms: string | number | null;
  state: 'verified' | 'locked' | 'replaced' | 'canceled' | 'expired' | null;
  tries_left: number | null;
  verification_id: string | number | null;
  deliveries: number;
};

/**
 * A typed code's judgement in one autocommit statement (migration 0029; it was four after the attempt's read): the
 * per-IP guess limit's locked step, the attempt's guarded update (a wrong code takes a try, the fifth locks it; a
 * right one needs a try left and approves), the code's entry, and for an approval the verification, or for a lock
 * `verification.failed`, with the webhook event's deliveries and their jobs. Why one statement: the approval's insert
 * upserts the form's summary rows, which every verification of that form must lock until its commit; held across
 * round trips to a busy process, that lock queued the form's other verifications behind it with their pool
 * connections (docs/benchmarks.md, Load). Parameters in the function's order.
 */
const judgeStatement = statement<JudgeRow>(
  'judge_verification_code',
  `SELECT outcome, retry_ms, state, tries_left, verification_id, deliveries FROM judge_verification_code(
    p_attempt_id => $1::text,
    p_correct => $2::boolean,
    p_now => $3::timestamptz,
    p_ip => $4::text,
    p_user_agent => $5::text,
    p_bucket => $6::text,
    p_limit => $7::integer,
    p_window_ms => $8::bigint,
    p_max_tries => $9::integer,
    p_form_name => $10::text,
    p_form_category => $11::text,
    p_event_id => $12::text,
    p_event_data => $13::jsonb
  )`,
);

export type DeliveryEvent = {
  attemptId: string;
  status: CodeDeliveryStatus;
  at: Date;
  errorCode?: string | null | undefined;
  providerMessageId?: string | null | undefined;
};

/**
 * Moves the attempt's status to `status` if it shows an earlier one. The guard is in the UPDATE, so of two final
 * reports at once the row lock lets one through and the second matches nothing. Returns whether it moved.
 */
async function moveStatus(
  tx: Tx,
  attemptId: string,
  status: CodeDeliveryStatus,
  errorCode: string | null,
): Promise<boolean> {
  const earlier = [...DELIVERY_EARLIER[status]];
  if (earlier.length === 0) return false;
  const moved = await tx
    .update(verificationAttempts)
    .set({ deliveryStatus: status, deliveryErrorCode: errorCode })
    .where(and(eq(verificationAttempts.id, attemptId), inArray(verificationAttempts.deliveryStatus, earlier)))
    .returning({ id: verificationAttempts.id });
  return moved.length > 0;
}

/**
 * Records an event (every one, in arrival order, as evidence) and moves the attempt's status forward when the event is
 * later than what it shows. Returns whether the attempt's status changed.
 */
export async function recordDeliveryEvent(tx: Tx, event: DeliveryEvent): Promise<boolean> {
  await tx.insert(codeDeliveryEvents).values({
    attemptId: event.attemptId,
    status: event.status,
    at: event.at,
    errorCode: event.errorCode ?? null,
    providerMessageId: event.providerMessageId ?? null,
  });
  return moveStatus(tx, event.attemptId, event.status, event.errorCode ?? null);
}

/**
 * Serializes what concerns one provider message id: a callback's lookup of its attempt (and its orphan insert) and the
 * send job's saving of the id (and its adoption of orphans). Without it a callback could miss the job's uncommitted
 * SID and store an orphan just after the job's adoption statement had looked, and stay orphaned for good.
 */
export async function lockProviderMessage(tx: Tx, providerMessageId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`code-message:${providerMessageId}`}))`);
}

/**
 * A callback ahead of its message's SID (Twilio answered the create; the send job's transaction has not committed):
 * kept with no attempt until the job adopts it (adoptOrphanEvents). Callers hold lockProviderMessage.
 */
export async function recordOrphanEvent(
  tx: Tx,
  event: Omit<DeliveryEvent, 'attemptId'> & { providerMessageId: string },
): Promise<void> {
  await tx.insert(codeDeliveryEvents).values({
    attemptId: null,
    status: event.status,
    at: event.at,
    errorCode: event.errorCode ?? null,
    providerMessageId: event.providerMessageId,
  });
}

/**
 * The send job, saving a message's SID (under lockProviderMessage): the callbacks that came first become the attempt's,
 * and its status moves on to the furthest of them, by the same forward-only rule as if they had come after (in arrival
 * order, so the first outcome wins). Returns the status the attempt moved to, or null when it did not move.
 */
export async function adoptOrphanEvents(
  tx: Tx,
  attemptId: string,
  providerMessageId: string,
  current: CodeDeliveryStatus,
): Promise<CodeDeliveryStatus | null> {
  const adopted = await tx
    .update(codeDeliveryEvents)
    .set({ attemptId })
    .where(
      and(isNull(codeDeliveryEvents.attemptId), eq(codeDeliveryEvents.providerMessageId, providerMessageId)),
    )
    .returning({
      id: codeDeliveryEvents.id,
      status: codeDeliveryEvents.status,
      errorCode: codeDeliveryEvents.errorCode,
    });
  let furthest: { status: CodeDeliveryStatus; errorCode: string | null } | null = null;
  let shown = current;
  for (const event of adopted.sort((a, b) => a.id - b.id)) {
    if (!movesForward(shown, event.status)) continue;
    shown = event.status;
    furthest = event;
  }
  if (!furthest) return null;
  return (await moveStatus(tx, attemptId, furthest.status, furthest.errorCode)) ? furthest.status : null;
}

/** A send's transient failure, kept on the attempt (the job retries it). */
export async function recordSendError(db: Db, attemptId: string, sendError: string): Promise<void> {
  await db.update(verificationAttempts).set({ sendError }).where(eq(verificationAttempts.id, attemptId));
}

/**
 * A provider's refusal for good: the message's final delivery status `failed`, with the provider's code as its reason,
 * and its outcome event, in one transaction.
 */
export async function recordSendRefused(
  db: Db,
  webhookEvents: WebhookEvents,
  refusal: { attemptId: string; sendError: string; errorCode: string | null; at: Date },
): Promise<void> {
  await transaction(db, async (tx) => {
    await tx
      .update(verificationAttempts)
      .set({ sendError: refusal.sendError })
      .where(eq(verificationAttempts.id, refusal.attemptId));
    const moved = await recordDeliveryEvent(tx, {
      attemptId: refusal.attemptId,
      status: 'failed',
      at: refusal.at,
      errorCode: refusal.errorCode,
    });
    if (moved) await emitDeliveryOutcome(tx, webhookEvents, refusal.attemptId, refusal.at);
  });
}

/**
 * The provider took the message: `sent_at`, its id and the `sent` event, in one transaction. Twilio may report before
 * this commits: such callbacks wait for the message's lock, or came first and are adopted here (an outcome among them
 * emits its event).
 */
export async function recordSent(
  db: Db,
  webhookEvents: WebhookEvents,
  sent: { attemptId: string; method: 'sms' | 'email'; providerMessageId: string; at: Date },
): Promise<void> {
  const { attemptId, method, providerMessageId, at } = sent;
  await transaction(db, async (tx) => {
    if (method === 'sms') await lockProviderMessage(tx, providerMessageId);
    await tx
      .update(verificationAttempts)
      .set({ sentAt: at, providerMessageId, sendError: null })
      .where(eq(verificationAttempts.id, attemptId));
    await recordDeliveryEvent(tx, { attemptId, status: 'sent', at, providerMessageId });
    if (method !== 'sms') return;
    const adopted = await adoptOrphanEvents(tx, attemptId, providerMessageId, 'sent');
    if (adopted && isFinalDeliveryStatus(adopted))
      await emitDeliveryOutcome(tx, webhookEvents, attemptId, at);
  });
}

/**
 * The latest code text sent to a number, in any account (issue #35): a reply to it comes from the number alone
 * (Twilio's inbound message names no message of ours), so it answers the last one that reached the number. Test
 * numbers never receive a text, so their attempts are left out. With its form's language and its account's name,
 * which the one confirmation text of a revocation speaks and names.
 */
export async function latestCodeTextTo(
  db: Db,
  phone: string,
): Promise<{ attemptId: string; accountId: number; language: 'en' | 'es'; company: string } | null> {
  const [row] = await db
    .select({
      attemptId: verificationAttempts.id,
      accountId: verificationAttempts.accountId,
      language: verifyForms.language,
      company: accounts.displayName,
    })
    .from(verificationAttempts)
    .innerJoin(verifyForms, eq(verifyForms.id, verificationAttempts.verifyFormId))
    .innerJoin(accounts, eq(accounts.id, verificationAttempts.accountId))
    .where(
      and(
        eq(verificationAttempts.cellPhone, phone),
        eq(verificationAttempts.method, 'sms'),
        eq(verificationAttempts.isTest, false),
        isNotNull(verificationAttempts.sentAt),
      ),
    )
    .orderBy(desc(verificationAttempts.sentAt))
    .limit(1);
  return row ?? null;
}

/**
 * A provider's status callback for the message `providerMessageId` (Twilio's): recorded as its attempt's delivery
 * event (an outcome emits its event), or, when the send job has not committed the message's id yet, kept aside for the
 * job to adopt. Answers whether an attempt was found.
 */
export async function recordProviderStatus(
  db: Db,
  webhookEvents: WebhookEvents,
  report: { providerMessageId: string; status: CodeDeliveryStatus; errorCode: string | null; at: Date },
): Promise<boolean> {
  const { providerMessageId, status, errorCode, at } = report;
  return transaction(db, async (tx) => {
    // The send job saves the SID under the same lock: either it has committed (the attempt is found) or it will
    // adopt what is stored here.
    await lockProviderMessage(tx, providerMessageId);
    const [attempt] = await tx
      .select({ id: verificationAttempts.id })
      .from(verificationAttempts)
      .where(eq(verificationAttempts.providerMessageId, providerMessageId))
      .limit(1);
    if (!attempt) {
      await recordOrphanEvent(tx, { status, at, errorCode, providerMessageId });
      return false;
    }
    const moved = await recordDeliveryEvent(tx, {
      attemptId: attempt.id,
      status,
      at,
      errorCode,
      providerMessageId,
    });
    if (moved && isFinalDeliveryStatus(status)) await emitDeliveryOutcome(tx, webhookEvents, attempt.id, at);
    return true;
  });
}

export function createAttemptStore(deps: {
  config: Config;
  db: Db;
  clock: Clock;
  codeDelivery: CodeDelivery;
  /** Wakes the workers of the jobs a code send and a code's judgement store in SQL (webhook deliveries, the send). */
  jobs: JobQueue;
  /** API v1's cancel emits `verification.canceled` in its transaction. */
  webhookEvents: WebhookEvents;
  /** The carrier lookups a code send asks when the account turned them on (issue #36 item 1). */
  lookups: Lookups;
  /** The hosted page's per-address budget of sends that ask lookups (ADR 42). */
  rateLimit: RateLimiter;
}) {
  const { config, db, clock, codeDelivery, jobs, webhookEvents, lookups, rateLimit } = deps;
  const limits = () => config.codeSendLimits;

  /** API v1: a form of the account by its id (the key's account; another account's form is not found). */
  async function formOfAccount(accountId: number, formId: number): Promise<FormRow | undefined> {
    const [row] = await db
      .select(formColumns)
      .from(verifyForms)
      .innerJoin(accounts, eq(accounts.id, verifyForms.accountId))
      .leftJoin(lookupSettings, eq(lookupSettings.accountId, verifyForms.accountId))
      .where(and(eq(verifyForms.id, formId), eq(verifyForms.accountId, accountId)))
      .limit(1);
    if (!row) return undefined;
    const { lookupLineType, lookupSimSwap, lookupSimSwapWindowDays, lookupRefuseOnSimSwap, ...form } = row;
    return {
      ...form,
      lookupsAtSend: lookupsAtSendOf({
        lookupLineType,
        lookupSimSwap,
        lookupSimSwapWindowDays,
        lookupRefuseOnSimSwap,
      }),
    };
  }

  /** The account's test number with this E.164 number, if it is one. */
  async function findTestNumber(accountId: number, e164: string): Promise<TestNumber | null> {
    const [row] = await db
      .select({ code: testPhoneNumbers.code, simulatedErrorCode: testPhoneNumbers.simulatedErrorCode })
      .from(testPhoneNumbers)
      .where(and(eq(testPhoneNumbers.accountId, accountId), eq(testPhoneNumbers.cellPhone, e164)))
      .limit(1);
    return row ?? null;
  }

  /**
   * The limits of one send, in the order their refusals are told. Test numbers send nothing, so only the per-IP
   * limit (which guards the server, not the bill) applies to them.
   */
  function sendLimits(
    form: FormRow,
    target: { e164: string; method: 'sms' | 'email'; email: string | null },
    texts: PublicVerifyTexts,
    context: PublicRequestContext,
    options: IssueOptions,
    isTest: boolean,
  ): SendLimit[] {
    const perIp: SendLimit[] = options.perIpLimit
      ? [
          {
            rule: {
              bucket: `code-send:ip:${ipKey(context.ip)}`,
              limit: limits().perIpPerDay,
              windowMs: DAY_MS,
            },
            text: texts.tooManyFromIp,
          },
        ]
      : [];
    if (isTest) return perIp;
    const { e164, method, email } = target;
    return [
      {
        rule: { bucket: `code-send:phone:${e164}`, limit: limits().perPhonePerDay, windowMs: DAY_MS },
        text: texts.tooManyForPhone,
      },
      // An inbox is guarded like a phone: nobody may bomb an address with codes through our forms.
      ...(email
        ? [
            {
              rule: {
                bucket: `code-send:email:${email.toLowerCase()}`,
                limit: limits().perEmailPerDay,
                windowMs: DAY_MS,
              },
              text: texts.tooManyForEmail,
            },
          ]
        : []),
      ...perIp,
      // Per account and channel: text messages cost money (toll fraud), so they have their own, configurable cap, and
      // reaching it leaves e-mail open.
      method === 'sms'
        ? {
            rule: {
              bucket: `code-send:account-sms:${form.accountId}`,
              limit: limits().smsPerAccountPerDay,
              windowMs: DAY_MS,
            },
            text: texts.tooManySmsForAccount,
          }
        : {
            rule: {
              bucket: `code-send:account-email:${form.accountId}`,
              limit: limits().emailPerAccountPerDay,
              windowMs: DAY_MS,
            },
            text: texts.tooManyEmailsForAccount,
          },
    ];
  }

  /**
   * Sends a code to a checked number through a live form, by every rule of the public page (ADR 12): 30 s between
   * codes to one number per form, the limits per phone, e-mail, IP and account, older pending codes replaced. The
   * hosted page and API v1 both come here.
   *
   * One round trip (ADR 26): everything that needs no data is done here first — the code and its HMAC, the sealed job
   * payload, and the webhook events' data, built from the row the send will insert (all of it known now) — and
   * issue_verification_code (migration 0022) does the rest in one statement: the locks, the spacing and the limits
   * under them, the replacement of older codes, the attempt, its delivery history, the events and the job. No pooled
   * connection waits on this process in between.
   */
  async function issueCode(
    form: FormRow,
    target: {
      phone: CellPhone;
      /**
       * The pattern calls the number a landline (domain/phone.ts): refused unless the carrier, asked for its line type,
       * answers a type a text reaches (issue #36 item 1).
       */
      landlineByPattern?: boolean | undefined;
      method: 'sms' | 'email';
      email: string | null;
      externalRefId: string;
      /** The consent version the page showed (issue #18), recorded with the attempt; none through API v1. */
      consent?: CurrentConsent | undefined;
      /** The page view the code was asked from (issue #18); none through API v1. */
      pageViewId?: string | undefined;
      /** The number as a test number, when the caller has looked it up already (null: it is none). */
      testNumber?: TestNumber | null | undefined;
      /**
       * A refresh link's token, sent by the hosted page (issue #36 item 4, ADR 44): a link of this form, account and
       * mode, not expired, makes the attempt refresh the link's verification, with that one's reference in place of
       * `externalRefId`. Any other token links nothing, and the code goes as without one.
       */
      refreshToken?: string | undefined;
    },
    texts: PublicVerifyTexts,
    context: PublicRequestContext,
    options: IssueOptions,
  ): Promise<{
    attemptId: string;
    expiresAt: Date;
    createdAt: Date;
    isTest: boolean;
    /** The attempt as committed, as its `verification.code_sent` event shows it (API v1 answers it, no re-read). */
    stored: ApiVerificationRow;
    /** What the carrier told when the code was requested (nothing asked: all null), as linked to the attempt. */
    carrier: CarrierAtSend;
  }> {
    const { phone, email, method } = target;
    const now = clock.now();
    const asked = lookupsAsked(form, method, options);
    // A pattern's landline that no carrier is asked about stays refused, before anything else.
    if (target.landlineByPattern && !asked?.lineType) throw options.phoneRefused('landline');
    const testNumber =
      target.testNumber === undefined ? await findTestNumber(form.accountId, phone.e164) : target.testNumber;
    if (options.testNumbersOnly && !testNumber) {
      throw new AppError('permission_denied', {
        detail: 'A test key sends codes only to the account’s test numbers (Settings → Company Info).',
        problem: 'test_mode_number_required',
      });
    }
    if (options.liveNumbersOnly && testNumber) {
      throw new AppError('permission_denied', {
        detail:
          'This is one of the account’s test numbers: start its verifications with a `vf_test_` key (a live key sends real codes).',
        problem: 'live_mode_test_number',
      });
    }
    const sendRules = sendLimits(
      form,
      { e164: phone.e164, method, email },
      texts,
      context,
      options,
      !!testNumber,
    );
    // Lookups are billed, and a send's own limits are decided only after them (in its one statement): from the hosted
    // page, the sends that ask lookups take a unit of their own per-address daily budget first, atomically (as many
    // as the address may send codes), so a script sending strangers' numbers from one address, even all at once, asks
    // no more lookups than it could send codes (ADR 42). Only such sends pay for this round trip.
    if (asked && !testNumber && options.perIpLimit) {
      await rateLimit.consume(
        [
          {
            bucket: `code-send-lookups:ip:${ipKey(context.ip)}`,
            limit: limits().perIpPerDay,
            windowMs: DAY_MS,
          },
        ],
        texts.tooManyFromIp,
      );
    }
    const carrier = testNumber ? NOTHING_ASKED : await carrierAtSend(form, target, asked, options, now);

    const refresh = target.refreshToken
      ? await linkForSend(db, {
          token: target.refreshToken,
          accountId: form.accountId,
          formId: form.id,
          isTest: testNumber !== null,
          now,
        })
      : null;
    const externalRefId = refresh?.externalRefId ?? target.externalRefId;

    const attemptId = newAttemptId();
    const code = testNumber?.code ?? newCode();
    const expiresAt = expiresAtFor(now);
    const consent = target.consent;
    // A test number sends nothing: its whole history is simulated at once, ending as the number's settings say.
    const simulated = testNumber ? simulatedDelivery(method, testNumber.simulatedErrorCode) : null;
    // A new attempt has no verification yet, so nothing of it is redacted (issue #19's `redactedAt`).
    const unredacted = { redactedAt: null };
    const stored: ApiVerificationRow = {
      ...unredacted,
      id: attemptId,
      status: 'pending',
      verifyFormId: form.id,
      method,
      cellPhone: phone.e164,
      email,
      externalRefId,
      source: options.source,
      isTest: testNumber !== null,
      wrongTries: 0,
      expiresAt,
      createdAt: now,
      verifiedAt: null,
      sentAt: simulated ? now : null,
      ip: context.ip,
      userAgent: context.userAgent,
      consentVersionId: consent?.id ?? null,
      consentVersion: consent?.version ?? null,
      consentLanguage: consent?.language ?? null,
      consentSha256: consent?.sha256 ?? null,
      deliveryStatus: simulated?.status ?? 'queued',
      deliveryErrorCode: simulated?.errorCode ?? null,
      // What the carrier said, as the linked records will show it (API v1's answer and the events carry it).
      carrierLineType: carrier.lineType,
      carrierName: carrier.carrierName,
      simSwapLastAt: carrier.simSwap?.lastSwapAt ?? null,
      simSwapWithinWindow: carrier.simSwap?.withinWindow ?? null,
      simSwapWindowDays: carrier.simSwap?.windowDays ?? null,
      refreshes: refresh?.attemptId ?? null,
    };
    const outcomeEvent = simulated ? deliveryOutcomeEvent(stored, now) : null;
    const events = [
      attemptEvent(ATTEMPT_EVENT_TYPES.issued, stored, now),
      ...(outcomeEvent ? [outcomeEvent] : []),
    ].map((event) => ({ id: newEventId(), ...event }));
    const job = testNumber ? null : codeDelivery.job({ attemptId, code });

    const [row] = await issueStatement(db, [
      attemptId,
      form.accountId,
      form.id,
      phone.e164,
      method,
      email,
      externalRefId,
      hashCode(config.secretKey, attemptId, code),
      context.ip,
      context.userAgent,
      options.source,
      options.apiKeyId,
      consent?.id ?? null,
      consent?.version ?? null,
      consent?.language ?? null,
      consent?.sha256 ?? null,
      target.pageViewId ?? null,
      now.toISOString(),
      expiresAt.toISOString(),
      RESEND_AFTER_MS,
      JSON.stringify(sendRules.map(({ rule }) => rule)),
      simulated ? JSON.stringify(simulated) : null,
      JSON.stringify(events),
      job?.name ?? null,
      job ? JSON.stringify(job.data) : null,
      carrier.lineTypeLookupId,
      carrier.simSwapLookupId,
      carrier.simSwap?.withinWindow ?? null,
      carrier.simSwap?.windowDays ?? null,
      refresh?.attemptId ?? null,
      refresh?.id ?? null,
    ]);
    if (!row) throw new Error('issue_verification_code answered no row');
    const waitMs = Number(row.wait_ms);
    if (row.outcome === 'too_soon') {
      const seconds = Math.ceil(waitMs / 1000);
      throw new AppError('rate_limited', {
        detail: texts.resendTooSoon(seconds),
        headers: { 'Retry-After': String(seconds) },
      });
    }
    if (row.outcome === 'limited') {
      const refused = row.refused === null ? undefined : sendRules[row.refused - 1];
      if (!refused) throw new Error('issue_verification_code refused by an unknown limit');
      throw tooMany(
        { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) },
        refused.text,
      );
    }
    // The jobs are committed: this process's workers need not wait for their next poll.
    if (job) jobs.wake(sendVerificationCode);
    if (row.deliveries > 0) jobs.wake(deliverWebhook);

    return { attemptId, expiresAt, createdAt: now, isTest: testNumber !== null, stored, carrier };
  }

  /**
   * The carrier lookups a code send asks (issue #36 item 1, ADR 42): the account's, when it turned them on and the
   * code goes by text (e-mail proves the address, not the number) with a live key or the hosted page (a test key
   * reaches only test numbers: no real subscriber, no cost). Null: none. A test number asks none either (issue).
   */
  function lookupsAsked(form: FormRow, method: 'sms' | 'email', options: IssueOptions): LookupsAtSend | null {
    return method === 'sms' && !options.testNumbersOnly ? form.lookupsAtSend : null;
  }

  /**
   * The carrier lookups of a code send, for both doors, in parallel and bounded (at-send.ts: a failure, the ceiling or
   * a late answer tell nothing, and the code goes). Then the rules where the carrier answered: its line type in place
   * of the number pattern's guess (a landline or another type a text does not reach is refused, `mobile` overrules a
   * pattern's landline; where it told nothing the pattern stands), and a SIM swap within the window refused when the
   * account says so. A refusal sends nothing and creates no attempt; the lookups' records stay (asked and billed).
   */
  async function carrierAtSend(
    form: FormRow,
    target: { phone: CellPhone; landlineByPattern?: boolean | undefined },
    asked: LookupsAtSend | null,
    options: IssueOptions,
    now: Date,
  ): Promise<CarrierAtSend> {
    const carrier = asked
      ? await askAtSend(lookups, {
          accountId: form.accountId,
          phone: target.phone.e164,
          settings: asked,
          timeoutMs: config.lookupAtSendTimeoutMs,
          now,
        })
      : NOTHING_ASKED;
    const verdict =
      carrierLineVerdict(carrier.lineType) ?? (target.landlineByPattern ? 'landline' : 'receives');
    if (verdict !== 'receives') throw options.phoneRefused(verdict);
    if (asked?.refuseOnSimSwap && carrier.simSwap?.withinWindow) throw options.phoneRefused('sim_swap');
    return carrier;
  }

  type AttemptState = { status: StoredStatus; expiresAt: Date };
  /** Why an attempt takes no code: its state, or its time ran out. */

  function closedState(attempt: AttemptState, now: Date): Closed | null {
    const status = statusAt(attempt, now);
    return status === 'pending' ? null : status;
  }

  /** With the whole row API v1 shows: the events of a right and of a last wrong code carry it. */
  type AttemptToJudge = AttemptState &
    ApiVerificationRow & {
      accountId: number;
      codeHash: string;
      formName: string;
      formCategory: string;
    };

  /** The per-IP limit on wrong guesses (the hosted page's): judge_verification_code decides it under its lock. */
  type WrongChecks = {
    rule: RateLimitRule;
    text: (seconds: number) => string;
  };

  /**
   * A code against an attempt, for the hosted page and API v1 alike. `wrongChecks` is the per-IP limit on guesses
   * (the hosted page's; an API key has its own request limit instead). An exhausted limit refuses, right or wrong
   * alike (nothing tells the two apart): judge_verification_code decides it first, under the limit's lock (the one
   * rate-limit decision, in SQL). The comparison is made here, timing-safe, against the hash read with the attempt (it
   * never changes); judge_verification_code then applies its outcome under the limit's lock and the attempt's row lock
   * (ADR 12), so a burst of guesses from one IP gets exactly the limit
   * judged, and of a burst at one attempt nothing is judged after the fifth wrong code, a right code among them or not.
   */
  async function judgeCode(
    attempt: AttemptToJudge,
    code: string,
    context: PublicRequestContext,
    wrongChecks: WrongChecks | null,
  ): Promise<CodeOutcome> {
    const now = clock.now();
    const closed = closedState(attempt, now);
    if (closed) return { kind: 'closed', state: closed };
    const correct = codeMatches(config.secretKey, attempt.id, code, attempt.codeHash);
    // The event the outcome stores, built from the row as read and what the statement sets: `verification.approved`
    // for a right code, `verification.failed` should this wrong code be the fifth (stored only then).
    const event = correct
      ? toApiVerification({ ...attempt, status: 'verified', verifiedAt: now }, now, true)
      : toApiVerification({ ...attempt, status: 'locked', wrongTries: MAX_WRONG_TRIES }, now, true);
    const rule = wrongChecks?.rule;
    const [row] = await judgeStatement(db, [
      attempt.id,
      correct,
      now.toISOString(),
      context.ip,
      context.userAgent,
      rule?.bucket ?? null,
      rule?.limit ?? null,
      rule?.windowMs ?? null,
      MAX_WRONG_TRIES,
      attempt.formName,
      attempt.formCategory,
      newEventId(),
      JSON.stringify(event),
    ]);
    if (!row) throw new Error('judge_verification_code answered no row');
    // The deliveries' jobs are committed: this process's worker need not wait for its next poll.
    if (row.deliveries > 0) jobs.wake(deliverWebhook);
    switch (row.outcome) {
      case 'limited':
        if (!wrongChecks) throw new Error('judge_verification_code refused a judgement that had no limit');
        throw tooMany(
          { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(Number(row.retry_ms) / 1000)) },
          wrongChecks.text,
        );
      case 'closed':
        return { kind: 'closed', state: row.state ?? 'locked' };
      case 'incorrect':
        return { kind: 'incorrect', triesLeft: row.tries_left ?? 0 };
      case 'approved':
        return { kind: 'approved', verificationId: Number(row.verification_id) };
    }
  }

  /** What judging a code needs of its attempt: the row API v1 shows, its form's name, category, state and language. */
  const judgeColumns = {
    ...apiVerificationColumns,
    accountId: verificationAttempts.accountId,
    codeHash: verificationAttempts.codeHash,
    formName: verifyForms.name,
    formCategory: verifyForms.category,
    formIsLive: verifyForms.isLive,
    language: verifyForms.language,
  };

  /** An attempt with what judging its code needs. */
  async function attemptToJudge(where: SQL | undefined) {
    const [attempt] = await db
      .select(judgeColumns)
      .from(verificationAttempts)
      .innerJoin(verifyForms, eq(verifyForms.id, verificationAttempts.verifyFormId))
      .where(where)
      .limit(1);
    return attempt;
  }

  /**
   * pending → canceled (API v1): its code stops working at once, and `verification.canceled` is emitted in the same
   * transaction. `where` narrows the attempt to the caller's (its account and the key's mode). Answers the row as
   * canceled, or undefined when nothing was pending (the caller reads why).
   */
  async function cancel(
    attemptId: string,
    accountId: number,
    where: SQL | undefined,
  ): Promise<ApiVerificationRow | undefined> {
    return transaction(db, async (tx) => {
      const [changed] = await tx
        .update(verificationAttempts)
        .set({ status: 'canceled' })
        .where(
          and(
            eq(verificationAttempts.id, attemptId),
            eq(verificationAttempts.accountId, accountId),
            where,
            eq(verificationAttempts.status, 'pending'),
          ),
        )
        .returning(apiVerificationColumns);
      if (changed) {
        await webhookEvents.emit(
          tx,
          accountId,
          attemptEvent(ATTEMPT_EVENT_TYPES.canceled, changed, clock.now()),
        );
      }
      return changed;
    });
  }

  /** The hosted check's first statement, prepared once: the attempt by its id, with what judging its code needs. */
  const attemptByIdQuery = db
    .select(judgeColumns)
    .from(verificationAttempts)
    .innerJoin(verifyForms, eq(verifyForms.id, verificationAttempts.verifyFormId))
    .where(eq(verificationAttempts.id, sql.placeholder('id')))
    .limit(1)
    .prepare('code_check_attempt');

  async function attemptToJudgeById(id: string) {
    const [attempt] = await attemptByIdQuery.execute({ id });
    return attempt;
  }

  return { issue: issueCode, judge: judgeCode, cancel, attemptToJudge, attemptToJudgeById, formOfAccount };
}

export type AttemptStore = ReturnType<typeof createAttemptStore>;
