import {
  type CompanyInfo,
  type CreateAccountResponse,
  tooManyRequestsText,
  type UpdateAccountRequest,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { eq } from 'drizzle-orm';
import type { Clock } from '../../lib/clock.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import { type AuditLog, auditTarget, changesOf } from '../audit/index.ts';
import { type AccountRow, toAccountDto, toMembershipDto } from '../memberships/index.ts';
import type { UserRow } from '../users/index.ts';

const { accounts, memberships } = schema;

/** Accounts (companies) one user may create per day. */
export const ACCOUNT_CREATION_LIMITS = { perUser: 20, windowMs: 24 * 60 * 60 * 1000 };

/**
 * Accounts (companies): creation by any logged-in user, and the company info of an account. Every function but
 * `create` takes the AccountContext from plugins/account-context.ts and touches only `ctx.accountId`.
 */
/** What owners edit on the account (Company Info, issue #35's consent age). */
type EditableColumn =
  | 'displayName'
  | 'uploadedProfileImage'
  | 'phoneCountries'
  | 'auditRetentionYears'
  | 'consentMaxAgeMonths'
  | 'requireMfa';

export function createAccountService(deps: {
  db: Db;
  clock: Clock;
  rateLimit: RateLimiter;
  /** The audit log (issue #16): write with the change's own transaction. */
  audit: AuditLog;
}) {
  const { db, clock, rateLimit, audit } = deps;

  /**
   * The account and its first (owner) membership, in one short transaction. No `membership.created` webhook event: no
   * endpoint can exist yet to receive it, and the founding owner is not news to the account (events are for joins).
   */
  async function create(user: UserRow, displayName: string): Promise<CreateAccountResponse> {
    await rateLimit.consume(
      [
        {
          bucket: `account-create:user:${user.id}`,
          limit: ACCOUNT_CREATION_LIMITS.perUser,
          windowMs: ACCOUNT_CREATION_LIMITS.windowMs,
        },
      ],
      tooManyRequestsText,
    );
    const now = clock.now();
    const { account, membership } = await transaction(db, async (tx) => {
      const [account] = await tx.insert(accounts).values({ displayName, createdAt: now }).returning();
      if (!account) throw new Error('Account insert returned no row');
      const [membership] = await tx
        .insert(memberships)
        .values({
          userId: user.id,
          accountId: account.id,
          role: 'owner',
          canSearchData: true,
          canViewReports: true,
          createdAt: now,
        })
        .returning();
      if (!membership) throw new Error('Membership insert returned no row');
      return { account, membership };
    });
    const dto = toMembershipDto(membership, account);
    return { membership: dto, justCreatedAccount: { membershipCreated: dto } };
  }

  async function find(ctx: AccountContext): Promise<AccountRow> {
    const [row] = await db.select().from(accounts).where(eq(accounts.id, ctx.accountId)).limit(1);
    if (!row) throw new Error(`Account ${ctx.accountId} vanished`);
    return row;
  }

  const toCompanyInfo = (row: AccountRow): CompanyInfo => ({
    ...toAccountDto(row),
    phoneCountries: row.phoneCountries,
    auditRetentionYears: row.auditRetentionYears,
    consentMaxAgeMonths: row.consentMaxAgeMonths,
    requireMfa: row.requireMfa,
  });

  /** The audit log's names for the columns an owner edits: the logo is the account's uploaded image. */
  const audited = (row: Pick<AccountRow, EditableColumn>) => ({
    displayName: row.displayName,
    logo: row.uploadedProfileImage,
    phoneCountries: row.phoneCountries,
    auditRetentionYears: row.auditRetentionYears,
    consentMaxAgeMonths: row.consentMaxAgeMonths,
  });

  /**
   * The change and its `account.updated` event in one transaction: the row is read under its lock first, so the
   * event's "before" is what this change replaced even when two owners edit at once. Nothing that changes nothing is
   * recorded (the same name saved again, a logo removed twice).
   */
  async function update(
    ctx: AccountContext,
    values: Partial<Pick<AccountRow, EditableColumn>>,
  ): Promise<CompanyInfo> {
    const row = await transaction(db, async (tx) => {
      // The account's lock (lock.ts), read under it.
      const [before] = await tx
        .select()
        .from(accounts)
        .where(eq(accounts.id, ctx.accountId))
        .for('no key update');
      if (!before) throw new Error(`Account ${ctx.accountId} vanished during an update`);
      const [after] = await tx.update(accounts).set(values).where(eq(accounts.id, ctx.accountId)).returning();
      if (!after) throw new Error(`Account ${ctx.accountId} vanished during an update`);
      const changes = changesOf(audited(before), audited(after), [
        'displayName',
        'logo',
        'phoneCountries',
        'auditRetentionYears',
        'consentMaxAgeMonths',
      ]);
      if (changes)
        await audit.record(tx, ctx, {
          action: 'account.updated',
          targets: [auditTarget.account(after)],
          changes,
        });
      // The second-factor requirement (issue #38 item 3) is an event of its own: security reviews look for it.
      if (before.requireMfa !== after.requireMfa)
        await audit.record(tx, ctx, {
          action: 'account.mfa_requirement_changed',
          targets: [auditTarget.account(after)],
          changes: { requireMfa: [before.requireMfa, after.requireMfa] },
        });
      return after;
    });
    return toCompanyInfo(row);
  }

  return {
    create,
    get: async (ctx: AccountContext) => toCompanyInfo(await find(ctx)),
    /** The name and/or the countries the account's forms send codes to (PATCH; the contract checked both). */
    change: (ctx: AccountContext, body: UpdateAccountRequest) =>
      update(ctx, {
        ...(body.displayName !== undefined ? { displayName: body.displayName } : {}),
        ...(body.phoneCountries !== undefined ? { phoneCountries: body.phoneCountries } : {}),
        ...(body.auditRetentionYears !== undefined ? { auditRetentionYears: body.auditRetentionYears } : {}),
        ...(body.consentMaxAgeMonths !== undefined ? { consentMaxAgeMonths: body.consentMaxAgeMonths } : {}),
        // An owner without a second factor may turn it on: they are then led to set one up like everyone else
        // (the tenancy hook's mfa_setup_required), ADR 48.
        ...(body.requireMfa !== undefined ? { requireMfa: body.requireMfa } : {}),
      }),
    setLogo: (ctx: AccountContext, url: string) => update(ctx, { uploadedProfileImage: url }),
    /** As for profile pictures, the stored bytes stay in `media`; only the reference goes. */
    deleteLogo: (ctx: AccountContext) => update(ctx, { uploadedProfileImage: null }),
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
