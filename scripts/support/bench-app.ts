/**
 * What the in-process benchmarks share around the app: the database they need, an owner's session cookie, a timed call
 * from a fresh client address, and the account and form the send-code benchmarks send through.
 */
import { randomBytes } from 'node:crypto';
import { apiKeyScopes } from '@veriform/contracts';
import { type Db, schema } from '@veriform/db';
import { and, count, desc, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Config } from '../../apps/server/src/config.ts';
import {
  API_KEY_PREFIX_LENGTH,
  generateApiKey,
  hashApiKey,
} from '../../apps/server/src/modules/api-keys/key-format.ts';
import { cookieNames } from '../../apps/server/src/plugins/cookies.ts';

/** `--database-url` (or DATABASE_URL): the benchmarks that measure PostgreSQL stop at once without one. */
export function requireDatabaseUrl(given: string | undefined): string {
  const databaseUrl = given ?? process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error('--database-url (PostgreSQL) is required');
    process.exit(1);
  }
  return databaseUrl;
}

/** An owner of the account (the membership's user and id), or undefined when it has none. */
export async function ownerOf(
  db: Db,
  accountId: number,
): Promise<{ userId: number; id: number } | undefined> {
  const [owner] = await db
    .select({ userId: schema.memberships.userId, id: schema.memberships.id })
    .from(schema.memberships)
    .where(and(eq(schema.memberships.accountId, accountId), eq(schema.memberships.role, 'owner')))
    .limit(1);
  return owner;
}

/** Logs the member in as the login does (a session row) and answers the Cookie header that carries the session. */
export async function sessionCookie(
  app: FastifyInstance,
  config: Config,
  member: { userId: number; id: number },
): Promise<string> {
  const session = await app.services.sessions.create(member.userId, {
    ip: '127.0.0.1',
    userAgent: 'bench',
    currentMembershipId: member.id,
  });
  return `${cookieNames(config).session}=${session.id}`;
}

/**
 * A timed GET through `app.inject`; anything but a 200 stops the benchmark. Each call comes from a new client address
 * in 10.`network`.x.y: the per-IP backstop limit (600/min) is not what is measured.
 */
export function timedGet(app: FastifyInstance, network: number) {
  let counter = 0;
  return async (
    url: string,
    headers: Record<string, string>,
  ): Promise<{ elapsed: number; response: LightMyRequestResponse }> => {
    counter += 1;
    const started = performance.now();
    const response = await app.inject({
      method: 'GET',
      url,
      headers,
      remoteAddress: `10.${network}.${Math.floor(counter / 250) % 250}.${(counter % 250) + 1}`,
    });
    const elapsed = performance.now() - started;
    if (response.statusCode !== 200)
      throw new Error(`${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
    return { elapsed, response };
  };
}

/** A fresh account with one live form: what the send-code benchmarks send their codes through. */
export async function benchForm(db: Db) {
  const [account] = await db.insert(schema.accounts).values({ displayName: 'Bench Co' }).returning();
  if (!account) throw new Error('no account');
  const [form] = await db
    .insert(schema.verifyForms)
    .values({
      accountId: account.id,
      publicId: randomBytes(12).toString('base64url'),
      name: 'Bench',
      isLive: true,
    })
    .returning();
  if (!form) throw new Error('no form');
  return { account, form };
}

/** The account with the most rows of `table` (the seeded one), or `given` when the command line names one. */
export async function benchAccount(
  db: Db,
  table: typeof schema.verifications | typeof schema.verificationAttempts,
  given: string | undefined,
): Promise<number> {
  if (given) return Number(given);
  const [biggest] = await db
    .select({ accountId: table.accountId, n: count() })
    .from(table)
    .groupBy(table.accountId)
    .orderBy(desc(count()))
    .limit(1);
  if (!biggest) throw new Error('no rows to measure: run scripts/seed-verifications.ts first');
  return biggest.accountId;
}

/** A live API key with every scope for the account, as a row (as POST /api/api-keys makes one); its secret. */
export async function benchApiKey(db: Db, accountId: number): Promise<string> {
  const key = generateApiKey('live');
  await db.insert(schema.apiKeys).values({
    accountId,
    name: 'bench',
    mode: 'live',
    prefix: key.slice(0, API_KEY_PREFIX_LENGTH),
    secretHash: hashApiKey(key),
    scopes: [...apiKeyScopes],
  });
  return key;
}

/**
 * For a benchmark run beside another (scripts/bench-retention-load.ts): prints `ready` once its setup is done (the app
 * built, its data prepared), then waits for a line on stdin, so the work it times starts when the other's measured
 * window does, and its own start-up is not part of that window.
 */
export async function readyThenWaitForGo(): Promise<void> {
  console.log('ready');
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: process.stdin });
  await new Promise<void>((resolve) => lines.once('line', () => resolve()));
  lines.close();
}
