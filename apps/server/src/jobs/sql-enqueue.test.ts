import { transaction } from '@veriform/db';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { useTestApp } from '../test-support/app.ts';
import type { JobDefinition } from './define.ts';
import { deliverWebhook } from './definitions/deliver-webhook.ts';
import { sendVerificationCode } from './definitions/send-verification-code.ts';

/**
 * Migration 0022's `enqueue_job(name, data)` stores the row pg-boss's `send` stores (the code send enqueues its jobs
 * in SQL, ADR 26): compared column by column for the queues it is used with, so a pg-boss upgrade that changes its
 * insert fails here. Both are stored in one transaction, which gives them the same now(); it is rolled back, so no
 * worker ever sees them.
 */

const t = useTestApp();

class RolledBack extends Error {}

/** The row of each, by SQL first, `id` left out. */
async function storedByBoth<Payload extends z.ZodType>(
  definition: JobDefinition<Payload>,
  data: z.input<Payload>,
): Promise<Record<string, unknown>[]> {
  let rows: Record<string, unknown>[] = [];
  await transaction(t.db.db, async (tx) => {
    const byBoss = await t.app.services.jobs.enqueue(definition, data, { tx });
    const bySql = await tx.execute(
      sql`select enqueue_job(${definition.name}, ${JSON.stringify(data)}::jsonb)::text as id`,
    );
    const [stored] = (bySql as unknown as { rows: { id: string }[] }).rows;
    const read = await tx.execute(
      sql`select * from pgboss.job where id in (${byBoss}::uuid, ${stored?.id ?? null}::uuid) order by id = ${byBoss}::uuid`,
    );
    rows = (read as unknown as { rows: Record<string, unknown>[] }).rows;
    throw new RolledBack();
  }).catch((error: unknown) => {
    if (!(error instanceof RolledBack)) throw error;
  });
  return rows.map(({ id: _id, ...columns }) => columns);
}

describe('enqueue_job (SQL) and pg-boss', () => {
  it('store the same send-verification-code job', async () => {
    const data = { attemptId: 'sql-enqueue-test', sealedCode: 'sealed' };
    const [bySql, byBoss] = await storedByBoth(sendVerificationCode, data);
    expect(byBoss).toMatchObject({ name: sendVerificationCode.name, data, state: 'created' });
    expect(bySql).toEqual(byBoss);
  });

  it('store the same deliver-webhook job', async () => {
    const data = { deliveryId: 987_654_321, attempt: 0, trigger: 'scheduled' as const };
    const [bySql, byBoss] = await storedByBoth(deliverWebhook, data);
    expect(byBoss).toMatchObject({ name: deliverWebhook.name, data, state: 'created' });
    expect(bySql).toEqual(byBoss);
  });

  it('refuses a queue that does not exist', async () => {
    const refused = await t.db.db.execute(sql`select enqueue_job('no-such-queue', '{}'::jsonb)`).then(
      () => null,
      (error: unknown) => error,
    );
    // Drizzle wraps the driver's error ("Failed query: …") and keeps it as the cause.
    expect(refused).toBeInstanceOf(Error);
    expect(String(refused instanceof Error ? refused.cause : refused)).toMatch(/no queue no-such-queue/);
  });
});
