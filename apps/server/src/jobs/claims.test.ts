import { randomBytes } from 'node:crypto';
import { type DatabaseHandle, schema } from '@veriform/db';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodeSendStore } from '../modules/attempts/index.ts';
import { createWebhookDeliveryStore } from '../modules/webhooks/sender.ts';
import { openTestDb } from '../test-support/app.ts';
import { type ClaimedRow, createClaimLoop, type RowStore, retryDelayMs } from './claims.ts';
import { handleJob } from './define.ts';
import { deliverWebhook } from './definitions/deliver-webhook.ts';
import { sendVerificationCode } from './definitions/send-verification-code.ts';

/**
 * Row jobs (ADR 33) on the engine of this run: the code sends and webhook deliveries are claimed from their own rows.
 * Many claimers at once never take a row twice; a row whose claimer died (its lease lapsed) is taken again and its
 * work done; a failing try is retried with back-off and given up past the limit. A database of its own, with no app
 * and so no worker but the claimers under test.
 */

let database: DatabaseHandle;
const log = pino({ level: 'silent' });

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  database = await openTestDb();
});

afterAll(async () => {
  await database?.close();
});

async function newAccount(): Promise<{ accountId: number; formId: number }> {
  const { db } = database;
  const [account] = await db.insert(schema.accounts).values({ displayName: 'Claims Co' }).returning();
  if (!account) throw new Error('no account');
  const [form] = await db
    .insert(schema.verifyForms)
    .values({
      publicId: randomBytes(9).toString('base64url'),
      accountId: account.id,
      name: 'Form',
      isLive: true,
    })
    .returning();
  if (!form) throw new Error('no form');
  return { accountId: account.id, formId: form.id };
}

/** `count` attempts whose code send is owed now. */
async function owedSends(count: number): Promise<string[]> {
  const { accountId, formId } = await newAccount();
  const now = new Date();
  const rows = Array.from({ length: count }, (_, i) => ({
    id: randomBytes(16).toString('base64url'),
    accountId,
    verifyFormId: formId,
    cellPhone: `+1201555${String(2000 + i).padStart(4, '0')}`,
    method: 'sms' as const,
    codeHash: 'not-a-real-hash',
    createdAt: now,
    expiresAt: new Date(now.getTime() + 10 * 60 * 1000),
    sealedCode: `v1.sealed-${i}`,
    sendState: 'queued' as const,
    sendAfter: sql`now()`,
  }));
  await database.db.insert(schema.verificationAttempts).values(rows);
  return rows.map((row) => row.id);
}

/** `count` webhook deliveries due now. */
async function dueDeliveries(count: number): Promise<string[]> {
  const { accountId } = await newAccount();
  const { db } = database;
  const [endpoint] = await db
    .insert(schema.webhookEndpoints)
    .values({ accountId, url: 'https://receiver.example/hooks', eventTypes: ['*'], secretSealed: 'sealed' })
    .returning();
  if (!endpoint) throw new Error('no endpoint');
  const createdAt = new Date();
  const events = Array.from({ length: count }, () => ({
    id: `evt_${randomBytes(16).toString('base64url')}`,
    accountId,
    type: 'form.created',
    data: {},
    createdAt,
  }));
  await db.insert(schema.webhookEvents).values(events);
  const deliveries = await db
    .insert(schema.webhookDeliveries)
    .values(
      events.map((event) => ({
        accountId,
        eventId: event.id,
        endpointId: endpoint.id,
        eventCreatedAt: createdAt,
        dueAt: sql`now()`,
      })),
    )
    .returning({ id: schema.webhookDeliveries.id });
  return deliveries.map((delivery) => String(delivery.id));
}

/** One claimer: claims small batches until none is left, answering what it took. */
async function claimAll(store: RowStore): Promise<ClaimedRow[]> {
  const taken: ClaimedRow[] = [];
  for (;;) {
    const rows = await store.claim(3, 60);
    if (rows.length === 0) return taken;
    taken.push(...rows);
  }
}

