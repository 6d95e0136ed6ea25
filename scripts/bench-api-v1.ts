/**
 * Benchmark of API v1's verification list at a million rows (issue #15), against the raw SQL it sends.
 *
 *     node scripts/seed-verifications.ts --database-url postgres://postgres@127.0.0.1:5432/veriform_bench \
 *       --verifications 1000000
 *     node scripts/bench-api-v1.ts --database-url postgres://postgres@127.0.0.1:5432/veriform_bench \
 *       [--account 1] [--iterations 30] [--walk 100]
 *
 * Boots the app in-process as production does (buildApp, NODE_ENV=production, the PostgreSQL pool), gives the account
 * an API key with every scope (a row, as POST /api/api-keys makes one), and calls `GET /api/v1/verifications` through
 * `app.inject` with the key: the first page, filters, and pages deep in the list reached by following `nextCursor`.
 * Each call's SQL is recorded at the pool and replayed alone through it: "raw SQL" is the database's share (the key
 * lookup included, which every API call makes), the ratio what the app adds (auth, validation, mapping, JSON).
 * Then the same rows through the session API the web app uses (issue #20: API v1 should page as fast): the attempts
 * view and the activity log, 100 a page, first and deep (an OFFSET there, a cursor in API v1), with a logged-in owner.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { schema } from '@veriform/db';
import { count, desc, eq, ne } from 'drizzle-orm';
import type pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { openDatabase } from '../apps/server/src/database.ts';
import {
  benchAccount,
  benchApiKey,
  ownerOf,
  requireDatabaseUrl,
  sessionCookie,
  timedGet,
} from './support/bench-app.ts';
import { benchConfig } from './support/bench-config.ts';
import { ms, quantile, sqlRecorder } from './support/measure.ts';

const { values: args } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    account: { type: 'string' },
    iterations: { type: 'string', default: '30' },
    /** Pages of 100 followed by cursor before the "deep" cases are measured. */
    walk: { type: 'string', default: '100' },
  },
});
const databaseUrl = requireDatabaseUrl(args['database-url']);
const iterations = Math.max(1, Number(args.iterations));
const walk = Math.max(1, Number(args.walk));

const config = {
  ...benchConfig(databaseUrl),
  // The per-key request limit is not what is measured.
  apiKeyRateLimit: { requests: 1_000_000_000, windowSeconds: 1 },
};
const database = openDatabase(config);
await database.migrate();
await database.executeSql('ANALYZE verification_attempts');
await database.executeSql('ANALYZE api_keys');
await database.executeSql('ANALYZE verification_attempt_daily_counts');
const { db } = database;
const pool = (db as unknown as { $client: pg.Pool }).$client;

const sql = sqlRecorder(pool);
/** The call's own statements: the key lookup and the list (pg-boss's polling is not the call's). */
const isCallQuery = (text: string) => /"(verification_attempts|api_keys)"/.test(text);

const accountId = await benchAccount(db, schema.verificationAttempts, args.account);
const [{ n: rowsInAccount } = { n: 0 }] = await db
  .select({ n: count() })
  .from(schema.verificationAttempts)
  .where(eq(schema.verificationAttempts.accountId, accountId));

const key = await benchApiKey(db, accountId);

const app = await buildApp(config, { db: database });
await app.ready();

/** API v1's page, or the session API's (`results`). */
type Page = { data?: { id: string }[]; results?: { id: string | number }[]; nextCursor?: string | null };

const get = timedGet(app, 9);

/** The session cookie for the session-API cases (set below); API v1 calls go with the key. */
let cookie: string | null = null;

async function call(url: string): Promise<{ elapsed: number; page: Page }> {
  const headers: Record<string, string> =
    url.startsWith('/api/v1/') || !cookie ? { authorization: `Bearer ${key}` } : { cookie };
  const { elapsed, response } = await get(url, headers);
  return { elapsed, page: response.json<Page>() };
}

