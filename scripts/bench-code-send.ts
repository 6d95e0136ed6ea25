/**
 * The public code send's write path (issue #20 items 2–3): round trips to PostgreSQL per send, how long a send holds a
 * pooled connection, its latency alone and its throughput at once.
 *
 *     node scripts/bench-code-send.ts --database-url postgres://postgres@127.0.0.1:5432/veriform_bench_send \
 *       [--sends 300] [--concurrency 20] [--rounds 15]
 *     node scripts/bench-code-send.ts --pglite [--sends 300] …   (a data directory in a temporary folder)
 *
 * Builds the app's services as buildApp does (NODE_ENV=production, the pool of 10), without its job workers or routes:
 * only the writes are measured, and the queued jobs are left in the database. A send is the hosted page's
 * `publicVerify.sendCode` (the form and its consent looked up, the phone checked, the limits, the attempt, its queued
 * delivery event, the `verification.code_sent` event, the job), each to a fresh number from its own IP, with limits
 * too high to be reached. Every statement sent by a send is counted at node-postgres's client (what runs inside the
 * send's own async context, so pg-boss's timers are not counted); "held" is the time from checking a connection out
 * of the pool to giving it back, summed over the send's checkouts (a plain pool query holds one for its own round
 * trip only). "In statements" sums the time from sending each statement to its answer: the database's share of the send,
 * with the network and the pool's queue. On PGlite only the times are measured (there is no wire to count on).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import pino from 'pino';
import { openDatabase } from '../apps/server/src/database.ts';
import { createJobs, installJobs } from '../apps/server/src/jobs/queue.ts';
import { loadJobDefinitions } from '../apps/server/src/jobs/registry.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { createMailer } from '../apps/server/src/messaging/email.ts';
import { createSmsSender } from '../apps/server/src/messaging/sms.ts';
import { createServices } from '../apps/server/src/services.ts';
import { benchForm } from './support/bench-app.ts';
import { benchConfig } from './support/bench-config.ts';
import { ms, quantile } from './support/measure.ts';

const { values: args } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    pglite: { type: 'boolean', default: false },
    sends: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '15' },
  },
});
const databaseUrl = args['database-url'] ?? process.env.DATABASE_URL;
if (!databaseUrl && !args.pglite) {
  console.error('--database-url (PostgreSQL) or --pglite is required');
  process.exit(1);
}
const sends = Math.max(1, Number(args.sends));
const concurrency = Math.max(1, Number(args.concurrency));
const rounds = Math.max(1, Number(args.rounds));

const huge = 1_000_000_000;
const dataDir = args.pglite ? mkdtempSync(join(tmpdir(), 'vf-bench-code-send-')) : undefined;
const config = {
  ...benchConfig(databaseUrl ?? ''),
  ...(dataDir ? { databaseUrl: undefined, dataDir } : {}),
  codeSendLimits: {
    perPhonePerDay: huge,
    perEmailPerDay: huge,
    perIpPerDay: huge,
    smsPerAccountPerDay: huge,
    emailPerAccountPerDay: huge,
    wrongChecksPerIpPerHour: huge,
  },
};
const database = openDatabase(config);
await database.migrate();
await installJobs(database);
const { db } = database;
const log = pino({ level: 'silent' });
const services = createServices({
  config,
  db,
  clock: systemClock,
  mailer: createMailer(config, db, systemClock, log),
  sms: createSmsSender(config, db, systemClock, log),
  jobs: createJobs(database, log, await loadJobDefinitions()),
});
const pool = database.kind === 'postgres' ? (db as unknown as { $client: pg.Pool }).$client : null;

/** What one send did on the wire. */
type Tally = { statements: number; statementMs: number; checkouts: number; heldMs: number };
const current = new AsyncLocalStorage<Tally>();

