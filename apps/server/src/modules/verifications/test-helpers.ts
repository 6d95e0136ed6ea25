import type { VerifyForm } from '@veriform/contracts';
import { schema } from '@veriform/db';
import type { TestContext } from '../../test-support/app.ts';
import type { Owner } from '../../test-support/teams.ts';

/** Test data for the verifications API: forms through the API, verifications and attempts straight in the database. */

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
