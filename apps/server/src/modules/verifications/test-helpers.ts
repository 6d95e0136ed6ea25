import { randomBytes } from 'node:crypto';
import type { VerifyForm } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import { apiV1, newApiKey } from '../../test-support/api-v1/client.ts';
import type { TestContext } from '../../test-support/app.ts';
import { latestCodeTo } from '../../test-support/codes.ts';
import { newCellPhone, newConsumer, verifyPhone } from '../../test-support/public-verify.ts';
import type { Owner } from '../../test-support/teams.ts';

/**
 * Test data for the verifications API: forms through the API, verifications and attempts straight in the database, or
 * made for real on the hosted page or through API v1 (`verifyOnHostedPage`, `verifyThroughApi`).
 */

export async function createForm(
  owner: Owner,
  options: { name?: string; category?: string } = {},
): Promise<VerifyForm> {
  const response = await owner.c.post('/api/verify-forms', {
    account: owner.accountId,
    name: options.name ?? 'Sign-up',
    category: options.category ?? 'Retail',
  });
  if (response.statusCode !== 201) throw new Error(`create form: ${response.statusCode} ${response.body}`);
  return response.json<VerifyForm>();
}

let phoneCounter = 0;

/** A verification as the public page makes it (form name and category copied), at `createdAt` (default: now). */
export async function insertVerification(
  t: TestContext,
  form: VerifyForm,
  values: Partial<typeof schema.verifications.$inferInsert> = {},
) {
  phoneCounter += 1;
  const [row] = await t.db.db
    .insert(schema.verifications)
    .values({
      accountId: form.account,
      verifyFormId: form.id,
      cellPhone: `+1201555${String(phoneCounter % 10_000).padStart(4, '0')}`,
      verifyFormName: form.name,
      verifyFormCategory: form.category,
      verificationMethod: 'sms',
      createdAt: t.clock.now(),
      ...values,
    })
    .returning();
  if (!row) throw new Error('verification insert returned no row');
  return row;
}

let attemptCounter = 0;

/** A code sent (an attempt row), at `createdAt` (default: now). */
export async function insertAttempt(
  t: TestContext,
  form: VerifyForm,
  values: Partial<typeof schema.verificationAttempts.$inferInsert> = {},
) {
  attemptCounter += 1;
  const createdAt = values.createdAt ?? t.clock.now();
  await t.db.db.insert(schema.verificationAttempts).values({
    id: `test-attempt-${Date.now()}-${attemptCounter}`,
    accountId: form.account,
    verifyFormId: form.id,
    cellPhone: '+12015550100',
    method: 'sms',
    codeHash: 'not-a-real-hash',
    expiresAt: new Date(createdAt.getTime() + 10 * 60 * 1000),
    ...values,
    createdAt,
  });
}

/** Moves the test clock to an instant (it only moves by offsets). */
export function setClock(t: TestContext, iso: string): void {
  t.clock.advance(new Date(iso).getTime() - t.clock.now().getTime());
}

type VerificationRow = typeof schema.verifications.$inferSelect;

/** The account's verification of a number (the one just made). */
async function verificationOf(
  t: TestContext,
  accountId: number,
  cellPhone: string,
): Promise<VerificationRow> {
  const [row] = await t.db.db
    .select()
    .from(schema.verifications)
    .where(and(eq(schema.verifications.accountId, accountId), eq(schema.verifications.cellPhone, cellPhone)));
  if (!row) throw new Error(`no verification of ${cellPhone}`);
  return row;
}

/** A consumer verifies a fresh number on the form's hosted page (the form must be live). */
export async function verifyOnHostedPage(t: TestContext, form: VerifyForm): Promise<VerificationRow> {
  const { e164 } = await verifyPhone(t.app, form.publicId);
  return verificationOf(t, form.account, e164);
}

type Phone = ReturnType<typeof newCellPhone>;

