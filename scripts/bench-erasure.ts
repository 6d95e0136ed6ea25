/**
 * Benchmark of a data-subject erasure at scale (issue #37 item 4, ADR 47): one request whose identifiers match
 * `--matches` verifications (and their attempts) of a seeded account, carried out by the job's own code
 * (`privacyRequests.carryOutNow`), timed, on PostgreSQL.
 *
 *     node scripts/seed-verifications.ts --database-url postgres://postgres@127.0.0.1:5432/veriform_bench \
 *       --verifications 10000000 --days 2400
 *     node scripts/bench-erasure.ts --database-url postgres://postgres@127.0.0.1:5432/veriform_bench \
 *       --account 1 [--matches 10000]
 *
 * The seed gives every verification its own number, so the script first gives `--matches` of the account's recent
 * verifications (newest first, none a purge of the default policy would reach) one of 20 numbers (the most a request
 * may name), with their attempts, as one person who verified many times would have. It erases for real: seed again (or
 * copy a template database) to run it again. `scripts/bench-retention-load.ts` runs it beside the load mix.
 */
import { parseArgs } from 'node:util';
import { MAX_PRIVACY_REQUEST_IDENTIFIERS } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.ts';
import { openDatabase } from '../apps/server/src/database.ts';
import { rowsOf } from '../apps/server/src/lib/rows.ts';
import { readyThenWaitForGo, requireDatabaseUrl } from './support/bench-app.ts';
import { benchConfig } from './support/bench-config.ts';

const { values: args } = parseArgs({
  options: {
    'wait-for-go': { type: 'boolean', default: false },
    'database-url': { type: 'string' },
    account: { type: 'string', default: '1' },
    matches: { type: 'string', default: '10000' },
  },
});
const databaseUrl = requireDatabaseUrl(args['database-url']);
const accountId = Number(args.account);
const matches = Number(args.matches);
if (!Number.isInteger(accountId) || !Number.isInteger(matches) || matches < 1)
  throw new Error('--account and --matches must be positive integers');

const config = benchConfig(databaseUrl);
const database = openDatabase(config);
const app = await buildApp(config, { db: database });
const { db, privacyRequests, clock } = app.services;

/** 20 numbers of the fictional 555-01xx range, one person's: the most one request names. */
const phones = Array.from(
  { length: MAX_PRIVACY_REQUEST_IDENTIFIERS },
  (_, i) => `+1201555${String(1000 + i).padStart(4, '0')}`,
);
const phoneArray = sql`array[${sql.join(
  phones.map((phone) => sql`${phone}`),
  sql`, `,
)}]::text[]`;
const prepared = performance.now();
await db.execute(sql`
  with chosen as (
    select id, row_number() over (order by created_at desc, id desc) as n
    from ${schema.verifications}
    where account_id = ${accountId} and not is_test and redacted_at is null
    order by created_at desc, id desc
    limit ${matches}
  ), renumbered as (
    update ${schema.verifications} v
    set cell_phone = (${phoneArray})[1 + (chosen.n % ${phones.length})]
    from chosen where v.id = chosen.id
    returning v.id, v.cell_phone
  )
  update ${schema.verificationAttempts} a set cell_phone = renumbered.cell_phone
  from renumbered where a.verification_id = renumbered.id`);
const [matched] = rowsOf(
  await db.execute(sql`select count(*)::int as n from ${schema.verifications}
    where account_id = ${accountId} and cell_phone = any(${phoneArray})`),
);
console.log(
  `account ${accountId}: ${matched?.n ?? 0} verifications now name ${phones.length} numbers (prepared in ${(
    (performance.now() - prepared) / 1000
  ).toFixed(1)} s)`,
);

// Filed as the API would file it, then moved to `running` as the carry-out call does; the job's work runs here.
const id = `dsr_bench${Date.now().toString(36)}`;
const now = clock.now();
await db.insert(schema.privacyRequests).values({
  id,
  accountId,
  type: 'erasure',
  law: 'ccpa',
  status: 'running',
  runningSince: now,
  phones,
  requesterName: 'Bench requester',
  receivedAt: now,
  dueAt: new Date(now.getTime() + 45 * 24 * 60 * 60 * 1000),
  filedBy: 'bench',
});
if (args['wait-for-go']) await readyThenWaitForGo();
const started = performance.now();
// Stopped before it is done (bench-retention-load.ts stops it at its window's end): how far it got, from the count each
// redaction adds in its own transaction.
process.once('SIGTERM', () => {
  const seconds = (performance.now() - started) / 1000;
  void db
    .select({ erased: schema.privacyRequests.erasedSoFar })
    .from(schema.privacyRequests)
    .where(eq(schema.privacyRequests.id, id))
    .then(([stopped]) => {
      const erased = stopped?.erased ?? 0;
      console.log(
        `stopped: erased ${erased} verifications in ${seconds.toFixed(1)} s (${(erased / seconds).toFixed(1)} a second)`,
      );
      process.exit(0);
    });
});
const outcome = await privacyRequests.carryOutNow(id);
const seconds = (performance.now() - started) / 1000;
const [row] = await db
  .select({ answer: schema.privacyRequests.answer })
  .from(schema.privacyRequests)
  .where(eq(schema.privacyRequests.id, id));
const erased = Number(row?.answer?.erased ?? 0);
console.log(
  `${outcome}: erased ${erased} verifications in ${seconds.toFixed(1)} s (${Math.round(erased / seconds)} a second)`,
);
console.log(JSON.stringify(row?.answer ?? null));
await app.close();
await database.close();
