/**
 * The data scripts/load.ts drives traffic against, written straight into the database through Drizzle (no API calls,
 * so preparing costs the servers nothing). Idempotent: a second run on the same database finds the account, users
 * and numbers it made before and only adds fresh sessions.
 */
import type { DatabaseHandle } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq, inArray } from 'drizzle-orm';
import { parseCellPhone } from '../../apps/server/src/domain/phone.ts';
import { systemClock } from '../../apps/server/src/lib/clock.ts';
import { createPasswords } from '../../apps/server/src/lib/passwords.ts';
import { createSessionStore } from '../../apps/server/src/lib/session-store.ts';
import { createOwnerAccount, ensureForms, seedVerifications } from '../seed-verifications.ts';

/** Passwords at the production cost (lib/passwords.ts), as the app hashes them. */
const { hashPassword } = createPasswords({ fast: false });

/** Every load user's password: one argon2 hash is made and stored for all of them (hashing is slow by design). */
export const LOAD_PASSWORD = 'Load-password-7!';
/** The code of every test number the script adds (a number that already existed keeps its own). */
export const LOAD_TEST_CODE = '246810';
const USER_AGENT = 'veriform-load/1 (scripts/load.ts)';

export type LoadData = {
  accountId: number;
  /** Live forms' public ids (the only ones that send codes). */
  livePublicIds: string[];
  /** Every form of the account, for the log's form filter. */
  formIds: number[];
  /** Test numbers of the account (E.164) with their fixed codes. */
  testNumbers: { cellPhone: string; code: string }[];
  /** Session ids (the cookie's value) of members who may search the log and view reports. */
  staffSessions: string[];
  /** Addresses that log in with LOAD_PASSWORD. */
  loginEmails: string[];
  /** The address that is sent wrong passwords (the intended 400s, then 429s). */
  lockedEmail: string;
  /** Verification ids of the account, for the detail page calls. */
  verificationIds: number[];
};

export type LoadDataOptions = {
  /** An existing account to drive (its forms and verifications are used as they are); otherwise one is made. */
  accountId: number | undefined;
  /** Verifications to seed into a newly made account. */
  verifications: number;
  staff: number;
  loginUsers: number;
  testNumbers: number;
};

const staffEmail = (i: number) => `load-staff-${i}@load.example.com`;
const loginEmail = (i: number) => `load-login-${i}@load.example.com`;
const LOCKED_EMAIL = 'load-locked@load.example.com';
/** Marks the account this script made, so the next run on the same database finds it again. */
const MARKER_EMAIL = staffEmail(0);

/** The account a previous run made: the one the first staff user belongs to. */
async function previousAccount(handle: DatabaseHandle): Promise<number | undefined> {
  const [row] = await handle.db
    .select({ accountId: schema.memberships.accountId })
    .from(schema.memberships)
    .innerJoin(schema.users, eq(schema.users.id, schema.memberships.userId))
    .where(eq(schema.users.email, MARKER_EMAIL))
    .limit(1);
  return row?.accountId;
}

/** Users by address, made when missing (e-mail verified, the shared hash); answers their ids in the same order. */
async function ensureUsers(
  handle: DatabaseHandle,
  emails: string[],
  passwordHash: string,
): Promise<number[]> {
  const { db } = handle;
  for (let i = 0; i < emails.length; i += 500) {
    await db
      .insert(schema.users)
      .values(
        emails.slice(i, i + 500).map((email) => ({
          email,
          name: 'Load User',
          passwordHash,
          emailIsVerified: true,
          emailVerifiedAsOf: new Date(),
        })),
      )
      .onConflictDoNothing();
  }
  const rows = await db
    .select({ id: schema.users.id, email: schema.users.email })
    .from(schema.users)
    .where(inArray(schema.users.email, emails));
  const ids = new Map(rows.map((r) => [r.email, r.id]));
  return emails.map((email) => {
    const id = ids.get(email);
    if (id === undefined) throw new Error(`user ${email} missing`);
    return id;
  });
}

/**
 * `count` distinct US mobile-or-landline numbers that the app accepts as cell phones (checked with its own parser:
 * an invalid one would answer 400 and spoil the run). Spread over many area codes, deterministic.
 */