/**
 * API v1 with a new key of `mode` allowed to write verifications: starts a verification of `phone`, then checks the
 * code `codeOf` finds (the one the consumer received, or a test number's fixed one).
 */
async function verifyByApiKey(
  t: TestContext,
  owner: Owner,
  form: VerifyForm,
  options: { phone: Phone; mode: 'live' | 'test'; externalRefId: string; codeOf: () => Promise<string> },
): Promise<VerificationRow> {
  const { phone } = options;
  const { key } = await newApiKey(owner, ['verifications:write'], options.mode);
  const api = apiV1(t.app, key);
  const started = await api.POST('/api/v1/verifications', {
    body: { formId: form.id, to: phone.e164, externalRefId: options.externalRefId },
  });
  const id = started.data?.id;
  if (started.response.status !== 201 || !id)
    throw new Error(`API start: ${started.response.status} ${JSON.stringify(started.error)}`);
  const code = await options.codeOf();
  const checked = await api.POST('/api/v1/verifications/{id}/check', {
    params: { path: { id } },
    body: { code },
  });
  if (checked.data?.status !== 'approved')
    throw new Error(`API check: ${checked.response.status} ${JSON.stringify(checked.data ?? checked.error)}`);
  return verificationOf(t, owner.accountId, phone.e164);
}

/** A fresh number made one of the account's test numbers, answering `code` (issue #33). */
async function addTestNumber(owner: Owner, code: string): Promise<Phone> {
  const phone = newCellPhone();
  const added = await owner.c.post('/api/test-phone-numbers', {
    account: owner.accountId,
    cellPhone: phone.e164,
    code,
  });
  if (added.statusCode !== 201) throw new Error(`add test number: ${added.statusCode} ${added.body}`);
  return phone;
}

/**
 * The customer's own system verifies a fresh number through API v1: a `vf_live_` key allowed to write verifications
 * starts one to a real number, then checks the code the consumer received. A live object, shown in the activity log's
 * default view (a test key's, on a test number, is test data since issue #33: see verifyTestThroughApi).
 */
export async function verifyThroughApi(
  t: TestContext,
  owner: Owner,
  form: VerifyForm,
  externalRefId = 'api-lead',
): Promise<VerificationRow> {
  const phone = newCellPhone();
  return verifyByApiKey(t, owner, form, {
    phone,
    mode: 'live',
    externalRefId,
    codeOf: () => latestCodeTo(t.app, phone.e164),
  });
}

/**
 * A test verification through API v1: a test number of the account, a `vf_test_` key, start, then check with the
 * number's fixed code (issue #33: test data, shown in the activity log with `mode=test` only).
 */
export async function verifyTestThroughApi(
  t: TestContext,
  owner: Owner,
  form: VerifyForm,
  externalRefId = 'api-test-lead',
): Promise<VerificationRow> {
  const code = '246810';
  const phone = await addTestNumber(owner, code);
  return verifyByApiKey(t, owner, form, { phone, mode: 'test', externalRefId, codeOf: async () => code });
}

/**
 * A test verification on the hosted page: a consumer (the integrator trying their page) types one of the account's
 * test numbers and its fixed code. Test data (`is_test`, issue #33), like a test key's.
 */
export async function verifyTestOnHostedPage(
  t: TestContext,
  owner: Owner,
  form: VerifyForm,
): Promise<VerificationRow> {
  const code = '135790';
  const phone = await addTestNumber(owner, code);
  const consumer = await newConsumer(t.app, form.publicId);
  const sent = await consumer.sendCode(form.publicId, {
    cellPhone: phone.typed,
    method: 'sms',
    ...consumer.consentFields(),
    ...consumer.pageFields(),
  });
  if (sent.statusCode !== 201) throw new Error(`send-code: ${sent.statusCode} ${sent.body}`);
  const checked = await consumer.check(sent.json<{ attemptId: string }>().attemptId, code);
  if (checked.statusCode !== 200) throw new Error(`check: ${checked.statusCode} ${checked.body}`);
  const row = await verificationOf(t, owner.accountId, phone.e164);
  if (!row.isTest) throw new Error('a test number’s verification on the hosted page is test data');
  return row;
}

