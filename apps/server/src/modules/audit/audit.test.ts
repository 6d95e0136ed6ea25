import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { promisify } from 'node:util';
import type { AuditEventList, AuditEventListItem, CreatedApiKey } from '@veriform/contracts';
import { schema, transaction } from '@veriform/db';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../config.ts';
import { apiV1, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { storedChainOf } from '../../test-support/audit.ts';
import { parseCsv } from '../../test-support/csv.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import { type ChainedEvent, GENESIS_HASH, verifyChain } from './chain.ts';
import { auditTarget, NO_ORIGIN } from './log.ts';
import { pruneAuditEvents } from './retention.ts';
import { chainFromDatabase } from './sources.ts';

const t = useTestApp();
const run = promisify(execFile);

async function eventsOf(owner: Owner, query = ''): Promise<AuditEventListItem[]> {
  const response = await owner.c.get(`/api/audit-events?account=${owner.accountId}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditEventList>().results;
}

/** The account's chain as stored, in order, in the form the check reads. */
const storedChain = (accountId: number) => storedChainOf(t.db.db, accountId);

const exportLines = async (owner: Owner, format: 'csv' | 'jsonl') => {
  const response = await owner.c.get(`/api/audit-events/export?account=${owner.accountId}&format=${format}`);
  expect(response.statusCode, response.body).toBe(200);
  return response;
};

describe('the audit log', () => {
  it('records API keys created and revoked with actor, target, changes and origin, in one verifiable chain', async () => {
    const owner = await newOwner(t.app);
    const created = await owner.c.request({
      method: 'POST',
      url: '/api/api-keys',
      body: { account: owner.accountId, name: 'CRM', mode: 'test', scopes: ['forms:read'] },
      headers: { 'user-agent': 'Audit-Test/1.0' },
    });
    const key = created.json<CreatedApiKey>();
    await owner.c.request({ method: 'DELETE', url: `/api/api-keys/${key.id}` });
    // A second revocation changes nothing and records nothing.
    await owner.c.request({ method: 'DELETE', url: `/api/api-keys/${key.id}` });

    const events = await eventsOf(owner);
    expect(events.map((e) => e.action)).toEqual(['api_key.revoked', 'api_key.created']);
    const [revoked, made] = events;
    expect(made).toMatchObject({
      sequence: 1,
      actor: { type: 'user', id: String(owner.userId), name: owner.email },
      targets: [{ type: 'api_key', id: String(key.id), name: `CRM (${key.prefix}…)` }],
      changes: { mode: [null, 'test'], scopes: [null, ['forms:read']] },
      ip: expect.any(String),
      userAgent: 'Audit-Test/1.0',
      requestId: expect.any(String),
      prevHash: GENESIS_HASH,
    });
    expect(revoked).toMatchObject({ sequence: 2, prevHash: made?.hash });
    expect(await verifyChain(await storedChain(owner.accountId))).toEqual({ ok: true, count: 2 });
    const counted = async (query: string) =>
      (await owner.c.get(`/api/audit-events?account=${owner.accountId}${query}`)).json<AuditEventList>()
        .count;
    expect(await counted('')).toBe(2);
    expect(await counted('&action=api_key.revoked')).toBe(1);

    // Filters: by action, actor, target.
    expect((await eventsOf(owner, '&action=api_key.created')).map((e) => e.sequence)).toEqual([1]);
    expect(await eventsOf(owner, `&actorType=user&actorId=${owner.userId}`)).toHaveLength(2);
    expect(await eventsOf(owner, `&targetType=api_key&targetId=${key.id}`)).toHaveLength(2);
    expect(await eventsOf(owner, '&targetType=form')).toHaveLength(0);
    expect(await eventsOf(owner, '&created__date__preset=yesterday&tz=UTC')).toHaveLength(0);
  });

  it('names each acting person as they are now, beside the stored e-mail; a deleted user keeps the e-mail alone', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    await newApiKey(owner, ['forms:read'], 'test', 'Reports');
    const nameOf = async (id: number) =>
      (await t.db.db.select().from(schema.users).where(eq(schema.users.id, id)))[0]?.name;
    const ownerName = await nameOf(owner.userId);
    expect(ownerName).toMatch(/\S/);

    const before = await eventsOf(owner);
    const by = (events: AuditEventListItem[], userId: number) =>
      events.filter((e) => e.actor.type === 'user' && e.actor.id === String(userId));
    const [madeKey] = by(before, owner.userId);
    expect(madeKey).toMatchObject({
      action: 'api_key.created',
      actor: { type: 'user', id: String(owner.userId), name: owner.email },
      actorUserName: ownerName,
    });
    const [joined] = by(before, member.userId);
    expect(joined).toMatchObject({
      action: 'invitation.accepted',
      actorUserName: await nameOf(member.userId),
    });

    // A rename shows at once; the stored event (and so the chain) is untouched.
    await t.db.db.update(schema.users).set({ name: 'Ada Lovelace' }).where(eq(schema.users.id, owner.userId));
    // The member's user is deleted: the e-mail recorded at the time is all there is.
    await t.db.db.delete(schema.memberships).where(eq(schema.memberships.userId, member.userId));
    await t.db.db.delete(schema.users).where(eq(schema.users.id, member.userId));
    const after = await eventsOf(owner);
    expect(by(after, owner.userId)[0]).toMatchObject({
      actor: { name: owner.email },
      actorUserName: 'Ada Lovelace',
      hash: madeKey?.hash,
    });
    expect(by(after, member.userId)[0]).toMatchObject({ actor: { name: member.email }, actorUserName: null });
    expect(await verifyChain(await storedChain(owner.accountId))).toMatchObject({ ok: true });
  });

  it('is for owners: a member gets 403, another account’s owner 404, an audit:read key reads it through API v1', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const stranger = await newOwner(t.app, 'Other Inc.');
    const { key } = await newApiKey(owner, ['audit:read'], 'live');
    expect((await member.c.get(`/api/audit-events?account=${owner.accountId}`)).statusCode).toBe(403);
    expect((await stranger.c.get(`/api/audit-events?account=${owner.accountId}`)).statusCode).toBe(404);
    expect((await stranger.c.get(`/api/audit-events/export?account=${owner.accountId}`)).statusCode).toBe(
      404,
    );
    expect(await eventsOf(stranger)).toEqual([]);

    const page = await apiV1(t.app, key).GET('/api/v1/audit-events', { params: { query: { limit: 10 } } });
    expect(page.response.status).toBe(200);
    // The key's own creation is the newest event (the member's joining came before it).
    expect(page.data?.data[0]?.action).toBe('api_key.created');
    const { key: noScope } = await newApiKey(owner, ['forms:read']);
    expect((await apiV1(t.app, noScope).GET('/api/v1/audit-events')).response.status).toBe(403);
  });

  // ~10 s alone on either engine (three keys, then the chain checked four ways): its own limit, not the file's 20 s.
  it('the database refuses to edit or delete an event; a tampered row or export line is named by the check', async () => {
    const owner = await newOwner(t.app);
    for (const name of ['One', 'Two', 'Three']) await newApiKey(owner, ['forms:read'], 'test', name);
    await expect(
      t.db.db.execute(
        sql`update audit_events set actor_name = 'someone else' where account_id = ${owner.accountId}`,
      ),
    ).rejects.toThrow();
    await expect(
      t.db.db.execute(sql`delete from audit_events where account_id = ${owner.accountId}`),
    ).rejects.toThrow();

    // The export checks out, oldest first; one changed byte in a line is caught at that event.
    const jsonl = (await exportLines(owner, 'jsonl')).body.trim().split('\n');
    const parsed = jsonl.map((line) => JSON.parse(line) as ChainedEvent & { id: number });
    expect(parsed.map((e) => e.sequence)).toEqual([1, 2, 3]);
    const fromExport = (lines: string[]) =>
      lines.map((line) => {
        const { id: _id, ...event } = JSON.parse(line) as ChainedEvent & { id: number };
        return event;
      });
    expect(await verifyChain(fromExport(jsonl))).toEqual({ ok: true, count: 3 });
    const tampered = [...jsonl];
    tampered[1] = (tampered[1] ?? '').replace('"Two', '"Tw0');
    expect(await verifyChain(fromExport(tampered))).toMatchObject({ ok: false, sequence: 2 });
    expect(await verifyChain(fromExport([jsonl[0] ?? '', jsonl[2] ?? '']))).toMatchObject({
      ok: false,
      sequence: 3,
    });

    // Someone with the database's keys edits a row behind the application's back: the check names it.
    await transaction(t.db.db, async (tx) => {
      await tx.execute(sql`alter table audit_events disable trigger audit_events_append_only`);
      await tx.execute(
        sql`update audit_events set ip = '198.51.100.1' where account_id = ${owner.accountId} and sequence = 2`,
      );
      await tx.execute(sql`alter table audit_events enable trigger audit_events_append_only`);
    });
    expect(await verifyChain(await storedChain(owner.accountId))).toMatchObject({ ok: false, sequence: 2 });
    expect(await verifyChain(chainFromDatabase(t.db.db, owner.accountId))).toMatchObject({
      ok: false,
      sequence: 2,
    });

    // `npm run audit:verify -- --file` on the export as downloaded, and on it with one line changed.
    const dir = await mkdtemp(joinPath(tmpdir(), 'veriform-audit-'));
    const good = joinPath(dir, 'good.jsonl');
    const bad = joinPath(dir, 'bad.jsonl');
    await writeFile(good, `${jsonl.join('\n')}\n`);
    await writeFile(bad, `${tampered.join('\n')}\n`);
    const cli = (file: string) =>
      run(process.execPath, [joinPath(repoRoot, 'scripts', 'audit-verify.ts'), '--file', file]).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
    expect(await cli(good)).toEqual({ code: 0, stdout: 'OK, 3 events\n' });
    expect(await cli(bad)).toEqual({
      code: 1,
      stdout: 'BROKEN at event 2: its hash does not match its content (2 events read)\n',
    });

    const csv = (await exportLines(owner, 'csv')).body.split('\r\n');
    expect(csv[0]).toBe(
      'Sequence,Time (UTC),Actor type,Actor id,Actor,Action,Action name,Target type,Target id,Target,Changes,IP,User agent,Request id,Previous hash,Hash',
    );
    expect(csv[1]).toMatch(/^1,.*,user,\d+,.*,Created an API key,api_key\.created,api_key,/);
  }, 60_000);

  it('the database hashes an event as the published rule does, whatever its text holds', async () => {
    // The hash is computed in SQL from the server's canonical JSON (migration 0027); the check recomputes it in Node.
    const owner = await newOwner(t.app);
    const awkward = [
      'Solicitud de préstamo — ñandú',
      'emoji 🧾 and a tab \t',
      'quotes " and backslashes \\ and a newline\n',
      'what a marker looks like: sequence-00 prev-hash-00',
      '',
    ];
    for (const [i, name] of awkward.entries()) {
      await t.app.services.audit.recordAsSystem(t.db.db, owner.accountId, {
        action: 'api_key.created',
        targets: [{ type: 'api_key', id: String(i), name }],
        changes: { name: [null, name], nested: [{ b: 1, a: [name] }, null] },
      });
    }
    const chain = await storedChain(owner.accountId);
    expect(chain.map((e) => e.targets[0]?.name)).toEqual(awkward);
    expect(await verifyChain(chain)).toEqual({ ok: true, count: awkward.length });
  });

  it('the CSV guards every formula start as the activity log’s does, full-width ＝ ＋ － ＠ included', async () => {
    // One guard for every export (lib/csv.ts): the audit CSV once let the full-width forms through (issue #34).
    const owner = await newOwner(t.app);
    const formulas = ['=SUM(1)', '+1', '-1', '@A1', '\tTAB', '＝SUM(1)', '＋1', '－1', '＠A1'];
    for (const [i, name] of formulas.entries()) {
      await t.app.services.audit.recordAsSystem(t.db.db, owner.accountId, {
        action: 'api_key.created',
        targets: [{ type: 'api_key', id: String(i), name }],
      });
    }
    const rows = parseCsv((await exportLines(owner, 'csv')).body.replace(/^\uFEFF/, ''));
    const targetColumn = rows[0]?.indexOf('Target') ?? -1;
    expect(targetColumn).toBeGreaterThan(0);
    const targets = rows.slice(1).map((row) => row[targetColumn]);
    for (const name of formulas) expect(targets).toContain(`'${name}`);
    for (const target of targets) expect(target ?? '').not.toMatch(/^[=+\-@＝＋－＠\t\r]/);
  });

  it('events of one account written at once from many requests keep one chain without gaps', async () => {
    const owner = await newOwner(t.app);
    const other = await newOwner(t.app, 'Parallel Inc.');
    const made = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        newApiKey(i % 4 === 0 ? other : owner, ['forms:read'], 'test', `K${i}`),
      ),
    );
    expect(made).toHaveLength(16);
    const chain = await storedChain(owner.accountId);
    expect(chain.map((e) => e.sequence)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(await verifyChain(chain)).toEqual({ ok: true, count: 12 });
    expect(await verifyChain(await storedChain(other.accountId))).toEqual({ ok: true, count: 4 });
  });
});

