/**
 * Benchmark of the activity log, the dashboard report and the CSV export on seeded data (issue #6).
 *
 *     npx tsx scripts/seed-verifications.ts --database-url postgres://postgres@127.0.0.1:5432/veriform_bench \
 *       --verifications 1000000
 *     npx tsx scripts/bench-verifications.ts --database-url postgres://postgres@127.0.0.1:5432/veriform_bench \
 *       [--account 1] [--iterations 30] [--deep-page 5000] [--export-runs 3] [--only REGEX] [--no-export]
 *
 * Boots the app in-process exactly as production does (buildApp, NODE_ENV=production, the PostgreSQL pool) on that
 * database, logs an owner of the account in (a session row, as the login does), and calls every endpoint through
 * `app.inject`: each sort key both ways at page 1 and a deep page, with filters (form, method, last 30 days), with
 * search (phone, reference, form name), and the report for the last 30 days. Every call's SQL is recorded at the
 * node-postgres pool and then run again, alone, through the same pool: "raw SQL" is the database's share of the data
 * queries, the ratio what the app adds (session, validation, JSON); "all SQL" also replays the session lookup (which
 * brings the memberships), so its ratio is what the app adds in Node alone. The export is downloaded over a real socket by a client process of its own (so
 * the body is not kept in memory) and compared with PostgreSQL's own `COPY (same select) TO STDOUT WITH CSV`
 * (pg-copy-streams), with the process's RSS sampled during the download.
 */
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { VerificationFilter, VerificationSort } from '@veriform/contracts';
import { inlinedSql, schema } from '@veriform/db';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { buildApp } from '../apps/server/src/app.ts';
import { openDatabase } from '../apps/server/src/database.ts';
import { exportTuning } from '../apps/server/src/modules/verifications/export.ts';
import {
  resolveForms,
  verificationOrderBy,
  verificationWhere,
} from '../apps/server/src/modules/verifications/filters.ts';
import { ownerOf, requireDatabaseUrl, sessionCookie, timedGet } from './support/bench-app.ts';
import { benchConfig } from './support/bench-config.ts';
import { quantile } from './support/measure.ts';

const { values: args } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    account: { type: 'string' },
    iterations: { type: 'string', default: '30' },
    'deep-page': { type: 'string', default: '5000' },
    'export-runs': { type: 'string', default: '3' },
    /** Rows per export batch (default: the app's, exportTuning.batchSize). */
    'export-batch': { type: 'string' },
    /** Only the export (to try batch sizes quickly). */
    'export-only': { type: 'boolean', default: false },
    /** No export (to re-measure the list and report quickly). */
    'no-export': { type: 'boolean', default: false },
    /** Only the list, report and attempts cases whose name matches this regular expression. */
    only: { type: 'string' },
  },
});
const databaseUrl = requireDatabaseUrl(args['database-url']);
const iterations = Math.max(1, Number(args.iterations));
const deepPage = Math.max(2, Number(args['deep-page']));
const exportRuns = Math.max(1, Number(args['export-runs']));
if (args['export-batch']) exportTuning.batchSize = Math.max(1, Number(args['export-batch']));

const config = benchConfig(databaseUrl);
const database = openDatabase(config);
await database.migrate();
// Statistics for every index, expression indexes included: a migration that added one after the seeding (0005's
// lower(external_ref_id)) leaves the planner guessing, and it then walks the whole account for a search.
await database.executeSql('ANALYZE verifications');
await database.executeSql('ANALYZE verification_attempts');
await database.executeSql('ANALYZE verification_daily_counts');
await database.executeSql('ANALYZE verification_total_counts');
await database.executeSql('ANALYZE verification_attempt_daily_counts');
const { db } = database;
const only = args.only ? new RegExp(args.only) : null;
/** The machine is shared: every table says how busy it was. */
const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
// Drizzle keeps the node-postgres pool it was given as `$client`.
const pool = (db as unknown as { $client: pg.Pool }).$client;

// --- Recording the SQL the app sends -------------------------------------------------------------------------------

