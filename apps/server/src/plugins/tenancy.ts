import { bigIdParamsSchema, type Capability, can, idParamsSchema } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import type { MembershipRow } from '../modules/memberships/repository.ts';
import type { UserRow } from '../modules/users/repository.ts';
import { requireVerifiedUser } from './auth-guard.ts';

/**
 * Tenant scoping: the ONE way a request reaches an account's data (docs/roles.md).
 *
 * `requireMembership(request, accountId, capability?)` answers the caller's membership of that account as a `Tenant`,
 * or throws 403 `{detail: "Verify your e-mail address first."}` while the caller's address is unverified (before any
 * lookup: the one place every account action passes; see auth-guard's requireVerifiedUser), 404 `{detail: "Not found."}`
 * when the caller is not a member (exactly like an unknown account, so ids
 * cannot be probed), or 403 `{detail: errorTexts.permissionDenied}` when the membership lacks the capability
 * (contracts `can()`).
 *
 * Every account-scoped service function takes a `Tenant` as its first argument and filters every query by
 * `tenant.accountId`. A `Tenant` carries a brand that only this file can produce, so a route cannot call such a
 * service without having gone through `requireMembership` (or one of the hooks below, which call it).
 *
 * Routes with an object id in the path (`/api/memberships/:id`, `/api/invitations/:id`, later forms and
 * verifications) use `scopedByPathId(kind, capability?)` as their `preValidation` hook: 401 for anonymous callers,
 * then 404 for a malformed, unknown or other account's id — before the body is read or validated — then 403; the
 * handler takes the result with `tenantOf(request)`. Routes whose path id IS the account use `scopedByAccountPath`.
 */

declare const tenantBrand: unique symbol;

export type { MembershipRow };

export type Tenant = {
  readonly accountId: number;
  /** The caller's own membership of the account. */
  readonly membership: MembershipRow;
  readonly user: UserRow;
  readonly [tenantBrand]: true;
};

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the scopedBy… hooks; read with tenantOf(). */
    tenant: Tenant | null;
  }
}

export function registerTenancy(app: FastifyInstance): void {
  app.decorateRequest('tenant', null);
}

/** 403 with the spec's text unless the tenant's membership has the capability. */
export function assertCan(tenant: Tenant, capability: Capability): void {
  if (!can(tenant.membership, capability)) throw new AppError('permission_denied');
}

export async function requireMembership(
  request: FastifyRequest,
  accountId: number,
  capability?: Capability,
): Promise<Tenant> {
  const user = requireVerifiedUser(request);
  // Bodies and query strings bound ids only as positive integers: one past the 32-bit column (2147483648) made
  // PostgreSQL refuse the query (a 500). No account has such an id: 404 like any unknown account.
  const id = parsePathId(accountId);
  const membership =
    request.memberships?.find((m) => m.accountId === id) ?? (await findMembership(request, user.id, id));
  if (!membership) throw new AppError('not_found');
  const tenant = { accountId: id, membership, user } as Tenant;
  if (capability) assertCan(tenant, capability);
  return tenant;
}

/**
 * The database's answer when the memberships loaded with the session do not have it (they are not loaded, or the
 * membership was made during this request); a non-member's call costs this one query.
 */
async function findMembership(
  request: FastifyRequest,
  userId: number,
  accountId: number,
): Promise<MembershipRow | undefined> {
  const { memberships } = schema;
  const [membership] = await request.server.services.db
    .select()
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.accountId, accountId)))
    .limit(1);
  return membership;
}

/**
 * How to find the account of an object of each account-scoped table. A new kind of account-scoped object adds one
 * line here (its table must have `account_id`).
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
} satisfies Record<string, (db: Db, id: number) => Promise<{ accountId: number }[]>>;

export type AccountScopedKind = keyof typeof accountOf;

/**
 * A path id: anything but a positive integer that fits the kind's id column (32-bit; verifications 64-bit, up to what
 * a JavaScript number holds exactly) is simply not found.
 */
export function parsePathId(raw: unknown, kind?: AccountScopedKind): number {
  const parsed = (kind === 'verifications' ? bigIdParamsSchema : idParamsSchema).safeParse({ id: raw });
  if (!parsed.success) throw new AppError('not_found');
  return parsed.data.id;
}

/** The caller's membership of the account that owns object `id` of `kind`; 404 if none (or no such object). */
export async function requireMembershipFor(
  request: FastifyRequest,
  kind: AccountScopedKind,
  rawId: unknown,
  capability?: Capability,
): Promise<Tenant> {
  requireVerifiedUser(request);
  const id = parsePathId(rawId, kind);
  const [row] = await accountOf[kind](request.server.services.db, id);
  if (!row) throw new AppError('not_found');
  return requireMembership(request, row.accountId, capability);
}

const pathId = (request: FastifyRequest): unknown => (request.params as { id?: unknown }).id;

/** preValidation hook for `/…/:id` of an account-scoped object. */
export function scopedByPathId(kind: AccountScopedKind, capability?: Capability) {
  return async (request: FastifyRequest): Promise<void> => {
    request.tenant = await requireMembershipFor(request, kind, pathId(request), capability);
  };
}

/** preValidation hook for `/api/accounts/:id…`: the path id is the account. */
export function scopedByAccountPath(capability?: Capability) {
  return async (request: FastifyRequest): Promise<void> => {
    requireVerifiedUser(request);
    request.tenant = await requireMembership(request, parsePathId(pathId(request)), capability);
  };
}

/** The tenant a scopedBy… hook resolved; a route without such a hook is a programming error (500). */
export function tenantOf(request: FastifyRequest): Tenant {
  if (!request.tenant) throw new Error(`${request.routeOptions.url}: no tenant hook on this route`);
  return request.tenant;
}
