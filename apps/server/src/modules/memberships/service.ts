import {
  type AuditTarget,
  type Capability,
  can,
  type KeepCredentials,
  type ListResponse,
  type Membership,
  type OwnedCredentials,
  type Role,
  type TeamMembership,
  teamTexts,
  type UpdatePermissionsRequest,
} from '@veriform/contracts';
import type { Db, Tx } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, count, eq, type SQL } from 'drizzle-orm';
import { lockAccount } from '../../lib/account-lock.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { SessionRow, SessionStore } from '../../lib/session-store.ts';
import { type AccountContext, assertCan, assertStillCan, memberOf } from '../../plugins/account-context.ts';
import { type AuditEntry, type AuditLog, auditTarget, changesOf } from '../audit/index.ts';
import type { UserRow } from '../users/index.ts';
import type { WebhookEvents } from '../webhooks/index.ts';
import { toApiMembership } from './api-object.ts';
import { type CredentialsCause, checkKept, ownedCredentials, revokeCredentialsOf } from './credentials.ts';
import { findMembershipOfUser, type MembershipRow, selectTeamMemberships } from './repository.ts';
import { revokeOpenInvitationsBy } from './revoke-invitations.ts';

const { memberships, users } = schema;

export const lastOwnerError = () => AppError.nonField('last_owner', teamTexts.lastOwner);

/** Everything on one page (teams are small): pageNumber 1, pageSize = count. */
function onePage<T>(results: T[]): ListResponse<T> {
  return { count: results.length, pageNumber: 1, pageSize: results.length, results };
}

/**
 * Memberships (SPEC §7): the team of an account, role and permission changes, removal (and leaving), and the session's
 * current membership. An account always keeps at least one owner: every change that could take an owner away runs
 * in a short transaction that first locks the account's row (lib/account-lock.ts), so two owners demoting or
 * removing each other at the same moment are serialised and the second one sees that it would leave none.
 * A change that takes someone's right to invite away (removal, leaving, demotion to member) revokes the invitations
 * they sent that are still open, in the same transaction; accepting takes the same lock and checks the inviter again.
 */
