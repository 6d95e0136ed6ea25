/**
 * Benchmark of the reassigned-number checks (issue #36 item 2, ADR 43) against the Twilio stand-in, which answers at
 * once: what the app adds to a verdict that makes its due check, one that reuses it, a batch of 1,000 whose due checks
 * go 8 at once within the verdict's wait, and the daily sweep's rate.
 *
 *     node scripts/seed-verifications.ts --database-url postgres://postgres@127.0.0.1:5432/veriform_bench \
 *       --verifications 1000000
 *     node scripts/bench-reassignment-checks.ts --database-url postgres://postgres@127.0.0.1:5432/veriform_bench \
 *       [--account 1] [--iterations 100] [--batches 3] [--batch-size 1000] [--sweep 2000] [--provider-ms 250] [--sweep-per-second 10]
 *
 * Boots the app in-process as production does (buildApp, NODE_ENV=production, the PostgreSQL pool) with its Twilio
 * client pointed at the stand-in (test-support/twilio.ts, on loopback), turns the account's checks on with a ceiling
 * past what the run asks, and turns them off again at the end (the checks made are kept: a later run finds those
 * numbers checked). The numbers asked about are live verified ones never checked, sampled: each verdict's note
 * (`made`, `reused`, `not_due` for a consent too old or revoked…) is counted beside its time. `--sweep N` runs the
 * scheduled sweep with the ceiling raised by N only (it stops there), and reports its checks per second.
 * Whether the checks cost a verdict anything when the setting is off is bench-contactability.ts' to say.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { type ContactabilityVerdict, LOOKUP_MONTHLY_CEILING } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { buildApp } from '../apps/server/src/app.ts';
import { openDatabase } from '../apps/server/src/database.ts';
import { e164Of } from '../apps/server/src/domain/phone.ts';
import { checkReassignedNumbers } from '../apps/server/src/modules/contactability/index.ts';
import { startTwilioStandIn } from '../apps/server/src/test-support/twilio.ts';
import { benchAccount, benchApiKey, requireDatabaseUrl } from './support/bench-app.ts';
import { benchConfig } from './support/bench-config.ts';
import { ms, quantile } from './support/measure.ts';

const { values: args } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    account: { type: 'string' },
    iterations: { type: 'string', default: '100' },
    batches: { type: 'string', default: '3' },
    'batch-size': { type: 'string', default: '1000' },
    sweep: { type: 'string', default: '0' },
    // How long the stand-in takes to answer each lookup, as Twilio's network and carrier do (0: at once).
    'provider-ms': { type: 'string', default: '0' },
    // The sweep's pace, checks per second (0: unpaced; the app's is config reassignmentSweepChecksPerSecond).
    'sweep-per-second': { type: 'string', default: '0' },
  },
});
const databaseUrl = requireDatabaseUrl(args['database-url']);
const iterations = Math.max(1, Number(args.iterations));
const batches = Math.max(0, Number(args.batches));
const batchSize = Math.min(1000, Math.max(1, Number(args['batch-size'])));
const batchName = `batch of ${batchSize.toLocaleString('en')}, checks due`;
const sweepChecks = Math.max(0, Number(args.sweep));

const standIn = await startTwilioStandIn();
standIn.slowMs = 0;
standIn.lookupLatencyMs = Math.max(0, Number(args['provider-ms']));
const { TWILIO_API_URL: standInUrl, ...twilioEnv } = standIn.env();
const production = benchConfig(databaseUrl, twilioEnv);
if (!production.twilio) throw new Error('the stand-in gave no Twilio settings');
const config = {
  ...production,
  // Production refuses TWILIO_API_URL (a stand-in is for tests and development): the benchmark alone points its
  // production configuration's Twilio client at the stand-in on loopback.
  twilio: { ...production.twilio, apiUrl: standInUrl },
  // The per-key request limit is not what is measured.
  apiKeyRateLimit: { requests: 1_000_000_000, windowSeconds: 1 },
};
const database = openDatabase(config);
await database.migrate();
const { db, executeSql } = database;
const accountId = await benchAccount(db, schema.verifications, args.account);
const key = await benchApiKey(db, accountId);

/** The account's checks on or off, its ceiling `ceiling` (lookup_settings, as the owners' PATCH writes it). */
async function setChecks(on: boolean, ceiling: number | null) {
  await executeSql(
    `INSERT INTO lookup_settings (account_id, reassigned_checks, ceiling_reassigned) VALUES ($1, $2, $3)
     ON CONFLICT (account_id) DO UPDATE SET reassigned_checks = $2, ceiling_reassigned = $3`,
    [accountId, on, ceiling ?? 1000],
  );
}
const { rows: before } = await executeSql(
  'SELECT reassigned_checks, ceiling_reassigned FROM lookup_settings WHERE account_id = $1',
  [accountId],
);
const previous = before[0] as { reassigned_checks: boolean; ceiling_reassigned: number } | undefined;
const usedThisMonth = async () => {
  const { rows } = await executeSql(
    `SELECT coalesce(sum(asked), 0)::int AS n FROM lookup_usage
     WHERE account_id = $1 AND kind = 'reassigned' AND month = date_trunc('month', now() AT TIME ZONE 'UTC')::date`,
    [accountId],
  );
  return Number((rows[0] as { n: number } | undefined)?.n ?? 0);
};

