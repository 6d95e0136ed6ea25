import { type ApiKeyMode, type ApiKeyScope, type Capability, can, scopesGrant } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import { AppError } from '../lib/errors.ts';
import type { MembershipRow, UserRow } from '../lib/rows.ts';

/**
 * The account a request acts on and who acts on it (ADR 15). Every account-scoped service function takes an
 * `AccountContext` first and filters every query by `ctx.accountId`. Only the tenancy plugin's resolver makes one (the
 * brand), after answering 401, 403 for an unverified address, 404 for an account that is not the caller's and 403
 * for a missing capability; a route declares where its account comes from (plugins/tenancy.ts).
 *
 * Who acts is a member (a logged-in person and their membership) or an API key (issue #15). What they may do is
 * `ctx.can(capability)`: a member's role and switches (contracts `can`), a key's scopes (contracts
 * `apiKeyScopeGrants`). Code that needs a person — leaving an account, the inviter of an invitation, whose upload
 * quota — asks `memberOf(ctx)`, which refuses a key with 403, instead of looking into `ctx.actor` itself.
 */

declare const accountContextBrand: unique symbol;

export type { MembershipRow };

export type MemberActor = {
  readonly type: 'member';
  readonly user: UserRow;
  /** The person's own membership of the account. */
  readonly membership: MembershipRow;
};

export type ApiKeyActor = {
  readonly type: 'api_key';
  readonly keyId: number;
  /** The key's public beginning (`vf_live_…`), for logs and the audit trail; never the secret. */
  readonly prefix: string;
  readonly mode: ApiKeyMode;
  readonly scopes: readonly ApiKeyScope[];
};

export type Actor = MemberActor | ApiKeyActor;

/** Where a request came from, as the audit log records it (issue #16). */
export type RequestOrigin = {
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly requestId: string | null;
};

export type AccountContext = {
  readonly accountId: number;
  readonly actor: Actor;
  readonly origin: RequestOrigin;
  can(capability: Capability): boolean;
  readonly [accountContextBrand]: true;
};

/** What decides an actor's rights: a member's membership, a key's scopes. */
export type Rights = Pick<MemberActor, 'type' | 'membership'> | ApiKeyActor;

export function actorCan(actor: Rights, capability: Capability): boolean {
  return actor.type === 'member' ? can(actor.membership, capability) : scopesGrant(actor.scopes, capability);
}

/** 403 with the spec's text unless the context's actor has the capability. */
export function assertCan(ctx: AccountContext, capability: Capability): void {
  if (!ctx.can(capability)) throw new AppError('permission_denied');
}

/**
 * Stripe's test mode (issue #33, ADR 29): the objects a key's mode reaches. A `vf_test_` key reads and acts only on
 * test objects (made for the account's test numbers: `is_test`, `livemode = false`), a `vf_live_` key only on live
 * ones; an object of the other mode answers as an unknown id does. Null for a member: the activity log shows either
 * mode, as its filter asks.
 */
export function keyLivemode(ctx: AccountContext): boolean | null {
  return ctx.actor.type === 'api_key' ? ctx.actor.mode === 'live' : null;
}

/** The person acting; an API key gets 403 (what needs a person is not a key's to do). */
export function memberOf(ctx: AccountContext): MemberActor {
  if (ctx.actor.type !== 'member') throw new AppError('permission_denied');
  return ctx.actor;
}

/**
 * A user's membership of an account, from the database: the one query every membership check makes when the
 * session's memberships (loaded with it, ADR 11) do not answer — the resolver for a membership made during the
 * request or a non-member, the public page's preview, and the re-check under an account's lock (`assertStillCan`).
 */
export async function findMembership(
  db: Db,
  userId: number,
  accountId: number,
): Promise<MembershipRow | undefined> {
  const { memberships } = schema;
  const [membership] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.accountId, accountId)))
    .limit(1);
  return membership;
}

/**
 * The capability checked again in `tx` (under the caller's lock of the account): a member removed since the request
 * was resolved gets 404 (as for any account not theirs), one demoted 403. A key's scopes do not change while it lives.
 */
export async function assertStillCan(tx: Db, ctx: AccountContext, capability: Capability): Promise<void> {
  if (ctx.actor.type !== 'member') return assertCan(ctx, capability);
  const membership = await findMembership(tx, ctx.actor.user.id, ctx.accountId);
  if (!membership) throw new AppError('not_found');
  if (!can(membership, capability)) throw new AppError('permission_denied');
}