/** A small deterministic generator (mulberry32): the same cases on every run and engine. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** An instant's local date (YYYY-MM-DD) in a zone, by Intl: the oracle of tests that check SQL's local days. */
export const localDate = (instant: Date, timeZone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );

/** The zones the local-day tests walk: whole hours across a DST change, :30 and :45 offsets, UTC. */
export const testZones = [
  'America/New_York',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'America/St_Johns',
  'UTC',
];

/** When the verifications `approvedVerification` makes were approved. */
export const APPROVED_AT = new Date('2026-03-10T15:30:00Z');

export type Made = { verificationId: number; attemptId: string; phone: string };

/** An approved verification and the code that approved it (API v1's id), made straight in the database. */
export async function approvedVerification(
  t: TestContext,
  form: VerifyForm,
  options: { phone: string; method?: 'sms' | 'email'; isTest?: boolean; withAttempt?: boolean },
): Promise<Made> {
  const method = options.method ?? 'sms';
  const verification = await insertVerification(t, form, {
    cellPhone: options.phone,
    verificationMethod: method,
    email: method === 'email' ? 'ana@example.com' : null,
    isTest: options.isTest ?? false,
    codeSentAt: APPROVED_AT,
    verifiedAt: APPROVED_AT,
    createdAt: APPROVED_AT,
  });
  const attemptId = randomBytes(16).toString('base64url');
  if (options.withAttempt !== false)
    await insertAttempt(t, form, {
      id: attemptId,
      cellPhone: options.phone,
      method,
      email: method === 'email' ? 'ana@example.com' : null,
      isTest: options.isTest ?? false,
      status: 'verified',
      verifiedAt: APPROVED_AT,
      verificationId: verification.id,
      createdAt: new Date(APPROVED_AT.getTime() - 60_000),
    });
  return { verificationId: verification.id, attemptId, phone: options.phone };
}

/**
 * The line type and SIM swap records the code send links (issue #36), written as it writes them: for tests of what a
 * verification carries, independent of the send.
 */
export async function linkCarrierLookups(
  t: TestContext,
  accountId: number,
  made: Made,
  answers: {
    lineType: string;
    carrierName: string | null;
    lastSimSwapAt: Date | null;
    withinWindow: boolean;
    windowDays: number;
  },
): Promise<void> {
  const asked = { accountId, phone: made.phone, status: 'answered', provider: 'twilio' } as const;
  const askedAt = new Date(APPROVED_AT.getTime() - 60_000);
  const [lineType] = await t.db.db
    .insert(schema.lookups)
    .values({
      ...asked,
      kind: 'lineType',
      answer: { line_type_intelligence: { type: answers.lineType, carrier_name: answers.carrierName } },
      lineType: answers.lineType,
      carrierName: answers.carrierName,
      askedAt,
      answeredAt: askedAt,
    })
    .returning({ id: schema.lookups.id });
  const [simSwap] = await t.db.db
    .insert(schema.lookups)
    .values({
      ...asked,
      kind: 'simSwap',
      answer: {
        sim_swap: { last_sim_swap: { last_sim_swap_date: answers.lastSimSwapAt?.toISOString() ?? null } },
      },
      lastSimSwapAt: answers.lastSimSwapAt,
      simSwappedPeriod: 'PT48H',
      simSwappedInPeriod: answers.withinWindow,
      askedAt,
      answeredAt: askedAt,
    })
    .returning({ id: schema.lookups.id });
  await t.db.db
    .update(schema.verificationAttempts)
    .set({
      lineTypeLookupId: lineType?.id ?? null,
      simSwapLookupId: simSwap?.id ?? null,
      simSwapWithinWindow: answers.withinWindow,
      simSwapWindowDays: answers.windowDays,
    })
    .where(eq(schema.verificationAttempts.id, made.attemptId));
}