// Live numbers verified by text and never checked, newest verification of their number or not (the verdict decides);
// a random sample (a scan of the account's rows: a second or two at a million).
const { rows: sampled } = await executeSql(
  `SELECT v.cell_phone FROM verifications v
   WHERE v.account_id = $1 AND NOT v.is_test AND v.verification_method = 'sms' AND v.cell_phone LIKE '+1%'
     AND v.verified_at IS NOT NULL AND v.redacted_at IS NULL
     AND NOT EXISTS (SELECT 1 FROM verification_attempts a JOIN reassignment_checks rc ON rc.attempt_id = a.id
                     WHERE a.verification_id = v.id)
   ORDER BY random() LIMIT $2`,
  // Three times what is asked: some seeded numbers are no valid US numbers (the API refuses them).
  [accountId, 3 * (iterations + batches * batchSize)],
);
const fresh = [
  ...new Set((sampled as { cell_phone: string }[]).map((r) => r.cell_phone).filter((p) => e164Of(p) === p)),
];
const take = (n: number) => fresh.splice(0, n);

const app = await buildApp(config, { db: database });
await app.ready();
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const notes = new Map<string, Map<string, number>>();
const tally = (name: string, verdicts: ContactabilityVerdict[]) => {
  const counts = notes.get(name) ?? new Map<string, number>();
  for (const v of verdicts)
    counts.set(v.reassignmentCheck ?? 'null', (counts.get(v.reassignmentCheck ?? 'null') ?? 0) + 1);
  notes.set(name, counts);
};

async function timed<T>(name: string, run: () => Promise<T[]>): Promise<number> {
  const started = performance.now();
  const verdicts = (await run()) as ContactabilityVerdict[];
  const elapsed = performance.now() - started;
  tally(name, verdicts);
  return elapsed;
}

async function single(phone: string): Promise<ContactabilityVerdict[]> {
  const response = await app.inject({
    method: 'GET',
    url: `/api/v1/contactability?phone=${encodeURIComponent(phone)}&purpose=informational`,
    headers,
  });
  if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${response.body.slice(0, 300)}`);
  return [response.json<ContactabilityVerdict>()];
}

async function batch(phones: string[]): Promise<ContactabilityVerdict[]> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/contactability',
    headers,
    payload: JSON.stringify({ checks: phones.map((phone) => ({ phone, purpose: 'informational' })) }),
  });
  if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${response.body.slice(0, 300)}`);
  return response.json<{ results: ContactabilityVerdict[] }>().results;
}

const report = (name: string, times: number[]) => {
  const counts = [...(notes.get(name) ?? new Map<string, number>())]
    .map(([note, n]) => `${note} ${n}`)
    .join(', ');
  console.log(
    `${name.padEnd(32)} n ${String(times.length).padStart(4)}  median ${ms(quantile(times, 0.5)).padStart(7)} ms  ` +
      `p95 ${ms(quantile(times, 0.95)).padStart(7)} ms | ${counts}`,
  );
};

console.log(
  `account ${accountId}: ${fresh.length} unchecked numbers sampled; load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}\n`,
);
try {
  // The settings' highest ceiling (1,000,000): past what a run asks.
  await setChecks(true, LOOKUP_MONTHLY_CEILING.max);
  const singles = take(iterations);
  const due: number[] = [];
  for (const phone of singles) due.push(await timed('single verdict, check due', () => single(phone)));
  report('single verdict, check due', due);
  const reused: number[] = [];
  for (const phone of singles) reused.push(await timed('single verdict, check reused', () => single(phone)));
  report('single verdict, check reused', reused);
  const batchTimes: number[] = [];
  for (let i = 0; i < batches; i++) {
    const phones = take(batchSize);
    if (phones.length < batchSize) break;
    batchTimes.push(await timed(batchName, () => batch(phones)));
  }
  if (batchTimes.length > 0) report(batchName, batchTimes);
  if (sweepChecks > 0) {
    await setChecks(true, Math.min(LOOKUP_MONTHLY_CEILING.max, (await usedThisMonth()) + sweepChecks));
    const started = performance.now();
    const swept = await checkReassignedNumbers({
      db,
      clock: app.services.clock,
      reassignmentChecks: app.services.reassignmentChecks,
      log: app.log,
      checksPerSecond: Number(args['sweep-per-second']) || undefined,
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `sweep: ${swept.checked} checked, ${swept.failed} failed, stopped at the ceiling: ${swept.stoppedAtCeiling > 0} ` +
        `in ${seconds.toFixed(1)} s (${(swept.checked / seconds).toFixed(1)} checks/s)`,
    );
  }
  console.log(`\nthe stand-in answered ${standIn.lookups.length} lookups`);
} finally {
  await setChecks(previous?.reassigned_checks ?? false, previous?.ceiling_reassigned ?? null);
  await app.close();
  await database.close();
  await standIn.close();
}
