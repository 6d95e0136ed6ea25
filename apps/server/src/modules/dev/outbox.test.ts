import { describe, expect, it } from 'vitest';
import { recordOutboxMessage } from '../../messaging/outbox.ts';
import { buildTestApp, useTestApp } from '../../test-support/app.ts';
import { MINUTE } from '../../test-support/clock.ts';

const t = useTestApp();

describe('GET /api/dev/outbox', () => {
  it('lists messages newest first, optionally only those to one address (any case)', async () => {
    const entry = { channel: 'email' as const, subject: 'Hello', text: 'Body', html: null };
    await recordOutboxMessage(t.db.db, t.clock, { ...entry, to: 'first@example.com' });
    t.clock.advance(MINUTE);
    await recordOutboxMessage(t.db.db, t.clock, { ...entry, to: 'second@example.com', subject: 'Second' });
    t.clock.advance(MINUTE);
    await recordOutboxMessage(t.db.db, t.clock, { ...entry, to: 'first@example.com', subject: 'Third' });

    const all = await t.app.inject({ method: 'GET', url: '/api/dev/outbox' });
    expect(all.statusCode).toBe(200);
    expect(all.json().results.map((m: { subject: string }) => m.subject)).toEqual([
      'Third',
      'Second',
      'Hello',
    ]);
    expect(all.json().results[0]).toEqual({
      id: expect.any(Number),
      channel: 'email',
      to: 'first@example.com',
      subject: 'Third',
      text: 'Body',
      createdAt: t.clock.now().toISOString(),
    });

    const filtered = await t.app.inject({ method: 'GET', url: '/api/dev/outbox?to=FIRST@example.com' });
    expect(filtered.json().results.map((m: { subject: string }) => m.subject)).toEqual(['Third', 'Hello']);
  });

  it('is shared by every process on the same database', async () => {
    const other = await buildTestApp(t.db);
    try {
      await recordOutboxMessage(t.db.db, t.clock, {
        channel: 'sms',
        to: '+15555550100',
        subject: null,
        text: 'Your code is 123456',
        html: null,
      });
      const response = await other.app.inject({ method: 'GET', url: '/api/dev/outbox?to=%2B15555550100' });
      expect(response.json().results).toHaveLength(1);
    } finally {
      await other.app.close();
    }
  });
});
