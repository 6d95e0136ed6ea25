import { randomBytes } from 'node:crypto';
import type { AuditEvent } from '@veriform/contracts';
import { schema, transaction } from '@veriform/db';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { nextCellPhone } from '../../test-support/attempts.ts';
import { storedChainOf } from '../../test-support/audit.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';
import { verifyChain } from './chain.ts';

/**
 * Issue #33 item 8: reads of many records at once are in the log as one GET is — API v1's pages of verifications,
 * events and audit events, and the audit log's own export: one event per page or export, with its count and filters.
 */

const t = useTestApp();
const { auditEvents, verificationAttempts } = schema;
const READS = ['verification.list_read', 'event.list_read', 'audit_log.list_read', 'audit_log.exported'];

/** The account's read events, oldest first, as stored. */
const readEvents = (accountId: number) =>
  t.db.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.accountId, accountId), inArray(auditEvents.action, READS)))
    .orderBy(asc(auditEvents.sequence));

/** `n` codes asked for through the owner's form (rows, as the list reads them). */
async function codes(owner: Owner, n: number): Promise<void> {
  const form = await createPublicForm(owner);
  await t.db.db.insert(verificationAttempts).values(
    Array.from({ length: n }, (_, i) => ({
      id: randomBytes(16).toString('base64url'),
      accountId: owner.accountId,
      verifyFormId: form.id,
      cellPhone: nextCellPhone(),
      method: 'sms' as const,
      externalRefId: `ref-${i % 2}`,
      codeHash: 'not-a-real-hash',
      createdAt: new Date(t.clock.now().getTime() - i * 1000),
      expiresAt: new Date(t.clock.now().getTime() + 10 * 60 * 1000),
    })),
  );
}

const emitEvents = (accountId: number, n: number) =>
  transaction(t.db.db, async (tx) => {
    for (let i = 0; i < n; i += 1)
      await t.app.services.webhookEvents.emit(tx, accountId, { type: 'form.created', data: { id: i } });
  });

