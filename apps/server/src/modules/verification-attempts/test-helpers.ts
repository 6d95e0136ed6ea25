import { randomBytes } from 'node:crypto';
import type { VerificationAttemptList, VerifyForm } from '@veriform/contracts';
import { schema, transaction } from '@veriform/db';
import { expect } from 'vitest';
import type { TestContext } from '../../test-support/app.ts';
import type { Owner } from '../../test-support/teams.ts';
import { type CodeDeliveryStatus, recordDeliveryEvent } from '../attempts/index.ts';

/** Test data for the attempts view: attempts, their delivery events and code entries straight in the database. */

let counter = 0;

/** A code sent (an attempt row) at `createdAt` (default: now); returns its id (hex: sorts alike under any collation). */
export async function addAttempt(
  t: TestContext,
  form: VerifyForm,
  values: Partial<typeof schema.verificationAttempts.$inferInsert> = {},
): Promise<string> {
  counter += 1;
  const id = values.id ?? randomBytes(16).toString('hex');
  const createdAt = values.createdAt ?? t.clock.now();
  await t.db.db.insert(schema.verificationAttempts).values({
    accountId: form.account,
    verifyFormId: form.id,
    cellPhone: `+1201555${String(counter % 10_000).padStart(4, '0')}`,
    method: 'sms',
    codeHash: 'not-a-real-hash',
    expiresAt: new Date(createdAt.getTime() + 10 * 60 * 1000),
    ...values,
    id,
    createdAt,
  });
  return id;
}

/** The provider's reports on an attempt's message, in order, as the sending job and Twilio's callbacks record them. */
export async function deliver(
  t: TestContext,
  attemptId: string,
  events: { status: CodeDeliveryStatus; at: Date; errorCode?: string }[],
): Promise<void> {
  for (const event of events)
    await transaction(t.db.db, (tx) => recordDeliveryEvent(tx, { attemptId, ...event }));
}

/** Codes typed for an attempt (right or wrong). */
export async function enterCodes(t: TestContext, attemptId: string, correct: boolean[]): Promise<void> {
  for (const [i, right] of correct.entries())
    await t.db.db
      .insert(schema.codeEntries)
      .values({ attemptId, correct: right, at: new Date(t.clock.now().getTime() + i) });
}

export async function listAttempts(
  owner: Pick<Owner, 'c' | 'accountId'>,
  query = '',
): Promise<VerificationAttemptList> {
  const response = await owner.c.get(
    `/api/verification-attempts?account=${owner.accountId}&pageSize=100&${query}`,
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json<VerificationAttemptList>();
}
