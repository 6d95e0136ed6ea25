import type {
  ApiKeyScope,
  ApiRevocation,
  ApiRevocationList,
  RevocationList,
  VerificationList,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { keyCall, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { DAY } from '../../test-support/clock.ts';
import { createPublicForm, newCellPhone, verifyPhone } from '../../test-support/public-verify.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';

/**
 * Issue #35: revocations in API v1. A customer's systems record the ones received elsewhere, list every channel's in
 * cursor pages, read one, and acknowledge it once; test keys and live keys see separate worlds; another account's id
 * answers 404; scopes are enforced.
 */

const t = useTestApp();

const scopes: ApiKeyScope[] = ['revocations:read', 'revocations:write'];

const call = (key: string, method: 'GET' | 'POST', url: string, body?: unknown) =>
  keyCall(t.app, key)(method, url, body);

async function create(key: string, body: Record<string, unknown>): Promise<ApiRevocation> {
  const response = await call(key, 'POST', '/api/v1/revocations', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ApiRevocation>();
}

type World = { owner: Owner; liveKey: string; testKey: string; verified: string; verificationId: number };
let w: World;

beforeAll(async () => {
  const owner = await newOwner(t.app);
  const form = await createPublicForm(owner);
  const { e164 } = await verifyPhone(t.app, form.publicId);
  const [row] = await t.db.db
    .select({ id: schema.verifications.id })
    .from(schema.verifications)
    .where(eq(schema.verifications.cellPhone, e164));
  w = {
    owner,
    liveKey: (await newApiKey(owner, scopes, 'live')).key,
    testKey: (await newApiKey(owner, scopes, 'test')).key,
    verified: e164,
    verificationId: row?.id ?? 0,
  };
});

describe('POST /api/v1/revocations', () => {
  it('records one received elsewhere: open, its deadline, the verifications it revokes, its event and audit', async () => {
    const revocation = await create(w.liveKey, {
      phone: w.verified,
      via: 'phone_call',
      note: 'Called the centre: stop texting me.',
    });
    expect(revocation).toMatchObject({
      channel: 'api',
      via: 'phone_call',
      phone: w.verified,
      status: 'open',
      livemode: true,
      verificationIds: [w.verificationId],
      recordedBy: expect.stringMatching(/^vf_live_/),
    });
    expect(revocation.deadline).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const events = await t.db.db
      .select({ data: schema.webhookEvents.data })
      .from(schema.webhookEvents)
      .where(
        and(
          eq(schema.webhookEvents.accountId, w.owner.accountId),
          eq(schema.webhookEvents.type, 'consent.revoked'),
        ),
      );
    expect(events.map((event) => (event.data as ApiRevocation).id)).toContain(revocation.id);
    const audit = await t.db.db
      .select({ action: schema.auditEvents.action, actorType: schema.auditEvents.actorType })
      .from(schema.auditEvents)
      .where(
        and(
          eq(schema.auditEvents.accountId, w.owner.accountId),
          eq(schema.auditEvents.targetId, revocation.id),
        ),
      );
    expect(audit).toEqual([{ action: 'revocation.recorded', actorType: 'api_key' }]);
  });

  it('dates one by receivedAt: its deadline counts from then, so one received weeks ago is overdue at once', async () => {
    const receivedAt = new Date(t.clock.now().getTime() - 30 * DAY).toISOString();
    const revocation = await create(w.liveKey, { email: 'gone@example.com', via: 'email', receivedAt });
    expect(revocation.receivedAt).toBe(receivedAt);
    expect(revocation.status).toBe('overdue');
  });

  it('refuses a bad body with a problem naming the field, and records nothing', async () => {
    const before = await t.db.db.$count(schema.revocations);
    const year = 365 * DAY;
    const cases: [Record<string, unknown>, string][] = [
      [{ via: 'letter' }, '/phone'],
      [{ phone: '12', via: 'letter' }, '/phone'],
      [{ phone: w.verified, via: 'pigeon' }, '/via'],
      [{ phone: 5, via: 'letter' }, '/phone'],
      [{ phone: w.verified, via: 'letter', note: 'a\u0000b' }, '/note'],
      [{ phone: w.verified, via: 'letter', note: 'x'.repeat(2001) }, '/note'],
      [{ phone: w.verified, via: 'letter', receivedAt: '0000-01-01T00:00:00Z' }, '/receivedAt'],
      [{ phone: w.verified, via: 'letter', receivedAt: 'yesterday' }, '/receivedAt'],
      [
        {
          phone: w.verified,
          via: 'letter',
          receivedAt: new Date(t.clock.now().getTime() + DAY).toISOString(),
        },
        '/receivedAt',
      ],
      [
        {
          phone: w.verified,
          via: 'letter',
          receivedAt: new Date(t.clock.now().getTime() - 2 * year).toISOString(),
        },
        '/receivedAt',
      ],
      [{ email: 'not an address', via: 'email' }, '/email'],
    ];
    for (const [body, pointer] of cases) {
      const response = await call(w.liveKey, 'POST', '/api/v1/revocations', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.json<{ errors: { pointer: string }[] }>().errors.map((e) => e.pointer)).toContain(
        pointer,
      );
    }
    expect(await t.db.db.$count(schema.revocations)).toBe(before);
  });

  it('needs revocations:write; reading needs revocations:read', async () => {
    const reader = (await newApiKey(w.owner, ['revocations:read'], 'live')).key;
    const other = (await newApiKey(w.owner, ['verifications:read'], 'live')).key;
    expect(
      (await call(reader, 'POST', '/api/v1/revocations', { phone: w.verified, via: 'other' })).statusCode,
    ).toBe(403);
    expect((await call(reader, 'GET', '/api/v1/revocations')).statusCode).toBe(200);
    expect((await call(other, 'GET', '/api/v1/revocations')).statusCode).toBe(403);
    expect((await call('vf_live_nope', 'GET', '/api/v1/revocations')).statusCode).toBe(401);
  });
});

describe('the verifications a revocation revokes, under concurrent revocations', () => {
  it('the earliest received revokes, whichever commits last: 10 rounds of a backdated one and a new one at once', async () => {
    const form = await createPublicForm(w.owner);
    for (let round = 0; round < 10; round += 1) {
      const { e164 } = await verifyPhone(t.app, form.publicId);
      const earlier = new Date(t.clock.now().getTime() + 1_000).toISOString();
      t.clock.advance(5_000);
      // Both revoke the verification just made: one dated a few seconds after it, one now; sent together.
      const [backdated, current] = await Promise.all([
        create(w.liveKey, { phone: e164, via: 'letter', receivedAt: earlier }),
        create(w.liveKey, { phone: e164, via: 'phone_call' }),
      ]);
      expect(backdated.receivedAt < current.receivedAt).toBe(true);
      const page = await w.owner.c.get(`/api/verifications?account=${w.owner.accountId}&q=${e164.slice(-4)}`);
      const revoked = page
        .json<VerificationList>()
        .results.filter((v) => v.cellPhone === e164)
        .map((v) => v.revocationId);
      expect(revoked, `round ${round}`).toEqual([backdated.id]);
    }
  });
});

describe('GET /api/v1/revocations', () => {
  it('pages newest first without skipping or repeating while new ones arrive, filtered by status and number', async () => {
    const owner = await newOwner(t.app);
    const key = (await newApiKey(owner, scopes, 'live')).key;
    const phone = newCellPhone().e164;
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      made.push((await create(key, { phone: i === 2 ? phone : newCellPhone().e164, via: 'letter' })).id);
      t.clock.advance(1000);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ApiRevocationList = (
        await call(key, 'GET', `/api/v1/revocations?limit=2${cursor ? `&startingAfter=${cursor}` : ''}`)
      ).json();
      seen.push(...page.data.map((r) => r.id));
      cursor = page.nextCursor;
      // One arrives between pages: it is newer than the cursor, so it never shows on a later page.
      if (cursor && seen.length === 2) await create(key, { phone: newCellPhone().e164, via: 'other' });
    } while (cursor);
    expect(seen).toEqual([...made].reverse());

    const byPhone = (await call(key, 'GET', `/api/v1/revocations?phone=${encodeURIComponent(phone)}`)).json();
    expect(byPhone.data.map((r: ApiRevocation) => r.id)).toEqual([made[2]]);
    const acknowledged = await call(key, 'GET', '/api/v1/revocations?status=acknowledged');
    expect(acknowledged.json<ApiRevocationList>().data).toEqual([]);
  });

  it('answers 400 to a cursor it never handed out, and to a bad status', async () => {
    for (const query of ['startingAfter=nope', 'status=closed', 'limit=0', 'limit=101', 'phone=12']) {
      const response = await call(w.liveKey, 'GET', `/api/v1/revocations?${query}`);
      expect(response.statusCode, query).toBe(400);
    }
  });
});

describe('test mode and tenancy', () => {
  it('keeps a test key’s revocations apart: the live key, another account and the app never see them', async () => {
    const test = await create(w.testKey, { phone: w.verified, via: 'other' });
    // A test revocation revokes test verifications only: the live verification of the number is not among them.
    expect(test).toMatchObject({ livemode: false, verificationIds: [] });
    expect((await call(w.liveKey, 'GET', `/api/v1/revocations/${test.id}`)).statusCode).toBe(404);
    expect((await call(w.liveKey, 'POST', `/api/v1/revocations/${test.id}/acknowledge`)).statusCode).toBe(
      404,
    );
    const liveList = (
      await call(w.liveKey, 'GET', '/api/v1/revocations?limit=100')
    ).json<ApiRevocationList>();
    expect(liveList.data.map((r) => r.id)).not.toContain(test.id);
    const testList = (
      await call(w.testKey, 'GET', '/api/v1/revocations?limit=100')
    ).json<ApiRevocationList>();
    expect(testList.data.every((r) => !r.livemode)).toBe(true);
    expect(testList.data.map((r) => r.id)).toContain(test.id);
    const app = await w.owner.c.get(`/api/revocations?account=${w.owner.accountId}&pageSize=100`);
    expect(app.json<RevocationList>().results.map((r) => r.id)).not.toContain(test.id);

    const stranger = await newOwner(t.app);
    const strangerKey = (await newApiKey(stranger, scopes, 'test')).key;
    expect((await call(strangerKey, 'GET', `/api/v1/revocations/${test.id}`)).statusCode).toBe(404);
    expect((await call(strangerKey, 'POST', `/api/v1/revocations/${test.id}/acknowledge`)).statusCode).toBe(
      404,
    );
    expect((await call(strangerKey, 'GET', `/api/v1/revocations?startingAfter=${test.id}`)).statusCode).toBe(
      400,
    );
  });
});

describe('POST /api/v1/revocations/{id}/acknowledge', () => {
  it('acknowledges once under concurrent calls: one 200, the rest 409, one event', async () => {
    const revocation = await create(w.liveKey, { phone: newCellPhone().e164, via: 'letter' });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(w.liveKey, 'POST', `/api/v1/revocations/${revocation.id}/acknowledge`),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const ok = answers.find((answer) => answer.statusCode === 200);
    expect(ok?.json<ApiRevocation>()).toMatchObject({
      status: 'acknowledged',
      acknowledgedAt: expect.any(String),
    });
    expect(answers.find((answer) => answer.statusCode === 409)?.json()).toMatchObject({
      code: 'revocation_not_open',
      status: 409,
    });
    const events = await t.db.db
      .select({ id: schema.webhookEvents.id })
      .from(schema.webhookEvents)
      .where(
        and(
          eq(schema.webhookEvents.accountId, w.owner.accountId),
          eq(schema.webhookEvents.type, 'revocation.acknowledged'),
        ),
      );
    expect(events).toHaveLength(1);
    const read = await call(w.liveKey, 'GET', `/api/v1/revocations/${revocation.id}`);
    expect(read.json<ApiRevocation>().status).toBe('acknowledged');
  });

  it('answers 404 to an unknown id', async () => {
    expect(
      (await call(w.liveKey, 'POST', '/api/v1/revocations/AAAAAAAAAAAAAAAAAAAAAA/acknowledge')).statusCode,
    ).toBe(404);
  });
});
