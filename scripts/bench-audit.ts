/**
 * Benchmark of the audit log at a million events in one account (issue #16), against the raw SQL it sends.
 *
 *     node scripts/seed-verifications.ts --database-url postgres://postgres@127.0.0.1:5432/veriform_bench \
 *       --verifications 1000  # any seeded account with an owner will do
 *     node scripts/bench-audit.ts --database-url postgres://postgres@127.0.0.1:5432/veriform_bench \
 *       [--events 1000000] [--iterations 30]
 *
 * Tops the account up to `--events` audit events in set-based SQL (spread over two years, 25 actors, every action;
 * their hashes are random, not a chain: the list and the export do not read them), logs the owner in, and calls
 * `GET /api/audit-events` through `app.inject` (first page, filters, a deep page) and the JSON Lines export over a real
 * socket. "raw SQL" replays the call's data statements through the same pool. Then it times the chain check itself
 * (`verifyChain`) over a million events made and hashed in memory.
 */
import { get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { auditActions } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, count, eq } from 'drizzle-orm';
import type pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { openDatabase } from '../apps/server/src/database.ts';
import {
  type ChainedEvent,
  GENESIS_HASH,
  hashEvent,
  verifyChain,
} from '../apps/server/src/modules/audit/chain.ts';
import { requireDatabaseUrl, sessionCookie, timedGet } from './support/bench-app.ts';
import { benchConfig } from './support/bench-config.ts';
import { ms, quantile, sqlRecorder } from './support/measure.ts';

const { values: args } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    events: { type: 'string', default: '1000000' },
    iterations: { type: 'string', default: '30' },
  },
});
const databaseUrl = requireDatabaseUrl(args['database-url']);
const target = Number(args.events);
const iterations = Math.max(1, Number(args.iterations));

const config = benchConfig(databaseUrl);
const database = openDatabase(config);
await database.migrate();
const { db } = database;
const pool = (db as unknown as { $client: pg.Pool }).$client;

const [owner] = await db
  .select({
    userId: schema.memberships.userId,
    id: schema.memberships.id,
    accountId: schema.memberships.accountId,
  })
  .from(schema.memberships)
  .where(eq(schema.memberships.role, 'owner'))
  .limit(1);
if (!owner) throw new Error('no owner: run scripts/seed-verifications.ts first');
const { accountId } = owner;

const [{ n: have } = { n: 0 }] = await db
  .select({ n: count() })
  .from(schema.auditEvents)
  .where(eq(schema.auditEvents.accountId, accountId));