export function createMembershipService(deps: {
  db: Db;
  clock: Clock;
  sessions: SessionStore;
  /** The audit log (issue #16): write with the change's own transaction. */
  audit: AuditLog;
  /** Webhook events (issue #17): `membership.removed` in the removal's transaction (and `.created` by invitations). */
  webhookEvents: WebhookEvents;
}) {
  const { db, clock, sessions, audit, webhookEvents } = deps;

  const inAccount = (ctx: AccountContext) => eq(memberships.accountId, ctx.accountId);

  async function personOf(tx: Tx, membership: MembershipRow) {
    const [user] = await tx
      .select({ id: users.id, email: users.email, name: users.name })
      .from(users)
      .where(eq(users.id, membership.userId))
      .limit(1);
    if (!user) throw new Error('Membership without its user');
    return user;
  }

  /** The membership acted on and its person, as the audit log names them (by the person's address). */
  const targetsFor = (membership: MembershipRow, user: { id: number; email: string }): AuditTarget[] => [
    { type: 'membership', id: String(membership.id), name: user.email },
    auditTarget.user(user),
  ];
  const targetsOf = async (tx: Tx, membership: MembershipRow): Promise<AuditTarget[]> =>
    targetsFor(membership, await personOf(tx, membership));

  async function get(ctx: AccountContext, id: number): Promise<TeamMembership> {
    // and() of defined conditions is always defined.
    const where = and(inAccount(ctx), eq(memberships.id, id)) as SQL;
    const [found] = await selectTeamMemberships(db, where, 'oldest');
    if (!found) throw new AppError('not_found');
    return found;
  }

  /** The team, oldest first. */
  async function listTeam(ctx: AccountContext): Promise<ListResponse<TeamMembership>> {
    return onePage(await selectTeamMemberships(db, inAccount(ctx), 'oldest'));
  }

  /** The caller's own memberships in the team shape, newest first (as in the initial page data). */
  async function listOwn(user: UserRow): Promise<ListResponse<TeamMembership>> {
    return onePage(await selectTeamMemberships(db, eq(memberships.userId, user.id), 'newest'));
  }

  /**
   * What removing or demoting membership `id` would revoke and disable now (ADR 30): the person's active API keys and
   * enabled webhook endpoints in this account. manageTeam (checked by the route).
   */
  async function owned(ctx: AccountContext, id: number): Promise<OwnedCredentials> {
    const [target] = await db
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(inAccount(ctx), eq(memberships.id, id)))
      .limit(1);
    if (!target) throw new AppError('not_found');
    return ownedCredentials(db, ctx.accountId, target.userId);
  }

  /** Only an owner may keep anything (checked under the lock, before the change: one leaving is still a member). */
  async function assertMayKeep(tx: Tx, ctx: AccountContext, keep: KeepCredentials): Promise<void> {
    const keeps = (keep.keepApiKeyIds?.length ?? 0) + (keep.keepWebhookEndpointIds?.length ?? 0) > 0;
    if (keeps) await assertStillCan(tx, ctx, 'manageCompany');
  }

  /**
   * A person who is no longer an owner of the account (removed, left, or made a member) loses what they created in it
   * (ADR 30): their keys are revoked and their endpoints disabled, in the change's transaction, under its lock, but
   * for those `keep` names. Answers the audit entries to record after the change's own.
   */
  function takeCredentials(
    tx: Tx,
    ctx: AccountContext,
    target: MembershipRow,
    person: { id: number; email: string },
    keep: KeepCredentials,
    cause: CredentialsCause,
  ): Promise<AuditEntry[]> {
    return revokeCredentialsOf(tx, {
      accountId: ctx.accountId,
      userId: target.userId,
      keep,
      now: clock.now(),
      cause,
      personTargets: targetsFor(target, person),
    });
  }

  /**
   * Runs `change` on the account's membership `id` with the account's row locked; refuses (last_owner) when the
   * target is an owner, `losesOwner` says the change takes that away, and no other owner would remain.
   */
  async function changeGuardingOwners(
    ctx: AccountContext,
    id: number,
    requires: Capability | null,
    losesOwner: (target: MembershipRow) => boolean,
    change: (tx: Tx, target: MembershipRow) => Promise<void>,
  ): Promise<void> {
    await transaction(db, async (tx) => {
      await lockAccount(tx, ctx.accountId);
      // The caller's rights were checked before the lock; an owner demoted or removed meanwhile loses them here.
      if (requires) await assertStillCan(tx, ctx, requires);
      const [target] = await tx
        .select()
        .from(memberships)
        .where(and(inAccount(ctx), eq(memberships.id, id)))
        .limit(1);
      if (!target) throw new AppError('not_found');
      if (target.role === 'owner' && losesOwner(target)) {
        const [owners] = await tx
          .select({ n: count() })
          .from(memberships)
          .where(and(inAccount(ctx), eq(memberships.role, 'owner')));
        if ((owners?.n ?? 0) <= 1) throw lastOwnerError();
      }
      await change(tx, target);
    });
  }

  /**
   * manageTeam (checked by the route). Promotion keeps the two switches as they were (they matter for members only).
   * An owner made a member loses the keys and endpoints they created, but for those `keep` names (ADR 30).
   */
  async function updateRole(
    ctx: AccountContext,
    id: number,
    role: Role,
    keep: KeepCredentials = {},
  ): Promise<TeamMembership> {
    await changeGuardingOwners(
      ctx,
      id,
      'manageTeam',
      () => role !== 'owner',
      async (tx, target) => {
        await assertMayKeep(tx, ctx, keep);
        await tx
          .update(memberships)
          .set({ role })
          .where(and(inAccount(ctx), eq(memberships.id, id)));
        if (!can({ ...target, role }, 'manageTeam')) {
          await revokeOpenInvitationsBy(tx, ctx.accountId, target.userId, clock.now());
        }
        const person = await personOf(tx, target);
        const demoted = can(target, 'manageCompany') && !can({ ...target, role }, 'manageCompany');
        let fallout: AuditEntry[] = [];
        if (demoted) fallout = await takeCredentials(tx, ctx, target, person, keep, 'creator_demoted');
        // Kept ids are checked whatever the change: a named id is never silently ignored.
        else checkKept(await ownedCredentials(tx, ctx.accountId, target.userId), keep);
        // The role it had already changes nothing and records nothing.
        const changes = changesOf(target, { role }, ['role']);
        if (changes) {
          await audit.record(tx, ctx, {
            action: 'membership.role_changed',
            targets: targetsFor(target, person),
            changes,
          });
        }
        for (const entry of fallout) await audit.record(tx, ctx, entry);
      },
    );
    return get(ctx, id);
  }

  /**
   * manageTeam (checked by the route). The audit log has the switches that changed, before and after, read under
   * the row's lock so that of two changes at once each records what it really changed; none changed, no event.
   */
  async function updatePermissions(
    ctx: AccountContext,
    id: number,
    values: UpdatePermissionsRequest,
  ): Promise<TeamMembership> {
    await transaction(db, async (tx) => {
      const [before] = await tx
        .select()
        .from(memberships)
        .where(and(inAccount(ctx), eq(memberships.id, id)))
        .limit(1)
        .for('no key update');
      if (!before) throw new AppError('not_found');
      const after = { canSearchData: values.canSearchData, canViewReports: values.canViewReports };
      await tx
        .update(memberships)
        .set(after)
        .where(and(inAccount(ctx), eq(memberships.id, id)));
      const changes = changesOf(before, after, ['canSearchData', 'canViewReports']);
      if (changes) {
        await audit.record(tx, ctx, {
          action: 'membership.permissions_changed',
          targets: await targetsOf(tx, before),
          changes,
        });
      }
    });
    return get(ctx, id);
  }

  /**
   * Owners (manageTeam) remove anyone; anyone may remove their own membership (leave); otherwise 403. The last owner
   * can do neither. Sessions that had it as their current membership fall back to none (FK ON DELETE SET NULL),
   * hence to the user's first membership. The audit log has who removed whom (the member themselves when leaving)
   * and what the membership was.
   */
  async function remove(ctx: AccountContext, id: number, keep: KeepCredentials = {}): Promise<void> {
    const leaving = id === memberOf(ctx).membership.id;
    if (!leaving) assertCan(ctx, 'manageTeam');
    await changeGuardingOwners(
      ctx,
      id,
      leaving ? null : 'manageTeam',
      () => true,
      async (tx, target) => {
        await assertMayKeep(tx, ctx, keep);
        await tx.delete(memberships).where(and(inAccount(ctx), eq(memberships.id, id)));
        await revokeOpenInvitationsBy(tx, ctx.accountId, target.userId, clock.now());
        const person = await personOf(tx, target);
        // Whatever their role now: a member may hold keys kept when they were demoted.
        const fallout = await takeCredentials(tx, ctx, target, person, keep, 'creator_removed');
        await webhookEvents.emit(tx, ctx.accountId, {
          type: 'membership.removed',
          data: toApiMembership(target, person),
        });
        await audit.record(tx, ctx, {
          action: 'membership.removed',
          targets: targetsFor(target, person),
          changes: {
            role: [target.role, null],
            canSearchData: [target.canSearchData, null],
            canViewReports: [target.canViewReports, null],
          },
        });
        for (const entry of fallout) await audit.record(tx, ctx, entry);
      },
    );
  }

  /** Only the caller's own memberships (any other id: 404); remembered on this session. */
  async function select(user: UserRow, session: SessionRow, id: number): Promise<Membership> {
    const membership = await findMembershipOfUser(db, user.id, id);
    if (!membership) throw new AppError('not_found');
    await sessions.setCurrentMembership(session.idHash, membership.id);
    return membership;
  }

  return { get, listTeam, listOwn, owned, updateRole, updatePermissions, remove, select };
}

export type MembershipService = ReturnType<typeof createMembershipService>;
