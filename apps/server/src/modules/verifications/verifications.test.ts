import { randomBytes } from 'node:crypto';
import { errorTexts, type VerificationList, type VerifyForm } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';

const t = useTestApp();

async function createForm(owner: Owner, name = 'Sign-up'): Promise<VerifyForm> {
  const response = await owner.c.post('/api/verify-forms', {
    account: owner.accountId,
    name,
    category: 'Retail',
  });
  if (response.statusCode !== 201) throw new Error(`create form: ${response.statusCode} ${response.body}`);
  return response.json<VerifyForm>();
}

/** Verifications straight in the database: the public send/check API makes them in production. */
async function insertVerification(
  form: VerifyForm,
  values: Partial<typeof schema.verifications.$inferInsert> = {},
) {
  const [row] = await t.db.db
    .insert(schema.verifications)
    .values({
      accountId: form.account,
      verifyFormId: form.id,
      cellPhone: `+1201555${randomBytes(2).readUInt16BE() % 10000}`.padEnd(12, '0'),
      verifyFormName: form.name,
      verifyFormCategory: form.category,
      verificationMethod: 'sms',
      createdAt: t.clock.now(),
      ...values,
    })
    .returning();
  if (!row) throw new Error('verification insert returned no row');
  return row;
}

const get = async (owner: Pick<Owner, 'c'>, query: string) => {
  const response = await owner.c.get(`/api/verifications?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<VerificationList>();
};

describe('GET /api/verifications', () => {
  it('lists the account’s verifications newest first, paged, with the Verification shape', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const base = t.clock.now().getTime();
    const older = await insertVerification(form, {
      createdAt: new Date(base - 60_000),
      externalRefId: 'CRM-1',
    });
    // Two at the same instant: the higher id comes first.
    const sameA = await insertVerification(form, { createdAt: new Date(base), verificationMethod: 'email' });
    // Live, as the log's default view shows (issue #33).
    const sameB = await insertVerification(form, { createdAt: new Date(base) });

    const page = await get(owner, `account=${owner.accountId}`);
    expect(page.count).toBe(3);
    expect(page.pageNumber).toBe(1);
    expect(page.pageSize).toBe(10);
    expect(page.results.map((v) => v.id)).toEqual([sameB.id, sameA.id, older.id]);
    expect(page.results[2]).toEqual({
      id: older.id,
      cellPhone: older.cellPhone,
      externalRefId: 'CRM-1',
      verifyFormId: form.id,
      verifyFormName: 'Sign-up',
      verifyFormCategory: 'Retail',
      verificationMethod: 'sms',
      isTest: false,
      source: 'hosted',
      created: new Date(base - 60_000).toISOString(),
      // Not revoked (issue #35): no revocation of its number since.
      revokedAt: null,
      revocationId: null,
    });
    expect(page.results[0]?.isTest).toBe(false);

    const second = await get(owner, `account=${owner.accountId}&pageSize=2&pageNumber=2`);
    expect(second).toMatchObject({ count: 3, pageNumber: 2, pageSize: 2 });
    expect(second.results.map((v) => v.id)).toEqual([older.id]);
  });

  it('filters by form; another account’s form ids match nothing; bad paging falls back', async () => {
    const owner = await newOwner(t.app);
    const formA = await createForm(owner, 'A');
    const formB = await createForm(owner, 'B');
    const a = await insertVerification(formA);
    const b = await insertVerification(formB);
    const stranger = await newOwner(t.app, 'Stranger');
    const strangers = await createForm(stranger);
    await insertVerification(strangers);

    expect((await get(owner, `account=${owner.accountId}&verifyFormId__in=${formA.id}`)).results).toEqual([
      expect.objectContaining({ id: a.id }),
    ]);
    const both = await get(owner, `account=${owner.accountId}&verifyFormId__in=${formA.id},${formB.id}`);
    expect(both.results.map((v) => v.id).sort()).toEqual([a.id, b.id].sort());
    expect(await get(owner, `account=${owner.accountId}&verifyFormId__in=${strangers.id}`)).toMatchObject({
      count: 0,
      results: [],
    });
    const fallback = await get(
      owner,
      `account=${owner.accountId}&pageNumber=-2&pageSize=abc&verifyFormId__in=x`,
    );
    expect(fallback).toMatchObject({ count: 2, pageNumber: 1, pageSize: 10 });
  });

  it('needs canSearchData: a member without it gets 403, with it 200; another account 404', async () => {
    const owner = await newOwner(t.app);
    const plain = await join(t.app, owner);
    const searcher = await join(t.app, owner, { canSearchData: true });
    const denied = await plain.c.get(`/api/verifications?account=${owner.accountId}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ detail: errorTexts.permissionDenied, MainCode_: 'permission_denied' });
    expect((await searcher.c.get(`/api/verifications?account=${owner.accountId}`)).statusCode).toBe(200);

    const stranger = await newOwner(t.app, 'Stranger');
    const other = await stranger.c.get(`/api/verifications?account=${owner.accountId}`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ detail: 'Not found.', MainCode_: 'not_found' });
  });
});