if (have < target) {
  const started = performance.now();
  const actions = `ARRAY[${auditActions.map((a) => `'${a}'`).join(',')}]`;
  for (let from = have + 1; from <= target; from += 100_000) {
    const to = Math.min(target, from + 99_999);
    await database.executeSql(`
      INSERT INTO audit_events (account_id, sequence, occurred_at, actor_type, actor_id, actor_name, action,
        target_type, target_id, targets, changes, ip, user_agent, request_id, prev_hash, hash)
      SELECT ${accountId}, s, now() - interval '730 days' * (1 - s::float8 / ${target}),
        'user', (s % 25 + 1)::text, 'user' || (s % 25 + 1) || '@bench.example.com',
        (${actions})[s % ${auditActions.length} + 1], 'form', (s % 400)::text,
        jsonb_build_array(jsonb_build_object('type', 'form', 'id', (s % 400)::text, 'name', 'Form ' || s % 400)),
        jsonb_build_object('name', jsonb_build_array('Old ' || s, 'New ' || s)),
        '203.0.113.' || (s % 254 + 1), 'Mozilla/5.0 (bench)', md5(s::text), md5((s - 1)::text) || md5(s::text),
        md5(s::text) || md5((s + 1)::text)
      FROM generate_series(${from}, ${to}) s`);
    process.stdout.write(`  ${to.toLocaleString()} / ${target.toLocaleString()} events\n`);
  }
  await database.executeSql(`
    INSERT INTO audit_chain_heads (account_id, sequence, hash) VALUES (${accountId}, ${target}, '${'0'.repeat(64)}')
    ON CONFLICT (account_id) DO UPDATE SET sequence = excluded.sequence`);
  await database.executeSql('VACUUM (ANALYZE) audit_events');
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const sql = sqlRecorder(pool);

const app = await buildApp(config, { db: database });
await app.ready();
const cookie = await sessionCookie(app, config, owner);

const get = timedGet(app, 8);

async function call(url: string): Promise<number> {
  return (await get(url, { cookie })).elapsed;
}

async function bench(name: string, query: string): Promise<void> {
  const url = `/api/audit-events?account=${accountId}&tz=UTC${query}`;
  sql.start();
  await call(url);
  const sqlRun = sql.stop().filter((q) => /"audit_events"/.test(q.text));
  const times: number[] = [];
  const raw: number[] = [];
  for (let i = 0; i < iterations; i++) {
    times.push(await call(url));
    raw.push(await sql.replay(sqlRun));
  }
  const median = quantile(times, 0.5);
  const rawMedian = quantile(raw, 0.5);
  console.log(
    `${name.padEnd(44)} median ${ms(median).padStart(6)} ms  p95 ${ms(quantile(times, 0.95)).padStart(6)} ms | raw SQL ` +
      `${ms(rawMedian).padStart(6)} ms (${sqlRun.length} statements, one after the other) | ×${(median / rawMedian).toFixed(2)}`,
  );
}

const [{ n: inAccount } = { n: 0 }] = await db
  .select({ n: count() })
  .from(schema.auditEvents)
  .where(and(eq(schema.auditEvents.accountId, accountId)));
console.log(
  `\naccount ${accountId}: ${inAccount.toLocaleString()} audit events; ${iterations} iterations per case\n`,
);
await bench('first page (25), all time', '');
await bench('action=form.updated', '&action=form.updated');
await bench('actor (one of 25 users)', '&actorType=user&actorId=7');
await bench('target (one of 400 forms)', '&targetType=form&targetId=42');
await bench('last 30 days', '&created__date__preset=last30d');
await bench('page 400 (rows 9,976–10,000)', '&pageNumber=400');

// The export over a real socket, against the same rows read by the raw query in batches.
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as AddressInfo).port;
const exportStarted = performance.now();
const bytes = await new Promise<number>((resolve, reject) => {
  httpGet(
    `http://127.0.0.1:${port}/api/audit-events/export?account=${accountId}&format=jsonl`,
    { headers: { cookie } },
    (response) => {
      let total = 0;
      response.on('data', (chunk: Buffer) => {
        total += chunk.length;
      });
      response.on('end', () => resolve(total));
      response.on('error', reject);
    },
  ).on('error', reject);
});
const exportSeconds = (performance.now() - exportStarted) / 1000;
console.log(
  `\nexport JSON Lines (${address}): ${inAccount.toLocaleString()} events, ${(bytes / 1e6).toFixed(0)} MB in ` +
    `${exportSeconds.toFixed(1)} s = ${Math.round(inAccount / exportSeconds).toLocaleString()} events/s`,
);
const rawStarted = performance.now();
await sql.query(
  `COPY (SELECT row_to_json(e) FROM audit_events e WHERE account_id = ${accountId} ORDER BY sequence) TO '/dev/null'`,
);
const rawSeconds = (performance.now() - rawStarted) / 1000;
console.log(
  `PostgreSQL's own COPY of the same rows as JSON to /dev/null: ${rawSeconds.toFixed(1)} s = ` +
    `${Math.round(inAccount / rawSeconds).toLocaleString()} events/s (×${(exportSeconds / rawSeconds).toFixed(2)})`,
);

// The chain check alone: a million events made and hashed in memory, then checked.
const made: ChainedEvent[] = [];
let prevHash = GENESIS_HASH;
for (let sequence = 1; sequence <= target; sequence += 1) {
  const fields = {
    account: accountId,
    sequence,
    occurredAt: new Date(1_700_000_000_000 + sequence * 1000).toISOString(),
    actor: {
      type: 'user' as const,
      id: String(sequence % 25),
      name: `user${sequence % 25}@bench.example.com`,
    },
    action: 'form.updated',
    targets: [{ type: 'form' as const, id: String(sequence % 400), name: `Form ${sequence % 400}` }],
    changes: { name: [`Old ${sequence}`, `New ${sequence}`] },
    ip: '203.0.113.7',
    userAgent: 'Mozilla/5.0 (bench)',
    requestId: 'bench',
    prevHash,
  };
  prevHash = hashEvent(fields);
  made.push({ ...fields, hash: prevHash });
}
const checkStarted = performance.now();
const check = await verifyChain(made);
const checkSeconds = (performance.now() - checkStarted) / 1000;
console.log(
  `verifyChain over ${target.toLocaleString()} events: ${JSON.stringify(check)} in ${checkSeconds.toFixed(1)} s ` +
    `(${Math.round(target / checkSeconds).toLocaleString()} events/s)`,
);
await app.close();