type Recorded = { text: string; values: unknown[]; rowMode?: string };
let recording: Recorded[] | null = null;
const originalQuery = pool.query.bind(pool) as (...a: unknown[]) => Promise<unknown>;
(pool as unknown as { query: (...a: unknown[]) => Promise<unknown> }).query = (...a: unknown[]) => {
  if (recording) {
    const [first, second] = a;
    if (typeof first === 'string')
      recording.push({ text: first, values: Array.isArray(second) ? second : [] });
    else if (first && typeof first === 'object' && 'text' in first) {
      const q = first as { text: string; values?: unknown[]; rowMode?: string };
      // Drizzle passes the parameters as the second argument, beside a config object.
      const values = q.values ?? (Array.isArray(second) ? second : []);
      recording.push({ text: q.text, values, ...(q.rowMode ? { rowMode: q.rowMode } : {}) });
    }
  }
  return originalQuery(...a);
};
/**
 * The endpoint's own data queries (sessions, memberships and pg-boss are the app's overhead, not "its SQL"), the list's
 * total from the daily counts included.
 */
const isDataQuery = (text: string) =>
  /"(verifications|verification_attempts|verify_forms|verification_daily_counts|verification_total_counts|verification_attempt_daily_counts|code_delivery_events|code_entries|form_page_views)"/.test(
    text,
  );
/** Every statement the call sends but pg-boss's: the data queries and the session lookup (which brings the memberships). */
const isCallQuery = (text: string) => isDataQuery(text) || /from "sessions"/.test(text);

// --- The account and a logged-in owner -----------------------------------------------------------------------------

let accountId: number;
if (args.account) accountId = Number(args.account);
else {
  const [biggest] = await db
    .select({ accountId: schema.verifications.accountId, n: count() })
    .from(schema.verifications)
    .groupBy(schema.verifications.accountId)
    .orderBy(desc(count()))
    .limit(1);
  if (!biggest) throw new Error('no verifications: run scripts/seed-verifications.ts first');
  accountId = biggest.accountId;
}
const owner = await ownerOf(db, accountId);
if (!owner) throw new Error(`account ${accountId} has no owner`);

const app = await buildApp(config, { db: database });
await app.ready();
const cookie = await sessionCookie(app, config, owner);

// --- Measuring -----------------------------------------------------------------------------------------------------

const ms = (n: number) => (n < 10 ? n.toFixed(1) : Math.round(n).toString());
const get = timedGet(app, 9);

async function callOnce(url: string): Promise<number> {
  return (await get(url, { cookie })).elapsed;
}

async function rawOnce(queries: Recorded[]): Promise<number> {
  const started = performance.now();
  for (const q of queries)
    await originalQuery({ text: q.text, values: q.values, ...(q.rowMode ? { rowMode: q.rowMode } : {}) });
  return performance.now() - started;
}

type Row = {
  name: string;
  median: number;
  p95: number;
  rawMedian: number;
  rawP95: number;
  /** Median of every statement of the call replayed (the session lookup too), one after the other. */
  allSqlMedian: number;
  sql: Recorded[];
};
const rows: Row[] = [];

async function bench(name: string, url: string): Promise<void> {
  if (only && !only.test(name)) return;
  recording = [];
  await callOnce(url); // warm-up, and the SQL it runs
  const sqlRun = recording.filter((q) => isDataQuery(q.text));
  const sqlAll = recording.filter((q) => isCallQuery(q.text));
  recording = null;
  await rawOnce(sqlRun);
  const times: number[] = [];
  const raw: number[] = [];
  const rawAll: number[] = [];
  for (let i = 0; i < iterations; i++) {
    times.push(await callOnce(url));
    raw.push(await rawOnce(sqlRun));
    rawAll.push(await rawOnce(sqlAll));
  }
  const row = {
    name,
    median: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    rawMedian: quantile(raw, 0.5),
    rawP95: quantile(raw, 0.95),
    allSqlMedian: quantile(rawAll, 0.5),
    sql: sqlRun,
  };
  rows.push(row);
  console.log(
    `${name.padEnd(52)} median ${ms(row.median).padStart(5)} ms  p95 ${ms(row.p95).padStart(5)} ms | raw SQL ` +
      `${ms(row.rawMedian).padStart(5)} / ${ms(row.rawP95).padStart(5)} ms | ×${(row.median / row.rawMedian).toFixed(2)}`,
  );
}

