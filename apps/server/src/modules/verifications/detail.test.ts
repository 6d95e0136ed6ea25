import { errorTexts, type VerificationDetail } from '@veriform/contracts';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { join, newOwner } from '../../test-support/teams.ts';
import { createForm, insertVerification, verifyOnHostedPage, verifyThroughApi } from './test-helpers.ts';

/** GET /api/verifications/{id}: one verification with its evidence (SPEC §2 /activity-log/{id}, DESIGN §5). */

const t = useTestApp();
const notFound = { detail: 'Not found.', MainCode_: 'not_found' };

describe('GET /api/verifications/{id}', () => {
  it('answers the verification with its evidence', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner, { name: 'Loans', category: 'Lending' });
    const row = await insertVerification(t, form, {
      cellPhone: '+14155550142',
      externalRefId: 'CRM-7',
      verificationMethod: 'email',
      email: 'ana@example.com',
      codeSentAt: new Date('2026-05-01T12:00:00Z'),
      verifiedAt: new Date('2026-05-01T12:01:30Z'),
      attempts: 2,
      ip: '203.0.113.9',
      userAgent: 'Mozilla/5.0 (iPhone)',
      createdAt: new Date('2026-05-01T12:01:30Z'),
    });
    const response = await owner.c.get(`/api/verifications/${row.id}?account=${owner.accountId}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<VerificationDetail>()).toEqual({
      id: row.id,
      cellPhone: '+14155550142',
      externalRefId: 'CRM-7',
      verifyFormId: form.id,
      verifyFormName: 'Loans',
      verifyFormCategory: 'Lending',
      verificationMethod: 'email',
      isTest: false,
      source: 'hosted',
      created: '2026-05-01T12:01:30.000Z',
      email: 'ana@example.com',
      codeSentAt: '2026-05-01T12:00:00.000Z',
      verifiedAt: '2026-05-01T12:01:30.000Z',
      attempts: 2,
      ip: '203.0.113.9',
      userAgent: 'Mozilla/5.0 (iPhone)',
      // Inserted without a consent version (issue #18; public-consent.test.ts shows one recorded).
      consent: null,
      redactedAt: null,
      // No revocation of its number or address (issue #35; revocations.test.ts in this folder shows one).
      revokedAt: null,
      revocationId: null,
      revocation: null,
      // No carrier lookups nor reassigned-number check (issue #36; number-checks.test.ts shows them).
      carrier: null,
      simSwap: null,
      reassignment: null,
      // Not made through a refresh link (issue #36 item 4; refresh-links.test.ts shows one).
      refreshes: null,
      // No legal hold reaches it (issue #37; legal-holds.test.ts shows them).
      heldBy: [],
      holds: [],
    });
    // Without account, and with the log's search params around it (the detail page keeps them).
    expect((await owner.c.get(`/api/verifications/${row.id}`)).statusCode).toBe(200);
    expect(
      (await owner.c.get(`/api/verifications/${row.id}?account=${owner.accountId}&o=cellPhone&pageNumber=2`))
        .statusCode,
    ).toBe(200);
    // Evidence not recorded is null.
    const bare = await insertVerification(t, form);
    expect((await owner.c.get(`/api/verifications/${bare.id}`)).json()).toMatchObject({
      email: null,
      codeSentAt: null,
      verifiedAt: null,
      attempts: 0,
      ip: null,
      userAgent: null,
    });
  });

  it('says whether it was made on the hosted page or through API v1, with the evidence of each', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner, { name: 'Loans' });
    const hosted = await verifyOnHostedPage(t, form);
    const api = await verifyThroughApi(t, owner, form, 'crm-9');
    const hostedDetail = await owner.c.get(`/api/verifications/${hosted.id}`);
    expect(hostedDetail.statusCode, hostedDetail.body).toBe(200);
    expect(hostedDetail.json<VerificationDetail>()).toMatchObject({
      source: 'hosted',
      isTest: false,
      attempts: 1,
      ip: expect.any(String),
    });
    const apiDetail = await owner.c.get(`/api/verifications/${api.id}?account=${owner.accountId}`);
    expect(apiDetail.statusCode, apiDetail.body).toBe(200);
    expect(apiDetail.json<VerificationDetail>()).toMatchObject({
      source: 'api',
      // A live key's (issue #33).
      isTest: false,
      externalRefId: 'crm-9',
      verifyFormName: 'Loans',
      attempts: 1,
      verifiedAt: expect.any(String),
    });
  });

  it('another account’s, an unknown and a malformed id answer 404 alike; so does one of my other accounts', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const row = await insertVerification(t, form);
    const stranger = await newOwner(t.app, 'Stranger');
    for (const url of [
      `/api/verifications/${row.id}`,
      `/api/verifications/${row.id}?account=${owner.accountId}`,
      `/api/verifications/${row.id}?account=${stranger.accountId}`,
    ]) {
      const response = await stranger.c.get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    for (const id of ['2000000000', 'abc', '0', '-1']) {
      const response = await owner.c.get(`/api/verifications/${id}`);
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    // The owner also owns a second account: under it (the account in the URL), the first one's verification is not
    // found.
    const second = await owner.c.post('/api/accounts', { displayName: 'Second Co' });
    const secondId = second.json().membership.account.id as number;
    const crossed = await owner.c.get(`/api/verifications/${row.id}?account=${secondId}`);
    expect(crossed.statusCode).toBe(404);
    expect(crossed.json()).toEqual(notFound);
  });

  it('needs canSearchData: 403 with the spec text without it; 401 logged out', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const row = await insertVerification(t, form);
    const viewer = await join(t.app, owner, { canViewReports: true });
    const denied = await viewer.c.get(`/api/verifications/${row.id}?account=${owner.accountId}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ detail: errorTexts.permissionDenied, MainCode_: 'permission_denied' });
    const searcher = await join(t.app, owner, { canSearchData: true });
    expect((await searcher.c.get(`/api/verifications/${row.id}?account=${owner.accountId}`)).statusCode).toBe(
      200,
    );

    await searcher.c.post('/api/auth/logout');
    expect((await searcher.c.get(`/api/verifications/${row.id}`)).statusCode).toBe(401);
  });
  it('reaches verifications past 32-bit ids (the column is bigint); beyond exact JavaScript integers is not found', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    await t.db.db.execute(sql`alter sequence verifications_id_seq restart with 4294967301`);
    const row = await insertVerification(t, form);
    expect(row.id).toBe(4_294_967_301);
    const response = await owner.c.get(`/api/verifications/${row.id}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<VerificationDetail>().id).toBe(4_294_967_301);
    for (const id of [String(Number.MAX_SAFE_INTEGER), '9007199254740993', '99999999999999999999']) {
      const missing = await owner.c.get(`/api/verifications/${id}`);
      expect(missing.statusCode, id).toBe(404);
      expect(missing.json()).toEqual(notFound);
    }
  });
});
