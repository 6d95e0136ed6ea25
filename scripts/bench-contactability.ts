/**
 * Benchmark of the contactability verdict (issue #35): a single `GET /api/v1/contactability` and a batch of 1,000
 * (`POST`) at a million verifications and 100,000 revocations in one account, against the raw SQL they send.
 *
 *     node scripts/seed-verifications.ts --database-url postgres://postgres@127.0.0.1:5432/veriform_bench \
 *       --verifications 1000000
 *     node scripts/bench-contactability.ts --database-url postgres://postgres@127.0.0.1:5432/veriform_bench \
 *       [--account 1] [--revocations 100000] [--iterations 300] [--batches 20]
 *
 * Boots the app in-process as production does (buildApp, NODE_ENV=production, the PostgreSQL pool), gives the
 * account an API key with every scope, and tops its revocations up to `--revocations` (half of them of numbers the
 * account verified, received after a random one of their verifications; the rest of other numbers). The numbers asked
 * about are half verified ones (so each verdict walks a verification, its attempt, its certificate and the first
 * revocation since) and half never seen. Each call's statements are recorded at the pool and replayed alone: "raw
 * SQL" is the database's share (the key lookup and the verdicts' insert included), the ratio what the app adds.
 * Targets (issue #35): single p95 ≤ 20 ms, a batch of 1,000 ≤ 500 ms.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { schema } from '@veriform/db';
import { count, eq } from 'drizzle-orm';
import type pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { openDatabase } from '../apps/server/src/database.ts';
import { e164Of } from '../apps/server/src/domain/phone.ts';
import { benchAccount, benchApiKey, requireDatabaseUrl } from './support/bench-app.ts';
import { benchConfig } from './support/bench-config.ts';
import { ms, quantile, sqlRecorder } from './support/measure.ts';

const { values: args } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    account: { type: 'string' },
    revocations: { type: 'string', default: '100000' },
    iterations: { type: 'string', default: '300' },
    batches: { type: 'string', default: '20' },
  },
});
const databaseUrl = requireDatabaseUrl(args['database-url']);
const wantedRevocations = Math.max(0, Number(args.revocations));
const iterations = Math.max(1, Number(args.iterations));
const batches = Math.max(1, Number(args.batches));

const config = {
  ...benchConfig(databaseUrl),
  // The per-key request limit is not what is measured.
  apiKeyRateLimit: { requests: 1_000_000_000, windowSeconds: 1 },
};
const database = openDatabase(config);
await database.migrate();
const { db, executeSql } = database;
const pool = (db as unknown as { $client: pg.Pool }).$client;

const accountId = await benchAccount(db, schema.verifications, args.account);
const [{ n: verificationsInAccount } = { n: 0 }] = await db
  .select({ n: count() })
  .from(schema.verifications)
  .where(eq(schema.verifications.accountId, accountId));

// Revocations up to the wanted number: half of verified numbers (after one of their verifications), half of others.
const [{ n: had } = { n: 0 }] = await db
  .select({ n: count() })
  .from(schema.revocations)
  .where(eq(schema.revocations.accountId, accountId));
const missing = wantedRevocations - had;
if (missing > 0) {
  const started = performance.now();
  await executeSql(
    `INSERT INTO revocations (id, account_id, channel, via, phone, status, received_at, deadline, is_test)
     SELECT 'bench' || md5(random()::text || r.g), $1, 'api', 'other', v.cell_phone,
            CASE WHEN random() < 0.5 THEN 'open' ELSE 'acknowledged' END,
            least(now(), v.verified_at + random() * interval '90 days'), current_date + 14, v.is_test
     FROM (SELECT g, (SELECT min(id) FROM verifications WHERE account_id = $1) + floor(random() * $3::bigint)::bigint AS vid
           FROM generate_series(1, $2::int) g) r
     JOIN verifications v ON v.id = r.vid AND v.account_id = $1`,
    [accountId, Math.ceil(missing / 2), verificationsInAccount],
  );
  await executeSql(
    `INSERT INTO revocations (id, account_id, channel, via, phone, status, received_at, deadline)
     SELECT 'bench' || md5(random()::text || g), $1, 'api', 'other',
            '+1' || (201 + floor(random() * 780))::int::text || lpad(floor(random() * 1e7)::int::text, 7, '0'),
            'open', now() - random() * interval '700 days', current_date + 14
     FROM generate_series(1, $2::int) g`,
    [accountId, Math.floor(missing / 2)],
  );
  console.log(`seeded ${missing} revocations in ${ms(performance.now() - started)} ms`);
}
await executeSql('ANALYZE revocations');
await executeSql('ANALYZE verifications');
await executeSql('ANALYZE verification_attempts');
const [{ n: revocationsInAccount } = { n: 0 }] = await db
  .select({ n: count() })
  .from(schema.revocations)
  .where(eq(schema.revocations.accountId, accountId));

const key = await benchApiKey(db, accountId);

// The numbers asked about: live verified ones (a random sample) and as many never seen.
const { rows: sampled } = await executeSql(
  `SELECT cell_phone FROM verifications TABLESAMPLE SYSTEM (1)
   WHERE account_id = $1 AND NOT is_test AND cell_phone LIKE '+1%' LIMIT 2000`,
  [accountId],
);
// Only numbers the API reads as valid (the seed draws some area codes and exchanges that do not exist).
const verified = (sampled as { cell_phone: string }[])
  .map((row) => row.cell_phone)
  .filter((phone) => e164Of(phone) === phone);
const unknown = Array.from(
  { length: verified.length },
  (_, i) => `+1415${200 + (i % 700)}${String(i % 10_000).padStart(4, '0')}`,
);
const phones = verified.flatMap((phone, i) => [phone, unknown[i] ?? phone]);
if (phones.length < 1000) throw new Error(`only ${verified.length} verified US numbers sampled; seed more`);

const app = await buildApp(config, { db: database });
await app.ready();
const sql = sqlRecorder(pool);
const isCallQuery = (text: string) => /"?(contactability_checks|api_keys|accounts)"?|unnest/.test(text);
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

async function timed(run: () => Promise<{ statusCode: number; body: string }>): Promise<number> {
  const started = performance.now();
  const response = await run();
  const elapsed = performance.now() - started;
  if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${response.body.slice(0, 300)}`);
  return elapsed;
}

async function bench(
  name: string,
  run: (i: number) => Promise<{ statusCode: number; body: string }>,
  n: number,
) {
  sql.start();
  await timed(() => run(0));
  const statements = sql.stop().filter((q) => isCallQuery(q.text));
  const times: number[] = [];
  const raw: number[] = [];
  for (let i = 1; i <= n; i++) {
    times.push(await timed(() => run(i)));
    raw.push(await sql.replay(statements));
  }
  const median = quantile(times, 0.5);
  const rawMedian = quantile(raw, 0.5);
  console.log(
    `${name.padEnd(34)} median ${ms(median).padStart(6)} ms  p95 ${ms(quantile(times, 0.95)).padStart(6)} ms | ` +
      `raw SQL ${ms(rawMedian).padStart(6)} / ${ms(quantile(raw, 0.95)).padStart(6)} ms (${statements.length} statements) | ` +
      `×${(median / rawMedian).toFixed(2)}`,
  );
  return quantile(times, 0.95);
}

console.log(
  `account ${accountId}: ${verificationsInAccount} verifications, ${revocationsInAccount} revocations; ` +
    `load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}\n`,
);
const single = await bench(
  'single verdict (GET)',
  (i) =>
    app.inject({
      method: 'GET',
      url: `/api/v1/contactability?phone=${encodeURIComponent(phones[i % phones.length] ?? '')}`,
      headers,
    }),
  iterations,
);
const checks = phones.slice(0, 1000).map((phone) => ({ phone }));
const batch = await bench(
  'batch of 1,000 (POST)',
  () =>
    app.inject({
      method: 'POST',
      url: '/api/v1/contactability',
      headers,
      payload: JSON.stringify({ checks }),
    }),
  batches,
);
console.log(
  `\ntargets: single p95 ${ms(single)} ms of 20 (${(single / 20).toFixed(2)}×), batch p95 ${ms(batch)} ms of 500 (${(batch / 500).toFixed(2)}×)`,
);
await app.close();
await database.close();
