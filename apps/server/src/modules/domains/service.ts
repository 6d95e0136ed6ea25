import { randomInt } from 'node:crypto';
import {
  type AccountDomain,
  type AuditTarget,
  type CreateAccountDomainRequest,
  DOMAIN_CHECKS_PER_HOUR,
  DOMAIN_TOKEN_PREFIX,
  domainTexts,
  MAX_ACCOUNT_DOMAINS,
  normalizeDomain,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import type { RateLimiter, RateLimitRule } from '../../lib/rate-limit.ts';
import type { HostResolver } from '../../lib/webhook-url.ts';
import { type AccountContext, assertStillCan, memberOf } from '../../plugins/account-context.ts';
import type { AuditLog } from '../audit/index.ts';
import { checkDomainProof, fileUrlOf, type TxtLookup, txtRecordNameOf } from './proof.ts';

const { accounts, accountDomains } = schema;

type DomainRow = typeof accountDomains.$inferSelect;

const HOUR_MS = 3_600_000;

/**
 * Domains per account, and checks per domain (each a DNS lookup and an HTTPS request to a host the owner chose):
 * checks are counted per account and domain name, so removing and adding the domain again starts no new count.
 */
export const DOMAIN_LIMITS = {
  maxDomains: MAX_ACCOUNT_DOMAINS,
  checks: { limit: DOMAIN_CHECKS_PER_HOUR, windowMs: HOUR_MS },
} as const;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 32 base62 characters: 190 bits, unguessable, and short enough for any DNS console's TXT field. */
const TOKEN_LENGTH = 32;

export function generateDomainToken(): string {
  let random = '';
  for (let i = 0; i < TOKEN_LENGTH; i++) random += ALPHABET.charAt(randomInt(ALPHABET.length));
  return `${DOMAIN_TOKEN_PREFIX}${random}`;
}

/**
 * Company domains (issue #33 item 10, ADR 31): owners add a domain (a token is made for it), publish the token as a
 * TXT record or a file, and ask for a check; the first check that finds it verifies the domain, once. Every member
 * reads the list; adding, checking and removing need `manageCompany` (the routes ask it). Each change is in the audit
 * log, in its own transaction: `domain.added`, `domain.verified`, `domain.removed`.
 */
export function createDomainService(deps: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'domainProofAllowHttp'>;
  rateLimit: RateLimiter;
  audit: AuditLog;
  /** Host names of the file proof to addresses (the operating system's resolver; tests inject one). */
  resolveHost: HostResolver;
  /** TXT records (node:dns's own resolver; tests point one at a DNS server on loopback). */
  lookupTxt: TxtLookup;
}) {
  const { db, clock, config, rateLimit, audit, resolveHost, lookupTxt } = deps;

  const domainTarget = (row: { id: number; domain: string }): AuditTarget => ({
    type: 'domain',
    id: String(row.id),
    name: row.domain,
  });

  const toDto = (row: DomainRow): AccountDomain => ({
    id: row.id,
    domain: row.domain,
    token: row.token,
    dnsRecord: { type: 'TXT', name: txtRecordNameOf(row.domain), value: row.token },
    fileUrl: fileUrlOf(row.domain),
    created: row.createdAt.toISOString(),
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    verifiedBy: row.verifiedBy,
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    lastCheckResult: row.lastCheckResult,
  });

  const own = (ctx: AccountContext, id: number) =>
    and(eq(accountDomains.accountId, ctx.accountId), eq(accountDomains.id, id));

  async function find(ctx: AccountContext, id: number): Promise<DomainRow> {
    const [row] = await db.select().from(accountDomains).where(own(ctx, id)).limit(1);
    if (!row) throw new AppError('not_found');
    return row;
  }

  async function list(ctx: AccountContext): Promise<{ results: AccountDomain[] }> {
    const rows = await db
      .select()
      .from(accountDomains)
      .where(eq(accountDomains.accountId, ctx.accountId))
      .orderBy(asc(accountDomains.createdAt), asc(accountDomains.id));
    return { results: rows.map(toDto) };
  }

  /** At most `maxDomains` per account, counted and inserted under the account row's lock (as webhook endpoints). */
  async function create(ctx: AccountContext, body: CreateAccountDomainRequest): Promise<AccountDomain> {
    const verdict = normalizeDomain(body.domain, { allowLoopback: config.domainProofAllowHttp });
    if (!verdict.ok) throw AppError.field('validation_error', 'domain', verdict.message);
    const { domain } = verdict;
    try {
      const row = await transaction(db, async (tx) => {
        await tx
          .select({ id: accounts.id })
          .from(accounts)
          .where(eq(accounts.id, ctx.accountId))
          .for('update');
        await assertStillCan(tx, ctx, 'manageCompany');
        const [existing] = await tx
          .select({ n: count() })
          .from(accountDomains)
          .where(eq(accountDomains.accountId, ctx.accountId));
        if ((existing?.n ?? 0) >= DOMAIN_LIMITS.maxDomains)
          throw AppError.nonField('validation_error', domainTexts.tooMany);
        const [inserted] = await tx
          .insert(accountDomains)
          .values({
            accountId: ctx.accountId,
            domain,
            token: generateDomainToken(),
            createdByUserId: memberOf(ctx).user.id,
            createdAt: clock.now(),
          })
          .returning();
        if (!inserted) throw new Error('account domain insert returned no row');
        await audit.record(tx, ctx, { action: 'domain.added', targets: [domainTarget(inserted)] });
        return inserted;
      });
      return toDto(row);
    } catch (error) {
      // The unique index (account_id, domain) decides between two owners adding the same domain at once.
      if (isUniqueViolation(error)) throw AppError.field('validation_error', 'domain', domainTexts.duplicate);
      throw error;
    }
  }

  /**
   * Looks for the token in the TXT record and the file at once. Found: the domain is verified (the first check to
   * find it sets `verified_at`, under a guard, and alone records `domain.verified`). Not found: 400 with what each
   * proof found, also kept as the domain's last check result. A verified domain answers as it is, with no lookup and
   * no count. Limited per account and domain name (429 with Retry-After).
   */
  async function check(ctx: AccountContext, id: number): Promise<AccountDomain> {
    const row = await find(ctx, id);
    if (row.verifiedAt) return toDto(row);
    const rule: RateLimitRule = {
      bucket: `domain-check:${ctx.accountId}:${row.domain}`,
      ...DOMAIN_LIMITS.checks,
    };
    await rateLimit.consume([rule], domainTexts.tooManyChecks);
    const result = await checkDomainProof(row.domain, row.token, {
      lookupTxt,
      resolveHost,
      allowHttp: config.domainProofAllowHttp,
    });
    const now = clock.now();
    if (!result.verified) {
      const summary = result.findings.join(' ');
      // The domain may have been removed meanwhile: then there is nothing to note the result on, and it is not found.
      const [noted] = await db
        .update(accountDomains)
        .set({ lastCheckedAt: now, lastCheckResult: summary })
        .where(own(ctx, id))
        .returning({ id: accountDomains.id });
      if (!noted) throw new AppError('not_found');
      throw new AppError('validation_error', { nonFieldErrors: result.findings });
    }
    const how = result.by === 'dns' ? 'the DNS TXT record' : 'the file';
    const verified = await transaction(db, async (tx) => {
      const [updated] = await tx
        .update(accountDomains)
        .set({
          verifiedAt: now,
          verifiedBy: result.by,
          lastCheckedAt: now,
          lastCheckResult: `Verified by ${how}.`,
        })
        .where(and(own(ctx, id), isNull(accountDomains.verifiedAt)))
        .returning();
      if (!updated) return undefined;
      await audit.record(tx, ctx, {
        action: 'domain.verified',
        targets: [domainTarget(updated)],
        changes: { method: result.by },
      });
      return updated;
    });
    // Verified by a concurrent check (or removed) meanwhile: the row as it is now.
    return toDto(verified ?? (await find(ctx, id)));
  }

  async function remove(ctx: AccountContext, id: number): Promise<void> {
    await transaction(db, async (tx) => {
      const [deleted] = await tx.delete(accountDomains).where(own(ctx, id)).returning({
        id: accountDomains.id,
        domain: accountDomains.domain,
        verifiedAt: accountDomains.verifiedAt,
      });
      if (!deleted) throw new AppError('not_found');
      await audit.record(tx, ctx, {
        action: 'domain.removed',
        targets: [domainTarget(deleted)],
        changes: { verified: deleted.verifiedAt !== null },
      });
    });
  }

  return { list, create, check, remove };
}

export type DomainService = ReturnType<typeof createDomainService>;
