import type { AuditEvent, AuditEventList, TestPhoneNumber, VerifyForm } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiV1, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { storedChainOf } from '../../test-support/audit.ts';
import { solidImage } from '../../test-support/images.ts';
import { type FormPart, multipartBody } from '../../test-support/multipart.ts';
import { createPublicForm, verifyPhone } from '../../test-support/public-verify.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import { verifyChain } from './chain.ts';

/**
 * Issue #16, "what is recorded", for the account's objects: the company, forms, test numbers, and reading
 * verifications (a detail view, a CSV export, API v1's read in full). Each action is done through the API as a user
 * (or a key) does it; the event is read back from GET /api/audit-events as an owner, with its actor, targets, changes
 * and address. A refused request records nothing, and each account's chain still verifies at the end.
 */

const t = useTestApp();

async function eventsOf(owner: Owner, action: AuditEvent['action']): Promise<AuditEvent[]> {
  const response = await owner.c.get(`/api/audit-events?account=${owner.accountId}&action=${action}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditEventList>().results;
}

async function allEventsOf(owner: Owner): Promise<AuditEvent[]> {
  const response = await owner.c.get(`/api/audit-events?account=${owner.accountId}&pageSize=100`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditEventList>().results;
}

/** The account's chain as stored, in order, in the form the check reads. */
const storedChain = (accountId: number) => storedChainOf(t.db.db, accountId);

async function expectChainOk(owner: Owner): Promise<void> {
  const chain = await storedChain(owner.accountId);
  expect(await verifyChain(chain)).toEqual({ ok: true, count: chain.length });
}

/** The actor and origin of an owner's own request. */
const byOwner = (owner: Owner) => ({
  actor: { type: 'user', id: String(owner.userId), name: owner.email },
  ip: owner.c.ip,
  requestId: expect.any(String),
});

const image = async (name: string): Promise<{ body: Buffer; contentType: string }> => {
  const parts: FormPart[] = [
    { name, filename: 'picture.png', contentType: 'image/png', data: await solidImage(300, 200, 'png') },
  ];
  return multipartBody(parts);
};

describe('account.updated', () => {
  it('a rename, the allowed countries, a logo uploaded and removed: each with its before and after', async () => {
    const owner = await newOwner(t.app, 'Old Name Co');
    const url = `/api/accounts/${owner.accountId}`;
    const countries = (await owner.c.get(url)).json<{ phoneCountries: string[] }>().phoneCountries;

    expect((await owner.c.patch(url, { displayName: 'New Name Co' })).statusCode).toBe(200);
    expect((await owner.c.patch(url, { phoneCountries: ['US', 'MX'] })).statusCode).toBe(200);
    // The same values again change nothing and record nothing.
    expect(
      (await owner.c.patch(url, { displayName: 'New Name Co', phoneCountries: ['US', 'MX'] })).statusCode,
    ).toBe(200);
    const uploaded = await owner.c.postMultipart(
      `${url}/update-uploaded-profile-image`,
      await image('uploadedProfileImage'),
    );
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const logo = uploaded.json<{ uploadedProfileImage: string }>().uploadedProfileImage;
    expect((await owner.c.patch(`${url}/delete-uploaded-profile-image`)).statusCode).toBe(200);
    expect((await owner.c.patch(`${url}/delete-uploaded-profile-image`)).statusCode).toBe(200);

    const target = { type: 'account', id: String(owner.accountId), name: 'New Name Co' };
    expect((await eventsOf(owner, 'account.updated')).reverse()).toEqual([
      expect.objectContaining({
        ...byOwner(owner),
        targets: [target],
        changes: { displayName: ['Old Name Co', 'New Name Co'] },
      }),
      expect.objectContaining({
        ...byOwner(owner),
        targets: [target],
        changes: { phoneCountries: [countries, ['US', 'MX']] },
      }),
      expect.objectContaining({ ...byOwner(owner), targets: [target], changes: { logo: [null, logo] } }),
      expect.objectContaining({ ...byOwner(owner), targets: [target], changes: { logo: [logo, null] } }),
    ]);
    await expectChainOk(owner);
  });

  it('refused changes record nothing: a member (403), another account’s owner (404), a bad name (400)', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const stranger = await newOwner(t.app, 'Stranger Inc.');
    const url = `/api/accounts/${owner.accountId}`;
    expect((await member.c.patch(url, { displayName: 'Hijacked' })).statusCode).toBe(403);
    expect((await stranger.c.patch(url, { displayName: 'Hijacked' })).statusCode).toBe(404);
    expect((await owner.c.patch(url, { displayName: '' })).statusCode).toBe(400);
    expect((await member.c.patch(`${url}/delete-uploaded-profile-image`)).statusCode).toBe(403);
    expect(await eventsOf(owner, 'account.updated')).toEqual([]);
    expect(await eventsOf(stranger, 'account.updated')).toEqual([]);
    await expectChainOk(owner);
  });
});

describe('forms', () => {
  it('created, edited (the changed fields only), made live and inactive, banner, deleted', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const created = await member.c.post('/api/verify-forms', {
      account: owner.accountId,
      name: 'Loans',
      category: 'Lending',
    });
    expect(created.statusCode).toBe(201);
    const form = created.json<VerifyForm>();
    const url = `/api/verify-forms/${form.id}`;
    const byMember = {
      actor: { type: 'user', id: String(member.userId), name: member.email },
      ip: member.c.ip,
    };

    expect((await owner.c.patch(url, { name: 'Car loans', language: 'es' })).statusCode).toBe(200);
    // A field sent with its current value is not a change.
    expect((await owner.c.patch(url, { category: 'Lending', isLive: false })).statusCode).toBe(200);
    // One PATCH going live and renaming: both events.
    expect((await owner.c.patch(url, { isLive: true, name: 'Auto loans' })).statusCode).toBe(200);
    expect((await member.c.patch(url, { isLive: false })).statusCode).toBe(200);

    const target = (name: string) => [{ type: 'form', id: String(form.id), name }];
    expect(await eventsOf(owner, 'form.created')).toEqual([
      expect.objectContaining({
        ...byMember,
        targets: target('Loans'),
        changes: { name: [null, 'Loans'], language: [null, 'en'], category: [null, 'Lending'] },
      }),
    ]);
    expect((await eventsOf(owner, 'form.updated')).reverse()).toEqual([
      expect.objectContaining({
        ...byOwner(owner),
        targets: target('Car loans'),
        changes: { name: ['Loans', 'Car loans'], language: ['en', 'es'] },
      }),
      expect.objectContaining({
        ...byOwner(owner),
        targets: target('Auto loans'),
        changes: { name: ['Car loans', 'Auto loans'] },
      }),
    ]);
    const live = (await eventsOf(owner, 'form.live_changed')).reverse();
    expect(live).toEqual([
      expect.objectContaining({
        ...byOwner(owner),
        targets: target('Auto loans'),
        changes: { isLive: [false, true] },
      }),
      expect.objectContaining({
        ...byMember,
        targets: target('Auto loans'),
        changes: { isLive: [true, false] },
      }),
    ]);
    // Both events of the one PATCH carry its request id.
    const [edited] = await eventsOf(owner, 'form.updated');
    expect(edited?.requestId).toBe(live[0]?.requestId);

    const uploaded = await owner.c.patchMultipart(`${url}/update-banner-image`, await image('bannerImage'));
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const banner = uploaded.json<VerifyForm>().bannerImage;
    expect((await owner.c.patch(`${url}/delete-banner-image`)).statusCode).toBe(200);
    expect((await owner.c.patch(`${url}/delete-banner-image`)).statusCode).toBe(200);
    expect((await eventsOf(owner, 'form.banner_changed')).reverse()).toEqual([
      expect.objectContaining({
        ...byOwner(owner),
        targets: target('Auto loans'),
        changes: { bannerImage: [null, banner] },
      }),
      expect.objectContaining({
        ...byOwner(owner),
        targets: target('Auto loans'),
        changes: { bannerImage: [banner, null] },
      }),
    ]);
    // A banner is not an edit of the form's fields.
    expect(await eventsOf(owner, 'form.updated')).toHaveLength(2);

    expect((await owner.c.request({ method: 'DELETE', url })).statusCode).toBe(204);
    expect(await eventsOf(owner, 'form.deleted')).toEqual([
      expect.objectContaining({ ...byOwner(owner), targets: target('Auto loans'), changes: null }),
    ]);
    await expectChainOk(owner);
  });

  it('refused changes record nothing: bad values (400), a form with verifications (400), another account (404)', async () => {
    const owner = await newOwner(t.app);
    const stranger = await newOwner(t.app, 'Stranger Inc.');
    const form = await createPublicForm(owner, { name: 'Used' });
    await verifyPhone(t.app, form.publicId);
    const before = await allEventsOf(owner);
    const url = `/api/verify-forms/${form.id}`;

    expect((await owner.c.patch(url, { name: '' })).statusCode).toBe(400);
    expect((await owner.c.patch(url, { isLive: 'yes' })).statusCode).toBe(400);
    expect((await owner.c.post('/api/verify-forms', { account: owner.accountId, name: '' })).statusCode).toBe(
      400,
    );
    expect((await owner.c.request({ method: 'DELETE', url })).statusCode).toBe(400);
    expect((await stranger.c.patch(url, { name: 'Mine now' })).statusCode).toBe(404);
    expect((await stranger.c.request({ method: 'DELETE', url })).statusCode).toBe(404);
    expect((await owner.c.patch('/api/verify-forms/999999999', { name: 'Ghost' })).statusCode).toBe(404);
    expect(await allEventsOf(owner)).toEqual(before);
    expect(await allEventsOf(stranger)).toEqual([]);
    await expectChainOk(owner);
  });
});

describe('test numbers', () => {
  it('added and removed, named by the number; refusals record nothing', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const stranger = await newOwner(t.app, 'Stranger Inc.');
    const body = { account: owner.accountId, cellPhone: '(201) 555-0188', code: '123456' };

    const added = await owner.c.post('/api/test-phone-numbers', body);
    expect(added.statusCode).toBe(201);
    const number = added.json<TestPhoneNumber>();
    expect((await owner.c.post('/api/test-phone-numbers', body)).statusCode).toBe(400); // duplicate
    expect((await owner.c.post('/api/test-phone-numbers', { ...body, cellPhone: '12' })).statusCode).toBe(
      400,
    );
    expect(
      (await member.c.post('/api/test-phone-numbers', { ...body, cellPhone: '(201) 555-0199' })).statusCode,
    ).toBe(403);
    const url = `/api/test-phone-numbers/${number.id}`;
    expect((await member.c.request({ method: 'DELETE', url })).statusCode).toBe(403);
    expect((await stranger.c.request({ method: 'DELETE', url })).statusCode).toBe(404);
    expect((await owner.c.request({ method: 'DELETE', url })).statusCode).toBe(204);
    expect((await owner.c.request({ method: 'DELETE', url })).statusCode).toBe(404);

    const target = [{ type: 'test_number', id: String(number.id), name: '+12015550188' }];
    // The member's joining is in the log too (invitation events): only the test number's are looked at.
    const events = (await allEventsOf(owner)).filter((e) => e.targets[0]?.type === 'test_number');
    expect(events.map((e) => e.action)).toEqual(['test_number.removed', 'test_number.added']);
    expect(events).toEqual([
      expect.objectContaining({ ...byOwner(owner), targets: target, changes: null }),
      // The code approves the number on every form: it stays out of the log.
      expect.objectContaining({ ...byOwner(owner), targets: target, changes: null }),
    ]);
    expect(await allEventsOf(stranger)).toEqual([]);
    await expectChainOk(owner);
  });
});

describe('at once', () => {
  it('a burst of the same change records it once: going live, a delete of a form, of a test number', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner, { isLive: false });
    const url = `/api/verify-forms/${form.id}`;
    const live = await Promise.all(Array.from({ length: 6 }, () => owner.c.patch(url, { isLive: true })));
    expect(live.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    expect(await eventsOf(owner, 'form.live_changed')).toEqual([
      expect.objectContaining({ changes: { isLive: [false, true] } }),
    ]);

    const deletes = await Promise.all(
      Array.from({ length: 6 }, () => owner.c.request({ method: 'DELETE', url })),
    );
    expect(deletes.filter((r) => r.statusCode === 204).length).toBeGreaterThanOrEqual(1);
    expect(await eventsOf(owner, 'form.deleted')).toHaveLength(1);

    const added = await owner.c.post('/api/test-phone-numbers', {
      account: owner.accountId,
      cellPhone: '(201) 555-0177',
      code: '123456',
    });
    const numberUrl = `/api/test-phone-numbers/${added.json<TestPhoneNumber>().id}`;
    const removals = await Promise.all(
      Array.from({ length: 6 }, () => owner.c.request({ method: 'DELETE', url: numberUrl })),
    );
    expect(removals.map((r) => r.statusCode).sort()).toEqual([204, 404, 404, 404, 404, 404]);
    expect(await eventsOf(owner, 'test_number.removed')).toHaveLength(1);
    await expectChainOk(owner);
  });
});

describe('reading verifications', () => {
  it('every CSV export, with its filters and the row count it announced; a refused one records nothing', async () => {
    const owner = await newOwner(t.app, 'Export Co');
    const reader = await join(t.app, owner, { canSearchData: true });
    const noSearch = await join(t.app, owner, { canSearchData: false });
    const form = await createPublicForm(owner, { name: 'Loans', category: 'Lending' });
    for (let i = 0; i < 3; i++) await verifyPhone(t.app, form.publicId);

    const filtered = await reader.c.get(
      `/api/verifications/export-csv?account=${owner.accountId}&verifyFormId__in=${form.id}&source=hosted&created__date__preset=last7d&tz=UTC&q=Loans&o=cellPhone`,
    );
    expect(filtered.statusCode, filtered.body).toBe(200);
    expect(filtered.headers['x-total-count']).toBe('3');
    const all = await owner.c.get(`/api/verifications/export-csv?account=${owner.accountId}`);
    expect(all.statusCode).toBe(200);
    expect(
      (await noSearch.c.get(`/api/verifications/export-csv?account=${owner.accountId}`)).statusCode,
    ).toBe(403);
    const none = await owner.c.get(
      `/api/verifications/export-csv?account=${owner.accountId}&created__date__preset=yesterday&tz=UTC`,
    );
    expect(none.headers['x-total-count']).toBe('0');

    const target = [{ type: 'account', id: String(owner.accountId), name: 'Export Co' }];
    expect((await eventsOf(owner, 'verifications.exported')).reverse()).toEqual([
      expect.objectContaining({
        actor: { type: 'user', id: String(reader.userId), name: reader.email },
        ip: reader.c.ip,
        targets: target,
        changes: {
          filters: {
            // Live data unless `mode=test` was asked (issue #33): the log records which.
            mode: 'live',
            verifyFormId__in: [form.id],
            source: 'hosted',
            created__date__preset: 'last7d',
            tz: 'UTC',
            q: 'Loans',
            o: 'cellPhone',
          },
          rowCount: 3,
        },
      }),
      expect.objectContaining({
        ...byOwner(owner),
        targets: target,
        changes: { filters: { mode: 'live', created__date__preset: 'all', o: '-created' }, rowCount: 3 },
      }),
      expect.objectContaining({
        ...byOwner(owner),
        changes: {
          filters: { mode: 'live', created__date__preset: 'yesterday', tz: 'UTC', o: '-created' },
          rowCount: 0,
        },
      }),
    ]);
    await expectChainOk(owner);
  });

  it('every view of a verification’s detail, named by its masked number; not-found and refused views record nothing', async () => {
    const owner = await newOwner(t.app);
    const reader = await join(t.app, owner, { canSearchData: true });
    const noSearch = await join(t.app, owner, { canSearchData: false });
    const stranger = await newOwner(t.app, 'Stranger Inc.');
    const form = await createPublicForm(owner);
    const { e164 } = await verifyPhone(t.app, form.publicId);
    const [row] = await t.db.db
      .select({ id: schema.verifications.id })
      .from(schema.verifications)
      .where(eq(schema.verifications.cellPhone, e164));
    if (!row) throw new Error('no verification');
    const url = `/api/verifications/${row.id}`;

    expect((await owner.c.get(`${url}?account=${owner.accountId}`)).statusCode).toBe(200);
    expect((await reader.c.get(url)).statusCode).toBe(200);
    expect((await noSearch.c.get(url)).statusCode).toBe(403);
    expect((await stranger.c.get(url)).statusCode).toBe(404);
    expect((await owner.c.get('/api/verifications/999999999')).statusCode).toBe(404);

    const masked = `+1 ••• ••• ${e164.slice(-4)}`;
    const target = [{ type: 'verification', id: String(row.id), name: masked }];
    expect((await eventsOf(owner, 'verification.viewed')).reverse()).toEqual([
      expect.objectContaining({ ...byOwner(owner), targets: target, changes: null }),
      expect.objectContaining({
        actor: { type: 'user', id: String(reader.userId), name: reader.email },
        ip: reader.c.ip,
        targets: target,
      }),
    ]);
    expect(await allEventsOf(stranger)).toEqual([]);
    await expectChainOk(owner);
  });

  it('API v1: a key reading a verification in full is recorded as the key; a masked read is not', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const { sent, e164 } = await verifyPhone(t.app, form.publicId);
    const reading = await newApiKey(owner, ['verifications:read'], 'live', 'Reader');
    const writing = await newApiKey(owner, ['verifications:write'], 'live', 'Writer');

    const full = await apiV1(t.app, reading.key, { 'user-agent': 'CRM-sync/2.0' }).GET(
      '/api/v1/verifications/{id}',
      { params: { path: { id: sent.attemptId } } },
    );
    expect(full.response.status).toBe(200);
    expect(full.data?.to).toBe(e164);
    const masked = await apiV1(t.app, writing.key).GET('/api/v1/verifications/{id}', {
      params: { path: { id: sent.attemptId } },
    });
    expect(masked.response.status).toBe(200);
    expect(masked.data?.to).not.toBe(e164);
    const unknown = await apiV1(t.app, reading.key).GET('/api/v1/verifications/{id}', {
      params: { path: { id: 'att_doesnotexist000000000' } },
    });
    expect(unknown.response.status).toBe(404);

    expect(await eventsOf(owner, 'verification.viewed')).toEqual([
      expect.objectContaining({
        actor: { type: 'api_key', id: String(reading.id), name: reading.prefix },
        targets: [{ type: 'verification', id: sent.attemptId, name: `+1 ••• ••• ${e164.slice(-4)}` }],
        changes: null,
        ip: '127.0.0.1',
        userAgent: 'CRM-sync/2.0',
      }),
    ]);
    await expectChainOk(owner);
  });
});