const base = `/api/verifications?account=${accountId}&tz=America%2FNew_York`;
const sortKeys = [
  'created',
  'cellPhone',
  'externalRefId',
  'verifyFormId',
  'verifyFormName',
  'verifyFormCategory',
];

// Values for the filters and the search, taken from the data.
const [bigForm] = await db
  .select({ id: schema.verifications.verifyFormId, name: schema.verifications.verifyFormName, n: count() })
  .from(schema.verifications)
  .where(eq(schema.verifications.accountId, accountId))
  .groupBy(schema.verifications.verifyFormId, schema.verifications.verifyFormName)
  .orderBy(desc(count()))
  .limit(1);
const [somePhone] = await db
  .select({ phone: schema.verifications.cellPhone, ref: schema.verifications.externalRefId })
  .from(schema.verifications)
  .where(and(eq(schema.verifications.accountId, accountId), sql`${schema.verifications.externalRefId} <> ''`))
  .orderBy(asc(schema.verifications.id))
  .offset(12_345)
  .limit(1);
if (!bigForm || !somePhone) throw new Error('not enough data');
const formWord = bigForm.name.split(' ')[0]?.toLowerCase() ?? 'loan';

console.log(`load average at the start: ${loadAverage()}`);
console.log(
  `account ${accountId}; ${iterations} iterations per case; deep page ${deepPage} (page size 10); ` +
    `form ${bigForm.id} "${bigForm.name}" (${bigForm.n} rows); phone ${somePhone.phone}; ref ${somePhone.ref}`,
);

for (const key of args['export-only'] ? [] : sortKeys) {
  for (const o of [key, `-${key}`]) {
    await bench(`list o=${o} page 1`, `${base}&o=${o}`);
    await bench(`list o=${o} page ${deepPage}`, `${base}&o=${o}&pageNumber=${deepPage}`);
  }
}
const filters: [string, string][] = [
  ['form', `verifyFormId__in=${bigForm.id}`],
  ['method sms', 'verificationMethod__in=sms'],
  ['last30d', 'created__date__preset=last30d'],
  [
    'form+sms+last30d',
    `verifyFormId__in=${bigForm.id}&verificationMethod__in=sms&created__date__preset=last30d`,
  ],
  // Issue #35: verifications whose consent a later revocation revoked (revocation_marks), and the rest.
  ['revoked', 'revoked=true'],
  ['not revoked', 'revoked=false'],
];
for (const [label, query] of args['export-only'] ? [] : filters) {
  for (const o of ['-created', 'verifyFormName']) {
    await bench(`list ${label} o=${o} page 1`, `${base}&${query}&o=${o}`);
    await bench(`list ${label} o=${o} page 500`, `${base}&${query}&o=${o}&pageNumber=500`);
  }
}
const searches: [string, string][] = [
  ['phone (E.164)', somePhone.phone],
  ['phone (last 4 digits)', somePhone.phone.slice(-4)],
  ['ref prefix', somePhone.ref.slice(0, -2)],
  [`form name "${formWord}"`, formWord],
];
if (!args['export-only']) {
  for (const [label, q] of searches) {
    await bench(`search ${label} page 1`, `${base}&q=${encodeURIComponent(q)}`);
  }
  await bench(
    `search form name "${formWord}" page 500`,
    `${base}&q=${encodeURIComponent(formWord)}&pageNumber=500`,
  );
  const report = `/api/verifications/report?account=${accountId}`;
  await bench('report last30d', `${report}&created__date__preset=last30d&tz=America%2FNew_York`);
  // A :30 zone: each local midnight cuts an hour, read from the rows (ADR 28).
  await bench('report last30d Asia/Kolkata', `${report}&created__date__preset=last30d&tz=Asia%2FKolkata`);
  await bench(
    'report last30d one form, sms',
    `${report}&created__date__preset=last30d&tz=America%2FNew_York&verificationMethod__in=sms&verifyFormId__in=${bigForm.id}`,
  );
  const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
  await bench(
    'report 366 days',
    `${report}&created__date__preset=custom&created__date__gte=${yearAgo}&tz=America%2FNew_York`,
  );
  await bench(
    'report last30d search',
    `${report}&created__date__preset=last30d&q=${encodeURIComponent(formWord)}`,
  );
  // The attempts view (issue #18 item 6): newest first only, its total a count of the matching attempts.
  const attempts = `/api/verification-attempts?account=${accountId}&tz=America%2FNew_York&pageSize=10`;
  await bench('attempts page 1', attempts);
  await bench(`attempts page ${deepPage}`, `${attempts}&pageNumber=${deepPage}`);
  await bench('attempts last30d page 1', `${attempts}&created__date__preset=last30d`);
  await bench('attempts deliveryStatus=unknown page 1', `${attempts}&deliveryStatus=unknown`);
}

