import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq, gt, gte, lt, lte, or, sql } from 'drizzle-orm';
import type { PersonRedaction } from '../../domain/person-redaction.ts';
import type { Clock } from '../../lib/clock.ts';

/**
 * The rows behind API v1's Idempotency-Key (ADR 17; the hooks are idempotency.ts). One row per API key and key: claimed
 * `running` before the handler runs, `done` with the answer once it has one, removed when the answer is not to be kept.
 * Every write after the claim names the claim's `created_at`, so a process that lost its row to a takeover cannot
 * overwrite the new owner's.
 */

const { apiIdempotencyKeys: rows } = schema;

/** How long a key is remembered: the IETF draft's and Stripe's 24 hours. Older rows count as absent. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A `running` row this old belongs to a process that died (or hangs) mid-request: the same request may take it over.
 * API v1 handlers answer in well under a second; minutes leave room for a slow database without running a live
 * request twice.
 */
export const RUNNING_TAKEOVER_MS = 5 * 60 * 1000;

export type Claim = { apiKeyId: number; key: string; createdAt: Date };

export type Answer = { statusCode: number; contentType: string | null; body: Buffer };

export type Existing =
  | { state: 'running'; sameRequest: boolean }
  | { state: 'done'; sameRequest: boolean; answer: Answer };

export function createIdempotencyStore(db: Db, clock: Clock) {
  const whereClaim = (claim: Claim) =>
    and(eq(rows.apiKeyId, claim.apiKeyId), eq(rows.key, claim.key), eq(rows.createdAt, claim.createdAt));

  /**
   * Claims the key for this request in one atomic statement: a new row, or the takeover of an expired row or of a
   * stale `running` one of the same request. Null when another request holds it (then `find` says how).
   */
  async function claim(apiKeyId: number, key: string, requestHash: Buffer): Promise<Claim | null> {
    const now = clock.now();
    const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS);
    const staleBefore = new Date(now.getTime() - RUNNING_TAKEOVER_MS);
    const claimed = await db
      .insert(rows)
      .values({ apiKeyId, key, requestHash, state: 'running', createdAt: now })
      .onConflictDoUpdate({
        target: [rows.apiKeyId, rows.key],
        set: {
          requestHash,
          state: 'running',
          statusCode: null,
          contentType: null,
          body: null,
          createdAt: now,
        },
        setWhere: or(
          lte(rows.createdAt, expiredBefore),
          and(
            eq(rows.state, 'running'),
            lte(rows.createdAt, staleBefore),
            eq(rows.requestHash, sql`excluded.request_hash`),
          ),
        ),
      })
      .returning({ createdAt: rows.createdAt });
    return claimed.length > 0 ? { apiKeyId, key, createdAt: now } : null;
  }

  /** The key's unexpired row, compared with this request; null if there is none (released or expired since). */
  async function find(apiKeyId: number, key: string, requestHash: Buffer): Promise<Existing | null> {
    const expiredBefore = new Date(clock.now().getTime() - IDEMPOTENCY_KEY_TTL_MS);
    const [row] = await db
      .select({
        requestHash: rows.requestHash,
        state: rows.state,
        statusCode: rows.statusCode,
        contentType: rows.contentType,
        body: rows.body,
      })
      .from(rows)
      .where(and(eq(rows.apiKeyId, apiKeyId), eq(rows.key, key), gt(rows.createdAt, expiredBefore)));
    if (!row) return null;
    const sameRequest = Buffer.from(row.requestHash).equals(requestHash);
    if (row.state === 'running' || row.statusCode === null || row.body === null) {
      return { state: 'running', sameRequest };
    }
    const answer = { statusCode: row.statusCode, contentType: row.contentType, body: Buffer.from(row.body) };
    return { state: 'done', sameRequest, answer };
  }

  /** Keeps the answer the handler produced, for replays. */
  async function complete(claim: Claim, answer: Answer): Promise<void> {
    await db
      .update(rows)
      .set({ state: 'done', ...answer })
      .where(and(whereClaim(claim), eq(rows.state, 'running')));
  }

  /** Forgets the claim, so that the same request runs again. */
  async function release(claim: Claim): Promise<void> {
    await db.delete(rows).where(and(whereClaim(claim), eq(rows.state, 'running')));
  }

  return { claim, find, complete, release };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;

/** Deletes the keys past their 24 hours (the hourly prune-idempotency-keys job); reads ignore them already. */
export async function pruneIdempotencyKeys(db: Db, clock: Clock): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - IDEMPOTENCY_KEY_TTL_MS);
  const deleted = await db.delete(rows).where(lt(rows.createdAt, cutoff)).returning({ key: rows.key });
  return deleted.length;
}

const { apiKeys } = schema;

/**
 * A redaction's reach into the answers kept for replays (issue #33, ADR 25): an Idempotency-Key replay of a start,
 * resend, check or cancel would answer the full number, address and evidence for 24 hours after they were redacted.
 * The account's stored answers naming one of the redacted attempts (or the number) are rewritten in place: each
 * Verification object of those attempts gets the masked `to` and `email` and no `evidence`, as a GET now answers it,
 * and any other spelling left in the body is masked. The row stays (`done`, same status): a retry still replays
 * instead of running again — deleting it would send a second code.
 */
export async function redactIdempotentAnswers(
  tx: Db,
  accountId: number,
  redaction: PersonRedaction,
): Promise<number> {
  const { attempts, needles, mask, since } = redaction;
  const found = await tx
    .select({ apiKeyId: rows.apiKeyId, key: rows.key, body: rows.body })
    .from(rows)
    .where(
      and(
        gte(rows.createdAt, since),
        sql`${rows.apiKeyId} in (select ${apiKeys.id} from ${apiKeys} where ${apiKeys.accountId} = ${accountId})`,
        or(...needles.map((needle) => sql`position(convert_to(${needle}, 'UTF8') in ${rows.body}) > 0`)),
      ),
    )
    .for('update');
  const byId = new Map(attempts.map((a) => [a.id, a]));
  const redactObjects = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(redactObjects);
    if (value === null || typeof value !== 'object') return value;
    const object: Record<string, unknown> = Object.fromEntries(
      Object.entries(value).map(([name, inner]) => [name, redactObjects(inner)]),
    );
    const attempt = typeof object.id === 'string' ? byId.get(object.id) : undefined;
    if (attempt && 'to' in object) {
      object.to = attempt.cellPhone;
      if ('email' in object) object.email = attempt.email;
      if ('evidence' in object) object.evidence = null;
    }
    return object;
  };
  for (const row of found) {
    if (row.body === null) continue;
    const text = Buffer.from(row.body).toString('utf8');
    let rewritten: string;
    try {
      rewritten = JSON.stringify(redactObjects(JSON.parse(text)));
    } catch {
      rewritten = text;
    }
    await tx
      .update(rows)
      .set({ body: Buffer.from(mask(rewritten), 'utf8') })
      .where(and(eq(rows.apiKeyId, row.apiKeyId), eq(rows.key, row.key)));
  }
  return found.length;
}