async function keyed(owner: Owner, scopes: Parameters<typeof newApiKey>[1]) {
  const { key } = await newApiKey(owner, scopes, 'live');
  return (url: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${key}`, 'user-agent': 'Reader/1.0' },
    });
}

describe('reads of many records at once are recorded', () => {
  it('an API v1 page of verifications: one verification.list_read per page, with its count and filters; masked pages none', async () => {
    const owner = await newOwner(t.app);
    await codes(owner, 7);
    const get = await keyed(owner, ['verifications:read']);
    const first = await get('/api/v1/verifications?limit=3&externalRefId=ref-0');
    expect(first.statusCode, first.body).toBe(200);
    const second = await get(
      `/api/v1/verifications?limit=3&externalRefId=ref-0&startingAfter=${first.json<{ nextCursor: string }>().nextCursor}`,
    );
    expect(second.statusCode, second.body).toBe(200);
    const events = await readEvents(owner.accountId);
    expect(events.map((e) => [e.action, e.changes, e.targets, e.actorType, e.userAgent])).toEqual([
      [
        'verification.list_read',
        { count: 3, filters: { limit: 3, externalRefId: 'ref-0' } },
        [],
        'api_key',
        'Reader/1.0',
      ],
      [
        'verification.list_read',
        {
          count: 1,
          filters: {
            limit: 3,
            externalRefId: 'ref-0',
            startingAfter: first.json<{ nextCursor: string | null }>().nextCursor,
          },
        },
        [],
        'api_key',
        'Reader/1.0',
      ],
    ]);
    // A key that sees masked numbers only reads nothing the log has to account for, as with one GET.
    const masked = await keyed(owner, ['verifications:write']);
    expect((await masked('/api/v1/verifications?limit=100')).statusCode).toBe(200);
    expect(await readEvents(owner.accountId)).toHaveLength(2);
  });

  it('an API v1 page of events: one event.list_read with its count', async () => {
    const owner = await newOwner(t.app);
    await emitEvents(owner.accountId, 3);
    const get = await keyed(owner, ['events:read']);
    const page = await get('/api/v1/events?limit=2&type=form.created');
    expect(page.statusCode, page.body).toBe(200);
    const events = await readEvents(owner.accountId);
    expect(events.map((e) => [e.action, e.changes])).toEqual([
      ['event.list_read', { count: 2, filters: { limit: 2, type: 'form.created' } }],
    ]);
  });

  it('an API v1 page of the audit log: one audit_log.list_read, after the page (which does not hold it)', async () => {
    const owner = await newOwner(t.app);
    const get = await keyed(owner, ['audit:read']);
    const first = await get('/api/v1/audit-events?limit=100');
    expect(first.statusCode, first.body).toBe(200);
    const firstPage = first.json<{ data: AuditEvent[] }>().data;
    expect(firstPage.map((e) => e.action)).toEqual(['api_key.created']);
    const second = await get('/api/v1/audit-events?limit=100');
    expect(second.json<{ data: AuditEvent[] }>().data.map((e) => e.action)).toEqual([
      'audit_log.list_read',
      'api_key.created',
    ]);
    expect((await readEvents(owner.accountId)).map((e) => [e.action, e.changes])).toEqual([
      ['audit_log.list_read', { count: 1, filters: { limit: 100 } }],
      ['audit_log.list_read', { count: 2, filters: { limit: 100 } }],
    ]);
  });

  it('an export of the audit log, CSV or JSON Lines: one audit_log.exported with the count it gave, recorded before it streams', async () => {
    const owner = await newOwner(t.app);
    await newApiKey(owner, ['forms:read']);
    await newApiKey(owner, ['forms:read']);
    const csv = await owner.c.get(
      `/api/audit-events/export?account=${owner.accountId}&format=csv&action=api_key.created`,
    );
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body.trim().split('\n')).toHaveLength(1 + 2);
    const jsonl = await owner.c.get(`/api/audit-events/export?account=${owner.accountId}&format=jsonl`);
    const lines = jsonl.body.trim().split('\n');
    // The CSV export's own event is in the next export; this one's is not in itself.
    expect(lines.map((line) => JSON.parse(line).action)).toEqual([
      'api_key.created',
      'api_key.created',
      'audit_log.exported',
    ]);
    const events = await readEvents(owner.accountId);
    expect(events.map((e) => [e.action, e.changes, e.actorType, e.actorId])).toEqual([
      [
        'audit_log.exported',
        {
          count: 2,
          filters: { action: 'api_key.created', created__date__preset: 'all', format: 'csv' },
        },
        'user',
        String(owner.userId),
      ],
      [
        'audit_log.exported',
        { count: 3, filters: { created__date__preset: 'all', format: 'jsonl' } },
        'user',
        String(owner.userId),
      ],
    ]);
  });

  it('a burst of reads at once: exactly one event each, and the chain still verifies', async () => {
    const owner = await newOwner(t.app);
    await codes(owner, 3);
    await emitEvents(owner.accountId, 2);
    const get = await keyed(owner, ['verifications:read', 'events:read', 'audit:read']);
    const urls = [
      '/api/v1/verifications?limit=100',
      '/api/v1/events?limit=100',
      '/api/v1/audit-events?limit=1',
    ];
    const answers = await Promise.all([
      ...Array.from({ length: 24 }, (_, i) => get(urls[i % 3] ?? '')),
      ...Array.from({ length: 6 }, (_, i) =>
        owner.c.get(`/api/audit-events/export?account=${owner.accountId}&format=${i % 2 ? 'csv' : 'jsonl'}`),
      ),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    const events = await readEvents(owner.accountId);
    const byAction = (action: string) => events.filter((e) => e.action === action);
    expect(byAction('verification.list_read').map((e) => e.changes)).toEqual(
      Array(8).fill({ count: 3, filters: { limit: 100 } }),
    );
    // The form's creation, its going live and the two emitted: every event of the account.
    const eventCount = answers[1]?.json<{ data: unknown[] }>().data.length;
    expect(eventCount).toBe(4);
    expect(byAction('event.list_read').map((e) => e.changes)).toEqual(
      Array(8).fill({ count: eventCount, filters: { limit: 100 } }),
    );
    expect(byAction('audit_log.list_read').map((e) => e.changes)).toEqual(
      Array(8).fill({ count: 1, filters: { limit: 1 } }),
    );
    expect(byAction('audit_log.exported')).toHaveLength(6);
    // Each export says how many lines it gave.
    const exported = answers
      .slice(24)
      .map((a) => a.body.trim().split('\n').length - (a.headers['content-type']?.includes('csv') ? 1 : 0));
    expect(
      byAction('audit_log.exported')
        .map((e) => (e.changes as { count: number }).count)
        .sort(),
    ).toEqual(exported.sort());
    const chain = await storedChainOf(t.db.db, owner.accountId);
    expect(chain.map((e) => e.sequence)).toEqual(chain.map((_, i) => i + 1));
    expect(await verifyChain(chain)).toEqual({ ok: true, count: chain.length });
  });
});
