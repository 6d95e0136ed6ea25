import type { AuditAction, AuditActor, AuditChanges, AuditTarget } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { maskEmail, maskPhone, parseCellPhone } from '../../domain/phone.ts';
import type { Clock } from '../../lib/clock.ts';
import { statement } from '../../lib/statement.ts';
import type { AccountContext, RequestOrigin } from '../../plugins/account-context.ts';
import { chainTemplate } from './chain.ts';

const { memberships } = schema;

/**
 * Writing the audit log (issue #16, ADR 19). Call it with the transaction of the change it records, so the event
 * commits with the change or not at all:
 *
 *     await transaction(db, async (tx) => {
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

/** What a system action carries out, as the audit log names it (a data-subject request). */
export type SystemCaller = { readonly id: string; readonly name: string };

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

/**
 * One event at the end of its account's chain, in one statement (migration 0027): the head's lock is taken, the
 * template filled in and hashed, the event and the new head written, without a round trip in between.
 */
const appendEvent = statement<{ sequence: string }>(
  'audit_append',
  `SELECT append_audit_event($1::integer, $2::timestamptz, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text,
    $9::jsonb, $10::jsonb, $11::text, $12::text, $13::text, $14::text, $15::text, $16::text)::text AS sequence`,
);

export function createAuditLog(deps: { clock: Clock }) {
  const { clock } = deps;

  /**
   * One event in the account's chain, in `db`: the change's transaction (the head stays locked until it commits), or
   * the database, where the statement is its own transaction.
   */
  async function append(
    db: Db,
    accountId: number,
    actor: AuditActor,
    origin: RequestOrigin,
    entry: AuditEntry,
  ): Promise<void> {
    const occurredAt = clock.now();
    const changes = entry.changes ?? null;
    const template = chainTemplate({
      account: accountId,
      occurredAt: occurredAt.toISOString(),
      actor,
      action: entry.action,
      targets: entry.targets,
      changes,
      ip: origin.ip,
      userAgent: origin.userAgent,
      requestId: origin.requestId,
    });
    const [first] = entry.targets;
    await appendEvent(db, [
      accountId,
      occurredAt.toISOString(),
      actor.type,
      actor.id,
      actor.name,
      entry.action,
      first?.type ?? null,
      first?.id ?? null,
      JSON.stringify(entry.targets),
      changes === null ? null : JSON.stringify(changes),
      origin.ip,
      origin.userAgent,
      origin.requestId,
      template.text,
      template.sequenceMarker,
      template.prevHashMarker,
    ]);
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

    /**
     * Veriform carrying out what someone asked for earlier (a data-subject request's job, issue #37): a system actor
     * named after it (`{type: 'system', id: 'dsr_…', name: 'Privacy request dsr_…'}`).
     */
    recordAsSystemFor: (tx: Db, accountId: number, on: SystemCaller, entry: AuditEntry) =>
      append(tx, accountId, { type: 'system', id: on.id, name: on.name }, NO_ORIGIN, entry),
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;

/**
 * A read of many records at once (issue #33 item 8: an API v1 page, an export of the audit log): one event per page
 * or export, no target, `changes` saying how many records it gave and which filters chose them (those given, as the
 * request named them). Recorded before the answer is sent, as one verification's view is: an answer that was given is
 * in the log.
 */
export function readEntry(
  action: Extract<
    AuditAction,
    'verification.list_read' | 'event.list_read' | 'audit_log.list_read' | 'audit_log.exported'
  >,
  count: number,
  filters: Record<string, unknown>,
): AuditEntry {
  const given = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));
  return { action, targets: [], changes: { count, filters: given } };
}

/**
 * A list's filters as the log keeps them (issue #33): a search `q` that names a person — an address, or a number in
 * any spelling — is masked as the log names verifications (`+1 ••• ••• 0123`, `a•••@example.com`; a partial number
 * keeps its last four digits). The log is append-only and hash-chained, so a number written into it could never be
 * redacted; the rest of the filters, and a search for a reference, are kept as given.
 */
export function filtersForTheLog<T extends Record<string, unknown>>(filters: T): T {
  const q = typeof filters.q === 'string' ? filters.q.trim() : '';
  if (!q) return filters;
  let masked = q;
  if (q.includes('@')) masked = maskEmail(q);
  else if (/^[+\d\s().-]+$/.test(q)) {
    const phone = parseCellPhone(q);
    const digits = q.replace(/\D/g, '');
    if (phone.ok) masked = maskPhone(phone.e164);
    else if (digits.length > 4) masked = `•••${digits.slice(-4)}`;
  }
  return { ...filters, q: masked };
}

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