// --- The export ----------------------------------------------------------------------------------------------------

await app.listen({ port: 0, host: '127.0.0.1' });
const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

/**
 * Downloads over a socket from a client process of its own, as a browser or a script would (counting bytes and lines
 * there): with the client in this process, the server's one thread also read the client's socket, 1 GB at 10M rows
 * (session 22: 14.1 s in-process, 12.4–13.3 s with a separate client). The RSS sampled meanwhile is the server's.
 */
function download(path: string): Promise<{ ms: number; rows: number; bytes: number; firstByteMs: number }> {
  const client = `
    const started = performance.now();
    let firstByteMs = 0, bytes = 0, lines = 0;
    require('node:http').get(process.argv[1], { headers: { cookie: process.argv[2] } }, (res) => {
      if (res.statusCode !== 200) { console.error('export: ' + res.statusCode); process.exit(1); }
      res.on('data', (chunk) => {
        if (!firstByteMs) firstByteMs = performance.now() - started;
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      res.on('end', () => console.log(JSON.stringify({ ms: performance.now() - started, rows: lines - 1, bytes, firstByteMs })));
    }).on('error', (error) => { console.error(error); process.exit(1); });`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', client, `${origin}${path}`, cookie], (error, stdout, stderr) => {
      if (error) reject(new Error(`download failed: ${stderr || error.message}`));
      else resolve(JSON.parse(stdout) as { ms: number; rows: number; bytes: number; firstByteMs: number });
    });
  });
}

/** COPY (the export's rows, same WHERE and ORDER BY, no batches) TO STDOUT WITH CSV, through the same pool. */
async function copyBaseline(filter: VerificationFilter, o: VerificationSort) {
  const now = new Date();
  const forms = await resolveForms(db, accountId, filter);
  const v = schema.verifications;
  const query = db
    .select({
      id: v.id,
      cellPhone: v.cellPhone,
      externalRefId: v.externalRefId,
      verifyFormId: v.verifyFormId,
      verifyFormName: v.verifyFormName,
      verifyFormCategory: v.verifyFormCategory,
      verificationMethod: v.verificationMethod,
      isTest: v.isTest,
      createdAt: v.createdAt,
    })
    .from(v)
    .where(verificationWhere(accountId, filter, now, forms))
    .orderBy(...verificationOrderBy(o));
  // COPY takes no parameters: the same inlining as the export's own COPY.
  const text = inlinedSql(query.getSQL());
  const client = await pool.connect();
  try {
    const started = performance.now();
    let bytes = 0;
    let lines = 0;
    await new Promise<void>((resolve, reject) => {
      const stream = client.query(copyTo(`COPY (${text}) TO STDOUT WITH CSV`));
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      stream.on('end', () => resolve());
      stream.on('error', reject);
    });
    return { ms: performance.now() - started, rows: lines, bytes, sql: text };
  } finally {
    client.release();
  }
}

type ExportRow = {
  name: string;
  rows: number;
  ms: number;
  firstByteMs: number;
  rowsPerSecond: number;
  copyMs: number;
  copyRowsPerSecond: number;
  rssGrowthMb: number;
  sql: string;
};
const exportRows: ExportRow[] = [];

