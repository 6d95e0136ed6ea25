/**
 * Benchmark of the retention purge (issue #37 item 1, ADR 45) on PostgreSQL: one seeded account's evidence past its
 * policy removed in batches, timed per step, with rows a second.
 *
 *     node scripts/seed-verifications.ts --database-url postgres://postgres@127.0.0.1:5432/veriform_bench \
 *       --verifications 200000 --days 2400
 *     node scripts/bench-retention.ts --database-url postgres://postgres@127.0.0.1:5432/veriform_bench \
 *       --account 1 [--years 5] [--batch 5000]
 *
 * It purges for real (the rows are gone afterwards): seed again to run it again. Its batches are paced as the job's
 * are (BACKGROUND_PAUSE_FACTOR, 4 unless set; 0 runs them flat out). The load mix beside it
 * (scripts/load.ts) and the 10M-row partitioned measurements of issue #37 item 4 are a later slice.
 */
import { parseArgs } from 'node:util';
import { schema } from '@veriform/db';
import { and, count, eq, lt } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.ts';
import { openDatabase } from '../apps/server/src/database.ts';
import { PURGE_BATCH, purgeAccount, retentionCutoff } from '../apps/server/src/modules/retention/index.ts';
import { readyThenWaitForGo, requireDatabaseUrl } from './support/bench-app.ts';
import { benchConfig } from './support/bench-config.ts';

const { values: args } = parseArgs({
  options: {
    'wait-for-go': { type: 'boolean', default: false },
    'database-url': { type: 'string' },
    account: { type: 'string', default: '1' },
    years: { type: 'string', default: '5' },
    batch: { type: 'string', default: String(PURGE_BATCH) },
  },
});
const databaseUrl = requireDatabaseUrl(args['database-url']);
const accountId = Number(args.account);
const years = Number(args.years);
const batch = Number(args.batch);

const config = benchConfig(databaseUrl);
const database = openDatabase(config);
const app = await buildApp(config, { db: database });
const { db, clock, audit, pace } = app.services;
const { verifications } = schema;

const cutoff = retentionCutoff(clock.now(), years);
const [due] = await db
  .select({ n: count() })
  .from(verifications)
  .where(and(eq(verifications.accountId, accountId), lt(verifications.createdAt, cutoff)));
const [all] = await db
  .select({ n: count() })
  .from(verifications)
  .where(eq(verifications.accountId, accountId));
console.log(
  `account ${accountId}: ${all?.n ?? 0} verifications, ${due?.n ?? 0} created before ${cutoff.toISOString()} (${years} years); batches of ${batch}`,
);

if (args['wait-for-go']) await readyThenWaitForGo();
const started = performance.now();
const purge = await purgeAccount({ db, clock, audit, pace }, { accountId, years }, batch);
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify(purge.removed), `held ${purge.held}`);
const rows = Object.values(purge.removed).reduce((sum, n) => sum + n, 0);
console.log(
  `purged in ${seconds.toFixed(1)} s: ${Math.round(purge.removed.verifications / seconds)} verifications/s, ${Math.round(rows / seconds)} rows/s`,
);
await app.close();
await database.close();