function candidateNumbers(count: number): string[] {
  const areas = [201, 202, 206, 212, 213, 305, 312, 404, 415, 503, 512, 602, 617, 702, 713, 786, 818, 917];
  const numbers: string[] = [];
  for (let i = 0; numbers.length < count; i++) {
    const area = areas[i % areas.length];
    const rest = Math.floor(i / areas.length);
    const exchange = 200 + (rest % 700);
    const line = Math.floor(rest / 700) % 10_000;
    const e164 = `+1${area}${exchange}${String(line).padStart(4, '0')}`;
    const parsed = parseCellPhone(e164);
    if (parsed.ok && parsed.e164 === e164) numbers.push(e164);
    if (i > count * 10 + 1000) throw new Error('could not make enough valid test numbers');
  }
  return numbers;
}

export async function prepareLoadData(handle: DatabaseHandle, options: LoadDataOptions): Promise<LoadData> {
  const { db } = handle;
  await handle.migrate();

  let accountId = options.accountId ?? (await previousAccount(handle));
  if (accountId === undefined) {
    ({ accountId } = await createOwnerAccount(handle));
    const forms = await ensureForms(handle, accountId, 12);
    console.log(
      `seeding ${options.verifications.toLocaleString('en-US')} verifications into account ${accountId}`,
    );
    await seedVerifications(handle, {
      accountId,
      total: options.verifications,
      forms,
      days: 400,
      chunk: 100_000,
    });
  }

  const allForms = await db
    .select({
      id: schema.verifyForms.id,
      publicId: schema.verifyForms.publicId,
      isLive: schema.verifyForms.isLive,
    })
    .from(schema.verifyForms)
    .where(eq(schema.verifyForms.accountId, accountId));
  const forms = allForms.filter((f) => f.isLive);
  if (forms.length === 0) throw new Error(`account ${accountId} has no live form`);

  const passwordHash = await hashPassword(LOAD_PASSWORD);
  const staffIds = await ensureUsers(
    handle,
    Array.from({ length: options.staff }, (_, i) => staffEmail(i)),
    passwordHash,
  );
  const loginEmails = Array.from({ length: options.loginUsers }, (_, i) => loginEmail(i));
  await ensureUsers(handle, [...loginEmails, LOCKED_EMAIL], passwordHash);

  await db
    .insert(schema.memberships)
    .values(
      staffIds.map((userId) => ({
        userId,
        accountId,
        role: 'member' as const,
        canSearchData: true,
        canViewReports: true,
      })),
    )
    .onConflictDoNothing();
  const memberships = await db
    .select({ id: schema.memberships.id, userId: schema.memberships.userId })
    .from(schema.memberships)
    .where(and(eq(schema.memberships.accountId, accountId), inArray(schema.memberships.userId, staffIds)));
  const membershipOf = new Map(memberships.map((m) => [m.userId, m.id]));

  // Fresh sessions every run, through the app's own store (only their hashes are stored, so old ones are unusable).
  const store = createSessionStore(db, systemClock);
  const staffSessions: string[] = [];
  for (const userId of staffIds) {
    const { id } = await store.create(userId, {
      ip: '127.0.0.1',
      userAgent: USER_AGENT,
      currentMembershipId: membershipOf.get(userId) ?? null,
    });
    staffSessions.push(id);
  }

  const numbers = candidateNumbers(options.testNumbers);
  for (let i = 0; i < numbers.length; i += 1000) {
    await db
      .insert(schema.testPhoneNumbers)
      .values(numbers.slice(i, i + 1000).map((cellPhone) => ({ accountId, cellPhone, code: LOAD_TEST_CODE })))
      .onConflictDoNothing();
  }
  const testNumbers = await db
    .select({ cellPhone: schema.testPhoneNumbers.cellPhone, code: schema.testPhoneNumbers.code })
    .from(schema.testPhoneNumbers)
    .where(eq(schema.testPhoneNumbers.accountId, accountId));

  // Details are asked of the last year's verifications: no retention policy (a year at least) removes them, so a run
  // beside a purge (scripts/bench-retention-load.ts) asks for living evidence only.
  const { rows } = await handle.executeSql(
    "SELECT id::text AS id FROM verifications WHERE account_id = $1 AND created_at > now() - interval '1 year' ORDER BY random() LIMIT 1000",
    [accountId],
  );
  const verificationIds = (rows as { id: string }[]).map((r) => Number(r.id));

  return {
    accountId,
    livePublicIds: forms.map((f) => f.publicId),
    formIds: allForms.map((f) => f.id),
    testNumbers,
    staffSessions,
    loginEmails,
    lockedEmail: LOCKED_EMAIL,
    verificationIds,
  };
}