async function benchExport(name: string, query: string, filter: VerificationFilter, o: VerificationSort) {
  if (args['no-export'] || (only && !only.test(name))) return;
  const runs: { ms: number; rows: number; firstByteMs: number; rss: number }[] = [];
  for (let i = 0; i < exportRuns; i++) {
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const result = await download(`/api/verifications/export-csv?account=${accountId}&${query}`);
    clearInterval(sampler);
    runs.push({ ...result, rss: (peak - before) / 1024 / 1024 });
  }
  const copies = [];
  for (let i = 0; i < exportRuns; i++) copies.push(await copyBaseline(filter, o));
  const best = quantile(
    runs.map((r) => r.ms),
    0.5,
  );
  const run = runs.find((r) => r.ms === best) ?? runs[0];
  const copyMs = quantile(
    copies.map((c) => c.ms),
    0.5,
  );
  if (!run || !copies[0]) throw new Error('no export run');
  const row: ExportRow = {
    name,
    rows: run.rows,
    ms: best,
    firstByteMs: run.firstByteMs,
    rowsPerSecond: run.rows / (best / 1000),
    copyMs,
    copyRowsPerSecond: (copies[0]?.rows ?? 0) / (copyMs / 1000),
    rssGrowthMb: Math.max(...runs.map((r) => r.rss)),
    sql: copies[0].sql,
  };
  exportRows.push(row);
  console.log(
    `${name.padEnd(52)} ${row.rows} rows in ${Math.round(row.ms)} ms (first byte ${ms(row.firstByteMs)} ms): ` +
      `${Math.round(row.rowsPerSecond)} rows/s | COPY ${Math.round(copyMs)} ms, ` +
      `${Math.round(row.copyRowsPerSecond)} rows/s | ×${(row.rowsPerSecond / row.copyRowsPerSecond).toFixed(2)} of COPY | ` +
      `RSS +${row.rssGrowthMb.toFixed(0)} MB (per run: ${runs.map((r) => `+${r.rss.toFixed(0)}`).join(', ')} MB)`,
  );
}

await benchExport(
  'export o=-created (whole account)',
  'o=-created&tz=America%2FNew_York',
  { created__date__preset: 'all', tz: 'America/New_York' },
  '-created',
);
await benchExport(
  'export last30d o=cellPhone',
  'o=cellPhone&created__date__preset=last30d&tz=America%2FNew_York',
  { created__date__preset: 'last30d', tz: 'America/New_York' },
  'cellPhone',
);
await benchExport(
  'export form o=verifyFormName',
  `o=verifyFormName&verifyFormId__in=${bigForm.id}&tz=America%2FNew_York`,
  { created__date__preset: 'all', verifyFormId__in: [bigForm.id], tz: 'America/New_York' },
  'verifyFormName',
);

// --- Report --------------------------------------------------------------------------------------------------------

console.log(`\nload average at the end: ${loadAverage()}`);

console.log(
  '\n| case | median | p95 | raw SQL median | raw SQL p95 | ratio | all SQL median (with the session) | ratio to all SQL |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows)
  console.log(
    `| ${r.name} | ${ms(r.median)} ms | ${ms(r.p95)} ms | ${ms(r.rawMedian)} ms | ${ms(r.rawP95)} ms | ` +
      `${(r.median / r.rawMedian).toFixed(2)} | ${ms(r.allSqlMedian)} ms | ${(r.median / r.allSqlMedian).toFixed(2)} |`,
  );
console.log(
  '\n| export | rows | time | first byte | rows/s | COPY time | COPY rows/s | share of COPY | RSS growth |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of exportRows)
  console.log(
    `| ${r.name} | ${r.rows} | ${Math.round(r.ms)} ms | ${ms(r.firstByteMs)} ms | ${Math.round(r.rowsPerSecond)} | ` +
      `${Math.round(r.copyMs)} ms | ${Math.round(r.copyRowsPerSecond)} | ${(r.rowsPerSecond / r.copyRowsPerSecond).toFixed(2)} | ` +
      `${r.rssGrowthMb.toFixed(0)} MB |`,
  );
console.log('\nSQL per case (parameters in brackets):');
for (const r of rows) {
  console.log(`\n${r.name}:`);
  for (const q of r.sql) console.log(`  ${q.text}  [${q.values.map((v) => JSON.stringify(v)).join(', ')}]`);
}
for (const r of exportRows) console.log(`\n${r.name} (COPY baseline):\n  COPY (${r.sql}) TO STDOUT WITH CSV`);

await app.close();
await database.close();
