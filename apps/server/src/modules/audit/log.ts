import type { AuditAction, AuditActor, AuditChanges, AuditTarget } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { eq, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Clock } from '../../lib/clock.ts';
import type { AccountContext, RequestOrigin } from '../../plugins/account-context.ts';
import { GENESIS_HASH, hashEvent } from './chain.ts';

const { auditEvents, auditChainHeads, memberships } = schema;

/**
 * Writing the audit log (issue #16, ADR 19). Call it with the transaction of the change it records, so the event
 * commits with the change or not at all:
 *
 *     await db.transaction(async (tx) => {
 *       …the change…
 *       await audit.record(tx, ctx, { action: 'form.updated', targets: [formTarget(form)], changes });
 *     });
 *
 * An account's events are chained one at a time: the upsert of its chain head locks that row until the transaction
 * ends, in every process; other accounts are not held up. There is no update or delete of events here (the database
 * refuses them too).
 */

export type AuditEntry = {
  action: AuditAction;
  /** The first is the event's main target (what the screen's target filter matches). */
  targets: AuditTarget[];
  changes?: AuditChanges | undefined;
};

/** A request's actor as the log names it: a person by id and e-mail, a key by id and prefix. */
export function actorOf(ctx: AccountContext): AuditActor {
  return ctx.actor.type === 'member'
    ? { type: 'user', id: String(ctx.actor.user.id), name: ctx.actor.user.email }
    : { type: 'api_key', id: String(ctx.actor.keyId), name: ctx.actor.prefix };
}

export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: null, name: 'Veriform' };
export const PUBLIC_PAGE_ACTOR: AuditActor = { type: 'system', id: null, name: 'Public check page' };
export const NO_ORIGIN: RequestOrigin = { ip: null, userAgent: null, requestId: null };

/** `{field: [before, after]}` for the fields that changed (compared as JSON); null when none did. */
export function changesOf<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
  fields: readonly (keyof T & string)[],
): Record<string, [unknown, unknown]> | null {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const field of fields) {
    if (!(field in after)) continue;
    const was = before[field] ?? null;
    const now = after[field] ?? null;
    if (JSON.stringify(was) !== JSON.stringify(now)) changes[field] = [was, now];
  }
  return Object.keys(changes).length > 0 ? changes : null;
}

/** Whether `db` is a transaction (a boolean, not a type guard: narrowing would lose the schema's type). */
function inTransaction(db: Db): boolean {
  return db instanceof PgTransaction;
}

export function createAuditLog(deps: { clock: Clock }) {
  const { clock } = deps;

  /**
   * One event in the account's chain, in `outer` (the change's transaction). A caller handing the plain database by
   * mistake gets a transaction of its own, so the head's lock is still held from the read of the chain's end to the
   * write of the new one; a transaction is used as it is (a savepoint there was two more round trips, one of them
   * while the head was locked).
   */
  function append(outer: Db, accountId: number, actor: AuditActor, origin: RequestOrigin, entry: AuditEntry) {
    if (inTransaction(outer)) return appendIn(outer, accountId, actor, origin, entry);
    return outer.transaction((tx) => appendIn(tx, accountId, actor, origin, entry));
  }

  async function appendIn(
    tx: Db,
    accountId: number,
    actor: AuditActor,
    origin: RequestOrigin,
    entry: AuditEntry,
  ): Promise<void> {
    // Creates the head on the account's first event, and either way locks it and reads the chain's end.
    const [head] = await tx
      .insert(auditChainHeads)
      .values({ accountId, sequence: 0, hash: GENESIS_HASH })
      .onConflictDoUpdate({ target: auditChainHeads.accountId, set: { accountId: sql`excluded.account_id` } })
      .returning({ sequence: auditChainHeads.sequence, hash: auditChainHeads.hash });
    if (!head) throw new Error('audit chain head not returned');
    const occurredAt = clock.now();
    const fields = {
      account: accountId,
      sequence: head.sequence + 1,
      occurredAt: occurredAt.toISOString(),
      actor,
      action: entry.action,
      targets: entry.targets,
      changes: entry.changes ?? null,
      ip: origin.ip,
      userAgent: origin.userAgent,
      requestId: origin.requestId,
      prevHash: head.hash,
    };
    const hash = hashEvent(fields);
    const [first] = entry.targets;
    // The event and the chain's new end in one statement: one round trip less while the head is locked.
    const event = tx.$with('event').as(
      tx
        .insert(auditEvents)
        .values({
          accountId,
          sequence: fields.sequence,
          occurredAt,
          actorType: actor.type,
          actorId: actor.id,
          actorName: actor.name,
          action: entry.action,
          targetType: first?.type ?? null,
          targetId: first?.id ?? null,
          targets: entry.targets,
          changes: fields.changes,
          ip: origin.ip,
          userAgent: origin.userAgent,
          requestId: origin.requestId,
          prevHash: head.hash,
          hash,
        })
        .returning({ sequence: auditEvents.sequence }),
    );
    await tx
      .with(event)
      .update(auditChainHeads)
      .set({ sequence: fields.sequence, hash })
      .where(eq(auditChainHeads.accountId, accountId));
  }

  return {
    /** An action of a request's actor on its account (the context says who and from where). */
    record: (tx: Db, ctx: AccountContext, entry: AuditEntry) =>
      append(tx, ctx.accountId, actorOf(ctx), ctx.origin, entry),

    /**
     * An action of a person outside any one account (signing in or out, their password or address): one event in
     * each account they belong to, as each account's owners must see it.
     */
    async recordForUser(
      tx: Db,
      user: { id: number; email: string },
      origin: RequestOrigin,
      entry: AuditEntry,
    ): Promise<void> {
      const rows = await tx
        .select({ accountId: memberships.accountId })
        .from(memberships)
        .where(eq(memberships.userId, user.id))
        .orderBy(memberships.accountId);
      const actor: AuditActor = { type: 'user', id: String(user.id), name: user.email };
      for (const { accountId } of rows) await append(tx, accountId, actor, origin, entry);
    },

    /**
     * A person's action in one account without an AccountContext yet (accepting an invitation: the membership is made
     * by this very change). Only that account hears of it, not the person's other companies.
     */
    recordForUserIn: (
      tx: Db,
      accountId: number,
      user: { id: number; email: string },
      origin: RequestOrigin,
      entry: AuditEntry,
    ) => append(tx, accountId, { type: 'user', id: String(user.id), name: user.email }, origin, entry),

    /**
     * What an anonymous visitor made Veriform do (unlocking a certificate on the public check page): no person or key
     * to name, so the actor is Veriform's page, and the request's origin says who asked.
     */
    recordForVisitor: (tx: Db, accountId: number, origin: RequestOrigin, entry: AuditEntry) =>
      append(tx, accountId, PUBLIC_PAGE_ACTOR, origin, entry),

    /** Veriform's own actions (retention). */
    recordAsSystem: (tx: Db, accountId: number, entry: AuditEntry) =>
      append(tx, accountId, SYSTEM_ACTOR, NO_ORIGIN, entry),
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;

/** Targets as the log names them (id as text, a human name). */
export const auditTarget = {
  user: (user: { id: number; email: string }): AuditTarget => ({
    type: 'user',
    id: String(user.id),
    name: user.email,
  }),
  account: (account: { id: number; displayName: string }): AuditTarget => ({
    type: 'account',
    id: String(account.id),
    name: account.displayName,
  }),
  form: (form: { id: number; name: string }): AuditTarget => ({
    type: 'form',
    id: String(form.id),
    name: form.name,
  }),
};
