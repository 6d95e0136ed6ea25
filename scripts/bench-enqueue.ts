/**
 * What enqueueing in the caller's transaction costs (ADR 14), on the public send-code write path: the attempt's
 * transaction (the per-form-and-number advisory lock, the resend check, "replace the older codes", the insert) with
 * a pg-boss job enqueued after the commit (its own transaction, as before) or inside it (`{ tx }`): the invitation
 * e-mail's, since the code's send is claimed from the attempt itself (ADR 33). Sequentially
 * (latency) and 50 at once on distinct numbers (throughput), on PostgreSQL (DATABASE_URL) or PGlite (a data
 * directory in a temporary folder when DATABASE_URL is unset). No worker runs: only the writes are measured.
 *   node scripts/bench-enqueue.ts [--rounds 400]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createDb, schema, type Tx, transaction } from '@veriform/db';
import { and, desc, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { sendInvitationEmail } from '../apps/server/src/jobs/definitions/send-invitation-email.ts';
import { createJobs, installJobs } from '../apps/server/src/jobs/queue.ts';
import { loadJobDefinitions } from '../apps/server/src/jobs/registry.ts';
import { createSealer } from '../apps/server/src/lib/sealed.ts';
import { benchForm } from './support/bench-app.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '400' } } });
const rounds = Number(values.rounds);
const url = process.env.DATABASE_URL;
const dataDir = url ? undefined : mkdtempSync(join(tmpdir(), 'vf-bench-enqueue-'));
const handle = url
  ? createDb({ kind: 'postgres', url })
  : createDb({ kind: 'pglite', dataDir: join(dataDir ?? '', 'pglite') });
await handle.migrate();
await installJobs(handle);
const { db } = handle;
const jobs = createJobs(handle, pino({ level: 'silent' }), await loadJobDefinitions());
const sealer = createSealer(randomBytes(32).toString('base64url'));
const { verificationAttempts } = schema;

const { account, form } = await benchForm(db);

let phones = 0;
const nextPhone = () => `+1201${String(5_000_000 + (phones++ % 4_000_000)).padStart(7, '0')}`;

/** The send-code transaction of modules/public-verify/service.ts, and its job inside it or after it. */
async function sendCode(inside: boolean): Promise<void> {
  const cellPhone = nextPhone();
  const attemptId = randomBytes(16).toString('base64url');
  const now = new Date();
  const enqueue = (tx?: Tx) =>
    jobs.enqueue(
      sendInvitationEmail,
      { invitationId: 1, sealedKey: sealer.seal('123456', attemptId) },
      { tx },
    );
  await transaction(db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`code-send:${form.id}:${cellPhone}`}))`);
    await tx
      .select({ createdAt: verificationAttempts.createdAt })
      .from(verificationAttempts)
      .where(
        and(eq(verificationAttempts.verifyFormId, form.id), eq(verificationAttempts.cellPhone, cellPhone)),
      )
      .orderBy(desc(verificationAttempts.createdAt))
      .limit(1);
    await tx
      .update(verificationAttempts)
      .set({ status: 'replaced' })
      .where(
        and(
          eq(verificationAttempts.verifyFormId, form.id),
          eq(verificationAttempts.cellPhone, cellPhone),
          eq(verificationAttempts.status, 'pending'),
        ),
      );
    await tx.insert(verificationAttempts).values({
      id: attemptId,
      accountId: account.id,
      verifyFormId: form.id,
      cellPhone,
      method: 'sms',
      codeHash: 'x',
      createdAt: now,
      expiresAt: new Date(now.getTime() + 600_000),
    });
    if (inside) await enqueue(tx);
  });
  if (!inside) await enqueue();
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function sequential(inside: boolean): Promise<string> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await sendCode(inside);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return `mean ${mean.toFixed(2)} ms, p50 ${percentile(times, 50).toFixed(2)}, p95 ${percentile(times, 95).toFixed(2)}`;
}

async function concurrent(inside: boolean): Promise<string> {
  const started = performance.now();
  const batches = Math.max(1, Math.floor(rounds / 50));
  for (let b = 0; b < batches; b++) await Promise.all(Array.from({ length: 50 }, () => sendCode(inside)));
  const seconds = (performance.now() - started) / 1000;
  return `${((batches * 50) / seconds).toFixed(0)} sends/s`;
}

console.log(`${handle.kind}, ${rounds} rounds`);
// Warm-up (JIT, plans, the job partition's pages), then alternate so that drift hits both alike.
for (let i = 0; i < 50; i++) await sendCode(i % 2 === 0);
for (const pass of [1, 2]) {
  for (const inside of [false, true]) {
    const label = inside ? 'job inside the transaction' : 'job after the commit      ';
    console.log(
      `pass ${pass} ${label}: sequential ${await sequential(inside)}; 50 at once ${await concurrent(inside)}`,
    );
  }
}
await handle.close();
if (dataDir) rmSync(dataDir, { recursive: true, force: true });
