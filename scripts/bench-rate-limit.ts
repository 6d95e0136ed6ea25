/**
 * What an atomic limit costs (ADR 12): `consume()` (advisory lock + check + record: one SQL function call since
 * migration 0025, a transaction of five statements before) against the
 * unlocked check-then-record it replaced, sequentially (latency) and 50 at once on one bucket (the contended case
 * that used to overshoot), on PostgreSQL (DATABASE_URL) or PGlite (in memory when DATABASE_URL is unset).
 *   npx tsx scripts/bench-rate-limit.ts [--rounds 500]
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createDb, schema } from '@veriform/db';
import { and, desc, eq, gt } from 'drizzle-orm';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { createRateLimiter } from '../apps/server/src/lib/rate-limit.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '500' } } });
const rounds = Number(values.rounds);
const url = process.env.DATABASE_URL;
const handle = url ? createDb({ kind: 'postgres', url }) : createDb({ kind: 'pglite' });
await handle.migrate();
const { db } = handle;
const limiter = createRateLimiter(db, systemClock);
const { rateLimitEvents } = schema;
const windowMs = 60 * 60 * 1000;

/** The old way: read the limit-th newest event, then insert; no lock. */
async function unlocked(bucket: string, limit: number): Promise<void> {
  const [limiting] = await db
    .select({ createdAt: rateLimitEvents.createdAt })
    .from(rateLimitEvents)
    .where(
      and(eq(rateLimitEvents.bucket, bucket), gt(rateLimitEvents.createdAt, new Date(Date.now() - windowMs))),
    )
    .orderBy(desc(rateLimitEvents.createdAt))
    .offset(limit - 1)
    .limit(1);
  if (limiting) throw new Error('limited');
  await db.insert(rateLimitEvents).values({ bucket, createdAt: new Date() });
}

async function atomic(bucket: string, limit: number): Promise<void> {
  await limiter.consume([{ bucket, limit, windowMs }], () => 'limited');
}

async function sequential(name: string, run: (bucket: string, limit: number) => Promise<void>) {
  const bucket = `bench:${name}:${Math.random()}`;
  const started = performance.now();
  for (let i = 0; i < rounds; i++) await run(bucket, rounds + 1);
  const ms = (performance.now() - started) / rounds;
  console.log(`${name.padEnd(9)} sequential: ${ms.toFixed(3)} ms a call`);
  return ms;
}

async function contended(name: string, run: (bucket: string, limit: number) => Promise<void>) {
  const bucket = `bench:${name}:burst:${Math.random()}`;
  const limit = 10;
  const started = performance.now();
  const results = await Promise.allSettled(Array.from({ length: 50 }, () => run(bucket, limit)));
  const ms = performance.now() - started;
  const passed = results.filter((r) => r.status === 'fulfilled').length;
  console.log(`${name.padEnd(9)} 50 at once, limit ${limit}: ${passed} passed in ${ms.toFixed(1)} ms`);
}

console.log(`engine: ${handle.kind}, ${rounds} sequential calls each`);
const before = await sequential('unlocked', unlocked);
const after = await sequential('atomic', atomic);
console.log(`atomic / unlocked: ${(after / before).toFixed(2)}x`);
await contended('unlocked', unlocked);
await contended('atomic', atomic);
await handle.close();
