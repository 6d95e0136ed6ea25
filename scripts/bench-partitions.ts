/**
 * What partitioning the evidence by month would cost the living and save the purge (issue #37 item 4, ADR 51), on
 * PostgreSQL, in a scratch database of its own: the same rows as one table and as monthly partitions, by the two keys
 * that could carry the month — `created_at` (the primary key then has to include it, and every foreign key too) and
 * a time-ordered `id` (the month in its high bits, with a CHECK on each partition's `created_at` range so the planner
 * can still exclude partitions by date) — and, per layout:
 *
 * - a detail's read by id (`where id = $1`, as the app's detail, certificate and redaction ask it),
 * - a page of the activity log (`account_id = $1 and created_at in a range order by created_at desc, id desc limit
 *   50`), and the same without a date range,
 * - removing one month: batched deletes (5,000 rows a statement, as the purge) against dropping the partition.
 *
 *     node scripts/bench-partitions.ts --database-url postgres://postgres@127.0.0.1:5432/postgres \
 *       [--rows 2000000] [--months 121] [--seconds 5]
 *
 * Statements go through `pg` with parameters (the extended protocol, an unnamed statement each time, planned with
 * the values as the app's driver does). Prints each query's mean latency per layout and its ratio to the plain table.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    rows: { type: 'string', default: '2000000' },
    months: { type: 'string', default: '121' },
    seconds: { type: 'string', default: '5' },
  },
});
const serverUrl = args['database-url'] ?? process.env.DATABASE_URL;
if (!serverUrl) throw new Error('--database-url (a PostgreSQL server) is required');
const rows = Number(args.rows);
const months = Number(args.months);
const seconds = Number(args.seconds);

const scratch = `vf_partitions_${randomBytes(4).toString('hex')}`;
function urlOf(database: string): string {
  const url = new URL(serverUrl as string);
  url.pathname = `/${database}`;
  return url.toString();
}
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`create database ${scratch}`);
const client = new pg.Client({ connectionString: urlOf(scratch) });
await client.connect();

/** The first month's start; row g is spread evenly over `months` months from it. */
const START = '2016-12-01';
/** A month's index in the id's high bits (2^40 ids a month). */
const MONTH_BITS = 40;

