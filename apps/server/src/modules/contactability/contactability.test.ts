import type { ContactabilityCheck, ContactabilityCheckPage } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { keyCall, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { DAY } from '../../test-support/clock.ts';
import { createPublicForm, newCellPhone, verifyPhone } from '../../test-support/public-verify.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';

/**
 * "May I contact this number now?" in the app (issue #35, Activity Log › Contactability): a member asks, the verdict
 * is kept like API v1's with the member's e-mail, and the app lists the live verdicts of every asker, newest first,
 * filtered by number and verdict, in offset pages.
 */

const t = useTestApp();

const ask = (person: Pick<Owner, 'c'>, accountId: number, body: unknown) =>
  person.c.post(`/api/contactability?account=${accountId}`, body);

async function list(owner: Owner, query = ''): Promise<ContactabilityCheckPage> {
  const response = await owner.c.get(`/api/contactability/checks?account=${owner.accountId}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ContactabilityCheckPage>();
}

async function checksOf(accountId: number) {
  return t.db.db
    .select({ id: schema.contactabilityChecks.id })
    .from(schema.contactabilityChecks)
    .where(eq(schema.contactabilityChecks.accountId, accountId));
}

describe('POST /api/contactability', () => {
  it('a number never verified: not allowed, no consent; kept with the member’s e-mail and listed first', async () => {
    const owner = await newOwner(t.app);
    const phone = newCellPhone();
    const response = await ask(owner, owner.accountId, { phone: phone.typed, purpose: 'informational' });
    expect(response.statusCode, response.body).toBe(200);
    const verdict = response.json<ContactabilityCheck>();
    expect(verdict).toMatchObject({
      phone: phone.e164,
      channel: 'sms',
      purpose: 'informational',
      allowed: false,
      reasons: [{ code: 'no_consent', text: expect.any(String) }],
      consent: null,
      consentLogId: null,
      askedBy: owner.email,
      livemode: true,
      timeZone: 'America/Los_Angeles',
      state: 'CA',
      checkedAt: t.clock.now().toISOString(),
      at: t.clock.now().toISOString(),
    });
    // Listed later, the same object, what it did about a reassigned-number check included (ADR 43).
    expect(verdict).toMatchObject({ reassignment: null, reassignmentCheck: 'off' });
    const page = await list(owner);
    expect(page).toEqual({ count: 1, pageNumber: 1, pageSize: 25, results: [verdict] });
  });

  it('a verified number: allowed (informational), its consent linked to the Activity Log’s verification', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const { e164 } = await verifyPhone(t.app, form.publicId);
    const [verification] = await t.db.db
      .select({ id: schema.verifications.id })
      .from(schema.verifications)
      .where(
        and(eq(schema.verifications.accountId, owner.accountId), eq(schema.verifications.cellPhone, e164)),
      );
    t.clock.advance(1000);
    const response = await ask(owner, owner.accountId, {
      phone: e164,
      purpose: 'informational',
      channel: 'voice',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<ContactabilityCheck>()).toMatchObject({
      allowed: true,
      reasons: [],
      channel: 'voice',
      consent: { verificationId: expect.any(String), verifiedAt: expect.any(String) },
      consentLogId: verification?.id,
      revokedAt: null,
    });
  });

  it('asks about another time within a year: `at` kept as asked', async () => {
    const owner = await newOwner(t.app);
    const at = new Date(t.clock.now().getTime() + 3 * DAY).toISOString();
    const response = await ask(owner, owner.accountId, { phone: '+12015550140', at });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<ContactabilityCheck>()).toMatchObject({ at, purpose: 'marketing' });
  });

  it('refuses a bad number, a year 0000 or far-off `at`, wrong types and oversize values (400 on the field, nothing kept)', async () => {
    const owner = await newOwner(t.app);
    const bad: [unknown, string][] = [
      [{ phone: '12' }, 'phone'],
      [{ phone: 'not a number' }, 'phone'],
      [{}, 'phone'],
      [{ phone: '' }, 'phone'],
      [{ phone: 2015550140 }, 'phone'],
      [{ phone: ['+12015550140'] }, 'phone'],
      [{ phone: '+12015550140'.padEnd(33, '0') }, 'phone'],
      [{ phone: '+12015550140', channel: 'fax' }, 'channel'],
      [{ phone: '+12015550140', purpose: 1 }, 'purpose'],
      [{ phone: '+12015550140', at: '0000-01-01T00:00:00Z' }, 'at'],
      [{ phone: '+12015550140', at: 'tomorrow' }, 'at'],
      [{ phone: '+12015550140', at: 1767225600000 }, 'at'],
      [{ phone: '+12015550140', at: '2015-01-01T00:00:00Z' }, 'at'],
    ];
    for (const [body, field] of bad) {
      const response = await ask(owner, owner.accountId, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.json()), JSON.stringify(body)).toContain(field);
    }
    // A body over the JSON limit (1 MiB) is refused before it is read.
    const huge = await ask(owner, owner.accountId, { phone: '1'.repeat(1_100_000) });
    expect(huge.statusCode).toBe(413);
    // Not JSON at all.
    const notJson = await owner.c.request({
      method: 'POST',
      url: `/api/contactability?account=${owner.accountId}`,
      headers: { 'content-type': 'application/json' },
      rawBody: '{"phone":',
    });
    expect(notJson.statusCode).toBe(400);
    expect(await checksOf(owner.accountId)).toEqual([]);
  });
});

describe('who may ask and list', () => {
  it('another account’s id answers 404 like an unknown one; nothing is kept there', async () => {
    const owner = await newOwner(t.app);
    const other = await newOwner(t.app, 'Other Inc.');
    for (const accountId of [other.accountId, 2_000_000_000]) {
      const asked = await ask(owner, accountId, { phone: '+12015550140' });
      expect(asked.statusCode).toBe(404);
      expect(asked.json()).toEqual({ detail: 'Not found.', MainCode_: 'not_found' });
      const listed = await owner.c.get(`/api/contactability/checks?account=${accountId}`);
      expect(listed.statusCode).toBe(404);
    }
    expect(await checksOf(other.accountId)).toEqual([]);
  });

  it('a member without canSearchData gets 403; one with it asks and lists (their e-mail kept)', async () => {
    const owner = await newOwner(t.app);
    const plain = await join(t.app, owner);
    const searcher = await join(t.app, owner, { canSearchData: true });
    const refused = await ask(plain, owner.accountId, { phone: '+12015550140' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      detail: 'You are not permitted to perform that action.',
      MainCode_: 'permission_denied',
    });
    expect((await plain.c.get(`/api/contactability/checks?account=${owner.accountId}`)).statusCode).toBe(403);

    const asked = await ask(searcher, owner.accountId, { phone: '+12015550140' });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json<ContactabilityCheck>().askedBy).toBe(searcher.email);
    const listed = await searcher.c.get(`/api/contactability/checks?account=${owner.accountId}`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json<ContactabilityCheckPage>().results.map((c) => c.askedBy)).toEqual([searcher.email]);
    expect(await checksOf(owner.accountId)).toHaveLength(1);
  });

  it('an API key gets 403 on the app’s routes (its own are API v1’s)', async () => {
    const owner = await newOwner(t.app);
    const { key } = await newApiKey(owner, ['contactability:read'], 'live');
    const call = keyCall(t.app, key);
    expect((await call('GET', `/api/contactability/checks?account=${owner.accountId}`)).statusCode).toBe(403);
    expect(
      (await call('POST', `/api/contactability?account=${owner.accountId}`, { phone: '+12015550140' }))
        .statusCode,
    ).toBe(403);
  });
});

describe('GET /api/contactability/checks', () => {
  it('lists the live verdicts of members and live keys (not test keys’), newest first; filters; pages', async () => {
    const owner = await newOwner(t.app);
    const live = await newApiKey(owner, ['contactability:read'], 'live');
    const test = await newApiKey(owner, ['contactability:read'], 'test');
    const first = (
      await ask(owner, owner.accountId, { phone: '(201) 555-0141' })
    ).json<ContactabilityCheck>();
    t.clock.advance(1000);
    const byKey = await keyCall(t.app, live.key)('GET', '/api/v1/contactability?phone=%2B12015550142');
    expect(byKey.statusCode, byKey.body).toBe(200);
    const fromTest = await keyCall(t.app, test.key)('GET', '/api/v1/contactability?phone=%2B12015550143');
    expect(fromTest.statusCode, fromTest.body).toBe(200);

    const all = await list(owner);
    expect(all.count).toBe(2);
    expect(all.results.map((c) => [c.phone, c.askedBy])).toEqual([
      ['+12015550142', live.prefix],
      ['+12015550141', owner.email],
    ]);

    // The number by any run of its digits, as typed; text without digits matches nothing.
    expect((await list(owner, '&phone=555-0141')).results.map((c) => c.id)).toEqual([first.id]);
    expect((await list(owner, `&phone=${encodeURIComponent('+1 (201) 555-0141')}`)).count).toBe(1);
    expect((await list(owner, '&phone=abc')).count).toBe(0);
    // The verdict: neither number was ever verified.
    expect((await list(owner, '&allowed=false')).count).toBe(2);
    expect((await list(owner, '&allowed=true')).count).toBe(0);
    // A bad filter value falls back, as the log's filters do.
    expect((await list(owner, '&allowed=maybe')).count).toBe(2);

    const second = await list(owner, '&pageSize=1&pageNumber=2');
    expect(second).toMatchObject({ count: 2, pageNumber: 2, pageSize: 1 });
    expect(second.results.map((c) => c.id)).toEqual([first.id]);
    expect((await list(owner, '&pageSize=1&pageNumber=3')).results).toEqual([]);
  });
});
