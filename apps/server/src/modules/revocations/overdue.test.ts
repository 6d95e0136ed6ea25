import type { ApiRevocation } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { keyCall, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { DAY } from '../../test-support/clock.ts';
import { outboxFor } from '../../test-support/outbox.ts';
import { newCellPhone } from '../../test-support/public-verify.ts';
import { join, newOwner } from '../../test-support/teams.ts';
import { notifyOverdueRevocations, overdueDedupeKey } from './index.ts';

/**
 * Issue #35 item 3: an open revocation past its deadline is overdue; its account's owners get ONE e-mail and the
 * customer's systems `revocation.overdue`, once, however many sweeps run at once. Acknowledged ones and ones still
 * within their deadline are left alone; a test key's revocation notifies through its test event only.
 */

const t = useTestApp();

const sweep = () =>
  notifyOverdueRevocations({
    db: t.app.services.db,
    clock: t.clock,
    jobs: t.app.services.jobs,
    webhookEvents: t.app.services.webhookEvents,
    describe: t.app.services.revocations.describe,
  });

async function record(key: string, body: Record<string, unknown>): Promise<ApiRevocation> {
  const response = await keyCall(t.app, key)('POST', '/api/v1/revocations', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ApiRevocation>();
}

describe('the overdue sweep', () => {
  it('notifies each overdue revocation once under concurrent sweeps: one event each, one e-mail per owner', async () => {
    const owner = await newOwner(t.app);
    const coOwner = await join(t.app, owner, { role: 'owner' });
    const member = await join(t.app, owner, { canSearchData: true });
    const key = (await newApiKey(owner, ['revocations:write', 'revocations:read'], 'live')).key;
    const testKey = (await newApiKey(owner, ['revocations:write'], 'test')).key;
    const monthAgo = new Date(t.clock.now().getTime() - 30 * DAY).toISOString();
    const phone = newCellPhone().e164;
    const overdue = [
      await record(key, { phone, via: 'phone_call', receivedAt: monthAgo }),
      await record(key, { email: 'late@example.com', via: 'email', receivedAt: monthAgo }),
    ];
    const acknowledged = await record(key, {
      phone: newCellPhone().e164,
      via: 'letter',
      receivedAt: monthAgo,
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/revocations/${acknowledged.id}/acknowledge`,
      headers: { authorization: `Bearer ${key}` },
    });
    const recent = await record(key, { phone: newCellPhone().e164, via: 'letter' });
    const testOne = await record(testKey, { phone: newCellPhone().e164, via: 'other', receivedAt: monthAgo });
    expect(overdue.map((r) => r.status)).toEqual(['overdue', 'overdue']);

    const counts = await Promise.all(Array.from({ length: 4 }, sweep));
    // This account's three (and any another file left) were marked by exactly one of the sweeps.
    const ours = [...overdue.map((r) => r.id), testOne.id];
    const rows = await t.db.db
      .select({ id: schema.revocations.id, notified: schema.revocations.overdueNotifiedAt })
      .from(schema.revocations)
      .where(eq(schema.revocations.accountId, owner.accountId));
    const notified = rows.filter((row) => row.notified !== null).map((row) => row.id);
    expect(notified.sort()).toEqual([...ours].sort());
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(3);
    expect(await sweep()).toBe(0);

    const events = await t.db.db
      .select({ key: schema.webhookEvents.dedupeKey, livemode: schema.webhookEvents.livemode })
      .from(schema.webhookEvents)
      .where(
        and(
          eq(schema.webhookEvents.accountId, owner.accountId),
          eq(schema.webhookEvents.type, 'revocation.overdue'),
        ),
      );
    expect(events.map((event) => event.key).sort()).toEqual(ours.map(overdueDedupeKey).sort());
    expect(events.find((event) => event.key === overdueDedupeKey(testOne.id))?.livemode).toBe(false);
    expect(rows.map((row) => row.id)).toContain(recent.id);

    for (const person of [owner, coOwner]) {
      const mails = (await outboxFor(t.app, person.email)).filter((m) =>
        (m.subject ?? '').includes('overdue'),
      );
      expect(mails, person.email).toHaveLength(1);
      const text = mails[0]?.text ?? '';
      expect(mails[0]?.subject).toContain('2 revocations');
      // Masked: the e-mail holds no copy of the number or address that erasure could not reach.
      expect(text).not.toContain(phone);
      expect(text).toContain(phone.slice(-4));
      expect(text).not.toContain('late@example.com');
      expect(text).toContain('/activity-log/revocations?status=overdue');
    }
    expect(
      (await outboxFor(t.app, member.email)).filter((m) => (m.subject ?? '').includes('overdue')),
    ).toEqual([]);
  });

  it('leaves an acknowledged one and one within its deadline alone', async () => {
    const owner = await newOwner(t.app);
    const key = (await newApiKey(owner, ['revocations:write'], 'live')).key;
    const within = await record(key, { phone: newCellPhone().e164, via: 'letter' });
    await sweep();
    const [row] = await t.db.db
      .select({ notified: schema.revocations.overdueNotifiedAt })
      .from(schema.revocations)
      .where(inArray(schema.revocations.id, [within.id]));
    expect(row?.notified).toBeNull();
    // Eleven business days on (at most 15 calendar days plus holidays), it is overdue and notified.
    t.clock.advance(20 * DAY);
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    const [after] = await t.db.db
      .select({ notified: schema.revocations.overdueNotifiedAt })
      .from(schema.revocations)
      .where(inArray(schema.revocations.id, [within.id]));
    expect(after?.notified).not.toBeNull();
  });
});