async function bench(name: string, url: string, isOwn = isCallQuery): Promise<void> {
  sql.start();
  const { page } = await call(url);
  const sqlRun = sql.stop().filter((q) => isOwn(q.text));
  const times: number[] = [];
  const raw: number[] = [];
  for (let i = 0; i < iterations; i++) {
    times.push((await call(url)).elapsed);
    raw.push(await sql.replay(sqlRun));
  }
  const median = quantile(times, 0.5);
  const rawMedian = quantile(raw, 0.5);
  console.log(
    `${name.padEnd(50)} ${String((page.data ?? page.results ?? []).length).padStart(3)} rows | median ${ms(median).padStart(6)} ms  p95 ` +
      `${ms(quantile(times, 0.95)).padStart(6)} ms | raw SQL ${ms(rawMedian).padStart(6)} / ` +
      `${ms(quantile(raw, 0.95)).padStart(6)} ms (${sqlRun.length} statements) | ×${(median / rawMedian).toFixed(2)}`,
  );
}

console.log(
  `account ${accountId}: ${rowsInAccount} verification attempts; ${iterations} iterations per case; ` +
    `load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}\n`,
);
const base = '/api/v1/verifications';
const [form] = await db
  .select({ id: schema.verifyForms.id })
  .from(schema.verifyForms)
  .where(eq(schema.verifyForms.accountId, accountId))
  .limit(1);
const [withRef] = await db
  .select({ ref: schema.verificationAttempts.externalRefId })
  .from(schema.verificationAttempts)
  .where(eq(schema.verificationAttempts.accountId, accountId))
  .orderBy(desc(schema.verificationAttempts.createdAt))
  .limit(1)
  .offset(5000);
const [anyRef] = await db
  .select({ ref: schema.verificationAttempts.externalRefId })
  .from(schema.verificationAttempts)
  .where(ne(schema.verificationAttempts.externalRefId, ''))
  .limit(1);
const ref = withRef?.ref || anyRef?.ref || 'none';
const monthAgo = new Date(Date.now() - 30 * 24 * 3600 * 1000).toISOString();

await bench('first page, limit 20', `${base}?limit=20`);
await bench('first page, limit 100', `${base}?limit=100`);
await bench('status=approved, limit 100', `${base}?limit=100&status=approved`);
await bench('status=max_attempts, limit 100', `${base}?limit=100&status=max_attempts`);
await bench('formId, limit 100', `${base}?limit=100&formId=${form?.id ?? 1}`);
await bench(
  'externalRefId (one lead), limit 100',
  `${base}?limit=100&externalRefId=${encodeURIComponent(ref)}`,
);
await bench('created[gte] 30 days ago, limit 100', `${base}?limit=100&created%5Bgte%5D=${monthAgo}`);

// Deep: follow nextCursor `walk` pages of 100, timing each step, then measure the page there.
let cursor: string | null = null;
const steps: number[] = [];
for (let i = 0; i < walk; i++) {
  const url: string = `${base}?limit=100${cursor ? `&startingAfter=${cursor}` : ''}`;
  const { elapsed, page } = await call(url);
  steps.push(elapsed);
  cursor = page.nextCursor ?? null;
  if (!cursor) break;
}
console.log(
  `\nwalking ${steps.length} pages of 100 by cursor: median ${ms(quantile(steps, 0.5))} ms, p95 ` +
    `${ms(quantile(steps, 0.95))} ms, last ${ms(steps.at(-1) ?? 0)} ms`,
);
if (cursor)
  await bench(
    `page ${walk + 1} (row ${walk * 100 + 1}…), limit 100`,
    `${base}?limit=100&startingAfter=${cursor}`,
  );

// The same rows through the session API (a logged-in owner), 100 a page: its SQL is the session lookup and the list's.
const owner = await ownerOf(db, accountId);
if (owner) {
  cookie = await sessionCookie(app, config, owner);
  const isSessionCall = (text: string) =>
    /"(sessions|verification_attempts|verifications|verify_forms|verification_daily_counts|verification_total_counts|verification_attempt_daily_counts|code_delivery_events|code_entries)"/.test(
      text,
    );
  const attempts = `/api/verification-attempts?account=${accountId}&tz=UTC&pageSize=100`;
  const log = `/api/verifications?account=${accountId}&tz=UTC&pageSize=100`;
  console.log('\nthe session API, 100 a page:');
  await bench('session attempts, page 1', attempts, isSessionCall);
  await bench(`session attempts, page ${walk + 1}`, `${attempts}&pageNumber=${walk + 1}`, isSessionCall);
  await bench('session activity log, page 1', log, isSessionCall);
  await bench(`session activity log, page ${walk + 1}`, `${log}&pageNumber=${walk + 1}`, isSessionCall);
}
console.log(
  `\nload average at the end: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);

await app.close();
