import { type AccountScopedKind, bigIdParamsSchema, idParamsSchema } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { AppError } from '../lib/errors.ts';

/**
 * How to find the account of an object of each account-scoped table, for routes with the object's id in the path
 * (`config.account.from: { pathObject: kind }`). A new kind of account-scoped object adds one line here (its table
 * must have `account_id`).
 */
const accountOf = {
  memberships: (db: Db, id: number) =>
    db
      .select({ accountId: schema.memberships.accountId })
      .from(schema.memberships)
      .where(eq(schema.memberships.id, id))
      .limit(1),
  invitations: (db: Db, id: number) =>
    db
      .select({ accountId: schema.invitations.accountId })
      .from(schema.invitations)
      .where(eq(schema.invitations.id, id))
      .limit(1),
  verifyForms: (db: Db, id: number) =>
    db
      .select({ accountId: schema.verifyForms.accountId })
      .from(schema.verifyForms)
      .where(eq(schema.verifyForms.id, id))
      .limit(1),
  verifications: (db: Db, id: number) =>
    db
      .select({ accountId: schema.verifications.accountId })
      .from(schema.verifications)
      .where(eq(schema.verifications.id, id))
      .limit(1),
  testPhoneNumbers: (db: Db, id: number) =>
    db
      .select({ accountId: schema.testPhoneNumbers.accountId })
      .from(schema.testPhoneNumbers)
      .where(eq(schema.testPhoneNumbers.id, id))
      .limit(1),
  apiKeys: (db: Db, id: number) =>
    db
      .select({ accountId: schema.apiKeys.accountId })
      .from(schema.apiKeys)
      .where(eq(schema.apiKeys.id, id))
      .limit(1),
  webhookEndpoints: (db: Db, id: number) =>
    db
      .select({ accountId: schema.webhookEndpoints.accountId })
      .from(schema.webhookEndpoints)
      .where(eq(schema.webhookEndpoints.id, id))
      .limit(1),
} satisfies Record<string, (db: Db, id: number) => Promise<{ accountId: number }[]>>;

/** Kinds whose ids are text (`evt_…`): anything but letters, digits, `_` and `-` (64 at most) is simply not found. */
const accountOfByText = {
  webhookEvents: (db: Db, id: string) =>
    db
      .select({ accountId: schema.webhookEvents.accountId })
      .from(schema.webhookEvents)
      .where(eq(schema.webhookEvents.id, id))
      .limit(1),
  revocations: (db: Db, id: string) =>
    db
      .select({ accountId: schema.revocations.accountId })
      .from(schema.revocations)
      .where(eq(schema.revocations.id, id))
      .limit(1),
  privacyRequests: (db: Db, id: string) =>
    db
      .select({ accountId: schema.privacyRequests.accountId })
      .from(schema.privacyRequests)
      .where(eq(schema.privacyRequests.id, id))
      .limit(1),
  legalHolds: (db: Db, id: string) =>
    db
      .select({ accountId: schema.legalHolds.accountId })
      .from(schema.legalHolds)
      .where(eq(schema.legalHolds.id, id))
      .limit(1),
} satisfies Record<string, (db: Db, id: string) => Promise<{ accountId: number }[]>>;

type TextIdKind = keyof typeof accountOfByText;
const TEXT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Every kind contracts name (`AccountScopedKind`) has its lookup here, and no other. */
export type { AccountScopedKind };

type Kinds = keyof typeof accountOf | TextIdKind;
const sameKinds: [AccountScopedKind, Kinds] extends [Kinds, AccountScopedKind] ? true : never = true;
void sameKinds;

const hasTextIds = (kind: AccountScopedKind): kind is TextIdKind => Object.hasOwn(accountOfByText, kind);

/**
 * An id from a path, query or body: anything but a positive integer that fits the kind's id column (32-bit;
 * verifications 64-bit, up to what a JavaScript number holds exactly) is simply not found. Query strings and bodies
 * bound account ids only as positive integers: one past the 32-bit column (2147483648) made PostgreSQL refuse the
 * query (a 500); no account has such an id, so it is a 404 like any unknown account.
 */
export function parsePathId(raw: unknown, kind?: keyof typeof accountOf): number {
  const parsed = (kind === 'verifications' ? bigIdParamsSchema : idParamsSchema).safeParse({ id: raw });
  if (!parsed.success) throw new AppError('not_found');
  return parsed.data.id;
}

/** The account of object `id` of `kind`, or 404 (malformed id, or no such object). */
export async function accountOfObject(db: Db, kind: AccountScopedKind, rawId: unknown): Promise<number> {
  const [row] = hasTextIds(kind)
    ? await accountOfByText[kind](db, parseTextId(rawId))
    : await accountOf[kind](db, parsePathId(rawId, kind));
  if (!row) throw new AppError('not_found');
  return row.accountId;
}

function parseTextId(raw: unknown): string {
  if (typeof raw !== 'string' || !TEXT_ID.test(raw)) throw new AppError('not_found');
  return raw;
}