const kinds = [
  { name: 'code sends', store: () => createCodeSendStore(database.executeSql), make: owedSends },
  {
    name: 'webhook deliveries',
    store: () => createWebhookDeliveryStore(database.executeSql),
    make: dueDeliveries,
  },
];

describe.each(kinds)('claiming $name', ({ store, make }) => {
  it('many claimers at once take every due row exactly once', async () => {
    const ids = await make(40);
    const claimers = Array.from({ length: 8 }, () => claimAll(store()));
    const taken = (await Promise.all(claimers)).flat();
    const mine = taken.filter((row) => ids.includes(row.id));
    expect(mine.map((row) => row.id).sort()).toEqual([...ids].sort());
    expect(new Set(mine.map((row) => row.id)).size).toBe(ids.length);
    expect(mine.every((row) => row.tries === 1)).toBe(true);
    // Taken, they are leased: nobody takes them again until the lease has passed.
    expect(await store().claim(100, 60)).toEqual([]);
  });

  it('a row whose claimer died is taken again once its lease has passed, as a further try', async () => {
    const [id] = await make(1);
    const rows = store();
    // A claim with no lease: the claimer "dies" at once and the row is due again.
    const [first] = await rows.claim(10, 0);
    expect(first).toMatchObject({ id, tries: 1 });
    const [again] = await rows.claim(10, 60);
    expect(again).toMatchObject({ id, tries: 2, data: first?.data });
  });
});

describe('the claim loop', () => {
  it('runs the handler once per row with its payload, and records each as done', async () => {
    const ids = await owedSends(10);
    const seen: unknown[] = [];
    const handler = handleJob(sendVerificationCode, async (payload) => {
      seen.push(payload);
      return { outcome: 'skipped' };
    });
    const loop = createClaimLoop(
      sendVerificationCode,
      createCodeSendStore(database.executeSql),
      handler,
      log,
    );
    loop.start();
    const deadline = Date.now() + 15_000;
    while (seen.length < ids.length && Date.now() < deadline) await delay(20);
    await loop.stop(5_000);
    expect(seen).toHaveLength(ids.length);
    expect(seen).toEqual(
      expect.arrayContaining(ids.map((attemptId) => expect.objectContaining({ attemptId }))),
    );
    const { rows } = await database.executeSql(
      `SELECT send_state, sealed_code, send_after FROM verification_attempts WHERE id = ANY($1::text[])`,
      [ids],
    );
    expect(rows).toEqual(ids.map(() => ({ send_state: 'skipped', sealed_code: null, send_after: null })));
  });

  it('retries a failing try after its back-off, and gives the row up past the retry limit', async () => {
    const [id] = await owedSends(1);
    const store = createCodeSendStore(database.executeSql);
    const failing = handleJob(sendVerificationCode, async () => {
      throw new Error('provider hiccup');
    });
    const once = { ...sendVerificationCode, retry: { limit: 1, delaySeconds: 0 } };
    const loop = createClaimLoop(once, store, failing, log);
    loop.start();
    const state = async () => {
      const { rows } = await database.executeSql(
        'SELECT send_state, send_tries, sealed_code FROM verification_attempts WHERE id = $1',
        [id],
      );
      const [row] = rows as ({ send_state: string } | undefined)[];
      return row;
    };
    const deadline = Date.now() + 15_000;
    while ((await state())?.send_state !== 'failed' && Date.now() < deadline) await delay(50);
    await loop.stop(5_000);
    expect(await state()).toEqual({ send_state: 'failed', send_tries: 2, sealed_code: null });
  });

  it('backs off as pg-boss did: delay × 2^(tries−1), times 1 to 2', () => {
    const policy = deliverWebhook.retry;
    expect(retryDelayMs(policy, 1, () => 0)).toBe(5_000);
    expect(retryDelayMs(policy, 1, () => 0.999_999)).toBe(10_000);
    expect(retryDelayMs(policy, 3, () => 0)).toBe(20_000);
    expect(retryDelayMs(sendVerificationCode.retry, 8, () => 0)).toBe(128_000);
  });
});
