import { randomBytes } from 'node:crypto';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { newOwner } from './teams.ts';

const { verifyForms, verificationAttempts } = schema;

/**
 * Verification attempts made straight in the database (as the public-verify service would store them), for tests of
 * code delivery that do not go through the public API.
 */

export type AttemptRow = typeof verificationAttempts.$inferSelect;

export type NewAttempt = {
  method?: 'sms' | 'email';
  cellPhone?: string;
  email?: string;
  language?: 'en' | 'es';
  company?: string;
  /** Default: 10 minutes after the app's clock. */
  expiresAt?: Date;
  status?: AttemptRow['status'];
  /** Another attempt on the same form (saves making a new owner and form). */
  sameFormAs?: AttemptRow;
};

let phoneCounter = 0;
/** A distinct valid-looking US number per call (555-01xx is reserved for fiction). */
export function nextCellPhone(): string {
  phoneCounter += 1;
  return `+1201555${String(1000 + (phoneCounter % 9000)).padStart(4, '0')}`;
}

export async function createAttempt(app: FastifyInstance, options: NewAttempt = {}): Promise<AttemptRow> {
  const { db, clock } = app.services;
  const form = options.sameFormAs
    ? { id: options.sameFormAs.verifyFormId, accountId: options.sameFormAs.accountId }
    : await newForm(app, options);
  const method = options.method ?? 'sms';
  const [attempt] = await db
    .insert(verificationAttempts)
    .values({
      id: randomBytes(16).toString('base64url'),
      accountId: form.accountId,
      verifyFormId: form.id,
      cellPhone: options.cellPhone ?? nextCellPhone(),
      method,
      email:
        options.email ??
        (method === 'email' ? `consumer-${randomBytes(4).toString('hex')}@example.com` : null),
      // Delivery never reads the hash; any value will do.
      codeHash: 'not-a-real-hash',
      status: options.status ?? 'pending',
      createdAt: clock.now(),
      expiresAt: options.expiresAt ?? new Date(clock.now().getTime() + 10 * 60 * 1000),
    })
    .returning();
  if (!attempt) throw new Error('attempt insert returned no row');
  return attempt;
}

async function newForm(
  app: FastifyInstance,
  options: NewAttempt,
): Promise<{ id: number; accountId: number }> {
  const owner = await newOwner(app, options.company ?? 'Acme Inc.');
  const [form] = await app.services.db
    .insert(verifyForms)
    .values({
      publicId: randomBytes(9).toString('base64url'),
      accountId: owner.accountId,
      name: 'Sign-up form',
      isLive: true,
      language: options.language ?? 'en',
    })
    .returning();
  if (!form) throw new Error('form insert returned no row');
  return form;
}

export async function readAttempt(app: FastifyInstance, id: string): Promise<AttemptRow> {
  const [row] = await app.services.db
    .select()
    .from(verificationAttempts)
    .where(eq(verificationAttempts.id, id));
  if (!row) throw new Error(`no attempt ${id}`);
  return row;
}

/**
 * Waits until the sending job has dealt with the attempt (sent, or recorded an error), polling the row: delivery runs
 * in a job, so there is nothing to await directly. Fails after `timeoutMs`.
 */
export async function waitForSend(
  app: FastifyInstance,
  id: string,
  options: { timeoutMs?: number; until?: (row: AttemptRow) => boolean } = {},
): Promise<AttemptRow> {
  const until = options.until ?? ((row: AttemptRow) => row.sentAt !== null || row.sendError !== null);
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const row = await readAttempt(app, id);
    if (until(row)) return row;
    if (Date.now() > deadline) throw new Error(`attempt ${id} was not handled in time`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