/** The owner's client, logged in again (after the clock moved past the session's lifetime). */
async function loggedIn(owner: Owner) {
  const response = await owner.c.login(owner.email, owner.password);
  expect(response.statusCode, response.body).toBe(200);
  return owner.c;
}

describe('retention', () => {
  const YEAR = 366 * 24 * 60 * 60 * 1000;

  it('removes events past the account’s retention from the chain’s start, records audit.pruned, and still verifies', async () => {
    const owner = await newOwner(t.app);
    const kept = await newOwner(t.app, 'Seven Years Inc.');
    await t.db.db
      .update(schema.accounts)
      .set({ auditRetentionYears: 7 })
      .where(eq(schema.accounts.id, kept.accountId));
    for (const name of ['Old 1', 'Old 2', 'Old 3']) {
      await newApiKey(owner, ['forms:read'], 'test', name);
      await newApiKey(kept, ['forms:read'], 'test', name);
    }
    t.clock.advance(2 * YEAR);
    // Two years on (the sessions above have long expired): a recent event, written as a sign-in's would be.
    const person = { id: owner.userId, email: owner.email };
    await t.app.services.audit.recordForUser(t.db.db, person, NO_ORIGIN, {
      action: 'user.password_changed',
      targets: [auditTarget.user(person)],
    });

    // This account's three, and every other account's of this file (all two years old now).
    expect(await pruneAuditEvents(t.app.services)).toBeGreaterThanOrEqual(3);
    const chain = await storedChain(owner.accountId);
    expect(chain.map((e) => [e.sequence, e.action])).toEqual([
      [4, 'user.password_changed'],
      [5, 'audit.pruned'],
    ]);
    expect(chain[1]).toMatchObject({
      actor: { type: 'system', id: null, name: 'Veriform' },
      changes: { removedCount: 3, removedThrough: 3, lastRemovedHash: chain[0]?.prevHash },
    });
    expect(await verifyChain(chain)).toEqual({ ok: true, count: 2 });
    // The export verifies too; without its audit.pruned event, a chain starting mid-way does not.
    const exported = await t.app.inject({
      url: `/api/audit-events/export?account=${owner.accountId}&format=jsonl`,
      headers: { cookie: (await loggedIn(owner)).cookieHeader() },
    });
    const jsonl = exported.body.trim().split('\n');
    const events = jsonl.map((line) => {
      const { id: _id, ...event } = JSON.parse(line) as ChainedEvent & { id: number };
      return event;
    });
    // (Logging in again may have added its own event after the pruning.)
    expect(events[0]?.sequence).toBe(4);
    expect(await verifyChain(events)).toEqual({ ok: true, count: events.length });
    expect(await verifyChain(events.slice(0, 1))).toMatchObject({ ok: false, sequence: 4 });
    // The unfiltered total is the span of the chain's sequences: exact after the oldest went. The export's own event
    // (audit_log.exported, issue #33) came after what it gave.
    const listed = await t.app.inject({
      url: `/api/audit-events?account=${owner.accountId}`,
      headers: { cookie: owner.c.cookieHeader() },
    });
    expect(listed.json<AuditEventList>().count).toBe(events.length + 1);
    // Seven years' retention: nothing of that account went.
    expect((await storedChain(kept.accountId)).map((e) => e.sequence)).toEqual([1, 2, 3]);
    // Nothing more is due: no second audit.pruned.
    expect(await pruneAuditEvents(t.app.services)).toBe(0);
    expect((await storedChain(owner.accountId)).filter((e) => e.action === 'audit.pruned')).toHaveLength(1);
  });
});

describe('the retention setting', () => {
  it('owners set 1–7 years through the company, recorded as account.updated; members cannot; out of range is a 400', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const url = `/api/accounts/${owner.accountId}`;
    expect((await owner.c.get(url)).json<{ auditRetentionYears: number }>().auditRetentionYears).toBe(2);
    const set = await owner.c.patch(url, { auditRetentionYears: 5 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<{ auditRetentionYears: number }>().auditRetentionYears).toBe(5);
    expect((await eventsOf(owner, '&action=account.updated'))[0]).toMatchObject({
      changes: { auditRetentionYears: [2, 5] },
    });
    for (const years of [0, 8, 2.5, '3']) {
      const refused = await owner.c.patch(url, { auditRetentionYears: years });
      expect(refused.statusCode, String(years)).toBe(400);
      expect(refused.json()).toHaveProperty('auditRetentionYears');
    }
    expect((await member.c.patch(url, { auditRetentionYears: 7 })).statusCode).toBe(403);
    expect((await owner.c.get(url)).json<{ auditRetentionYears: number }>().auditRetentionYears).toBe(5);
  });
});