const clientQuery = pg.Client.prototype.query as (...a: unknown[]) => unknown;
pg.Client.prototype.query = function counted(this: pg.Client, ...a: unknown[]) {
  const tally = current.getStore();
  if (!tally) return clientQuery.apply(this, a);
  tally.statements += 1;
  const since = performance.now();
  const done = () => {
    tally.statementMs += performance.now() - since;
  };
  // pool.query passes a callback; Drizzle awaits the promise.
  const last = a.at(-1);
  if (typeof last === 'function') {
    return clientQuery.apply(this, [
      ...a.slice(0, -1),
      (...r: unknown[]) => {
        done();
        return (last as (...r: unknown[]) => unknown)(...r);
      },
    ]);
  }
  const result = clientQuery.apply(this, a);
  if (result instanceof Promise) result.then(done, done);
  return result;
} as typeof pg.Client.prototype.query;

// pool.query checks a client out through connect(callback) and gives it back after its one statement: only the
// promise form (Drizzle's transactions, and anything else holding a client across statements) is timed.
const connect = pool?.connect.bind(pool) as (...a: unknown[]) => unknown;
if (pool)
  (pool as unknown as { connect: (...a: unknown[]) => unknown }).connect = (...a: unknown[]) => {
    const tally = current.getStore();
    if (a.length > 0 || !tally) return connect(...a);
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      tally.checkouts += 1;
      const since = performance.now();
      const release = client.release.bind(client);
      client.release = (error?: Error | boolean) => {
        tally.heldMs += performance.now() - since;
        client.release = release;
        return release(error);
      };
      return client;
    });
  };

const { form } = await benchForm(db);
const publicId = form.publicId;

// A fresh run gets fresh numbers: 30 s between codes to one number through one form.
let phones = Number.parseInt(randomBytes(2).toString('hex'), 16) * 100;
const nextPhone = () => {
  phones += 1;
  const exchange = 200 + (Math.floor(phones / 10_000) % 700);
  return `(415) ${exchange}-${String(phones % 10_000).padStart(4, '0')}`;
};
let ips = 0;
const nextIp = () => {
  ips += 1;
  return `10.${(ips >> 16) & 255}.${(ips >> 8) & 255}.${ips & 255}`;
};

async function send(): Promise<Tally & { ms: number }> {
  const tally: Tally = { statements: 0, statementMs: 0, checkouts: 0, heldMs: 0 };
  const started = performance.now();
  await current.run(tally, () =>
    services.publicVerify.sendCode(
      publicId,
      { cellPhone: nextPhone(), method: 'sms' },
      { ip: nextIp(), userAgent: 'bench-code-send' },
    ),
  );
  return { ...tally, ms: performance.now() - started };
}

for (let i = 0; i < 50; i++) await send();

const alone: Awaited<ReturnType<typeof send>>[] = [];
for (let i = 0; i < sends; i++) alone.push(await send());
const times = alone.map((s) => s.ms);
const median = (pick: (s: Tally) => number) => ms(quantile(alone.map(pick), 0.5));
const statements = alone.map((s) => s.statements);
const wire = pool
  ? `${quantile(statements, 0.5)} round trips (max ${Math.max(...statements)}), ${quantile(
      alone.map((s) => s.checkouts),
      0.5,
    )} ` +
    `checkouts, in statements median ${median((s) => s.statementMs)} ms, checked-out connection held median ` +
    `${median((s) => s.heldMs)} ms; `
  : '';
console.log(
  `one at a time (${sends} sends): ${wire}median ${ms(quantile(times, 0.5))} ms, p95 ${ms(quantile(times, 0.95))} ms`,
);

const burst: Awaited<ReturnType<typeof send>>[] = [];
const started = performance.now();
for (let round = 0; round < rounds; round++) {
  burst.push(...(await Promise.all(Array.from({ length: concurrency }, () => send()))));
}
const seconds = (performance.now() - started) / 1000;
const burstTimes = burst.map((s) => s.ms);
const burstHeld = pool
  ? `; connection held median ${ms(
      quantile(
        burst.map((s) => s.heldMs),
        0.5,
      ),
    )} ms`
  : '';
console.log(
  `${concurrency} at once (${rounds} rounds): ${(burst.length / seconds).toFixed(0)} sends/s; ` +
    `median ${ms(quantile(burstTimes, 0.5))} ms, p95 ${ms(quantile(burstTimes, 0.95))} ms${burstHeld}`,
);

await database.close();
if (dataDir) rmSync(dataDir, { recursive: true, force: true });