try {
  const setup = performance.now();
  await client.query(`create table plain (id bigint primary key, account_id int not null, created_at timestamptz not null,
      payload text)`);
  await client.query(
    `insert into plain
     select (month::bigint << ${MONTH_BITS}) | g, 1 + g % 50, t, md5(g::text)
     from (select g, t, (extract(year from t)::int - 2016) * 12 + extract(month from t)::int - 12 as month
           from (select g, timestamptz '${START}' + (g::float8 / $1) * ($2 * interval '30 days') as t
                 from generate_series(1, $1) g) s) s2`,
    [rows, months],
  );
  await client.query('create index on plain (account_id, created_at, id)');
  await client.query(`create table by_time (id bigint not null, account_id int not null, created_at timestamptz not null,
      payload text, primary key (id, created_at)) partition by range (created_at)`);
  await client.query(`create table by_id (id bigint primary key, account_id int not null, created_at timestamptz not null,
      payload text) partition by range (id)`);
  const [last] = (
    await client.query<{ month: number }>(`select max(id >> ${MONTH_BITS})::int as month from plain`)
  ).rows;
  for (let m = 0; m <= (last?.month ?? 0); m += 1) {
    const from = `timestamptz '${START}' + interval '${m} months'`;
    const to = `timestamptz '${START}' + interval '${m + 1} months'`;
    await client.query(`create table by_time_${m} partition of by_time for values from (${from}) to (${to})`);
    await client.query(
      `create table by_id_${m} partition of by_id for values from (${BigInt(m) << BigInt(MONTH_BITS)}) to (${
        BigInt(m + 1) << BigInt(MONTH_BITS)
      })`,
    );
    await client.query(
      `alter table by_id_${m} add constraint by_id_${m}_month check (created_at >= ${from} and created_at < ${to})`,
    );
  }
  for (const table of ['by_time', 'by_id']) {
    await client.query(`insert into ${table} select * from plain`);
    await client.query(`create index on ${table} (account_id, created_at, id)`);
  }
  await client.query('vacuum analyze');
  const [partitions] = (
    await client.query<{ n: number }>(
      "select count(*)::int as n from pg_inherits where inhparent = 'by_time'::regclass",
    )
  ).rows;
  console.log(
    `${rows} rows over ${partitions?.n ?? 0} months, three layouts, in ${((performance.now() - setup) / 1000).toFixed(0)} s`,
  );

  const ids = (
    await client.query<{ id: string }>('select id::text from plain order by random() limit 10000')
  ).rows.map((row) => row.id);
  const [recent] = (
    await client.query<{ from: Date; to: Date }>(
      `select max(created_at) - interval '47 days' as "from", max(created_at) as "to" from plain`,
    )
  ).rows;
  if (!recent) throw new Error('no rows');

  /** Mean ms of `statement` run back to back for `seconds`, with fresh parameters each time. */
  async function mean(statement: string, params: (i: number) => unknown[]): Promise<number> {
    for (let i = 0; i < 50; i += 1) await client.query(statement, params(i));
    let runs = 0;
    const started = performance.now();
    while (performance.now() - started < seconds * 1000) {
      await client.query(statement, params(runs));
      runs += 1;
    }
    return (performance.now() - started) / runs;
  }
  const queries: [string, (table: string) => string, (i: number) => unknown[]][] = [
    ['detail by id', (t) => `select * from ${t} where id = $1`, (i) => [ids[i % ids.length]]],
    [
      'log page, last 47 days',
      (t) => `select id from ${t} where account_id = $1 and created_at >= $2 and created_at < $3
              order by created_at desc, id desc limit 50`,
      (i) => [1 + (i % 50), recent.from, recent.to],
    ],
    [
      'log page, all time',
      (t) => `select id from ${t} where account_id = $1 order by created_at desc, id desc limit 50`,
      (i) => [1 + (i % 50)],
    ],
  ];
  // The hints a partitioned layout would need the app to add: the month's dates from a time-ordered id (for a layout
  // by created_at), the ids' range from the dates (for a layout by id).
  const monthOf = (id: string) => Number(BigInt(id) >> BigInt(MONTH_BITS));
  const monthStart = (month: number) => {
    const start = new Date(`${START}T00:00:00Z`);
    start.setUTCMonth(start.getUTCMonth() + month);
    return start;
  };
  const firstId = (at: Date) =>
    String(BigInt((at.getUTCFullYear() - 2016) * 12 + at.getUTCMonth() + 1 - 12) << BigInt(MONTH_BITS));
  const hinted: [string, string, (i: number) => unknown[]][] = [
    [
      'detail by id, with its month\u2019s dates',
      'select * from by_time where id = $1 and created_at >= $2 and created_at < $3',
      (i) => {
        const id = ids[i % ids.length] as string;
        return [id, monthStart(monthOf(id)), monthStart(monthOf(id) + 1)];
      },
    ],
    [
      'log page, last 47 days, with the ids\u2019 range',
      `select id from by_id where account_id = $1 and created_at >= $2 and created_at < $3 and id >= $4
       order by created_at desc, id desc limit 50`,
      (i) => [1 + (i % 50), recent.from, recent.to, firstId(recent.from)],
    ],
  ];
  console.log('\n| query | plain ms | by created_at ms | × | by time-ordered id ms | × |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [name, sqlOf, params] of queries) {
    const plain = await mean(sqlOf('plain'), params);
    const byTime = await mean(sqlOf('by_time'), params);
    const byId = await mean(sqlOf('by_id'), params);
    console.log(
      `| ${name} | ${plain.toFixed(3)} | ${byTime.toFixed(3)} | ${(byTime / plain).toFixed(1)} | ${byId.toFixed(3)} | ${(
        byId / plain
      ).toFixed(1)} |`,
    );
  }

  console.log('\n| with a hint | plain ms | partitioned ms | × |');
  console.log('| --- | --- | --- | --- |');
  for (const [name, statement, params] of hinted) {
    const plainStatement = statement.replace(/from by_(time|id)/, 'from plain');
    const plain = await mean(plainStatement, params);
    const partitioned = await mean(statement, params);
    console.log(
      `| ${name} | ${plain.toFixed(3)} | ${partitioned.toFixed(3)} | ${(partitioned / plain).toFixed(1)} |`,
    );
  }

  // One month removed: the purge's batched deletes on the plain table, against dropping the month's partition.
  const month = 12;
  const from = `timestamptz '${START}' + interval '${month} months'`;
  const to = `timestamptz '${START}' + interval '${month + 1} months'`;
  const deleting = performance.now();
  let deleted = 0;
  for (;;) {
    const removed = await client.query(
      `delete from plain where id in (select id from plain where created_at >= ${from} and created_at < ${to} limit 5000)`,
    );
    deleted += removed.rowCount ?? 0;
    if ((removed.rowCount ?? 0) < 5000) break;
  }
  const deleteMs = performance.now() - deleting;
  const dropping = performance.now();
  await client.query(`alter table by_time detach partition by_time_${month}`);
  await client.query(`drop table by_time_${month}`);
  const dropMs = performance.now() - dropping;
  console.log(
    `\none month (${deleted} rows): batched deletes ${deleteMs.toFixed(0)} ms, detach + drop of its partition ${dropMs.toFixed(
      1,
    )} ms`,
  );
} finally {
  await client.end();
  await admin.query(`drop database ${scratch} with (force)`);
  await admin.end();
}
