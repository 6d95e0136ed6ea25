import {
  IMAGE_UPLOAD_MAX_BYTES,
  uploadTexts,
  type VerifyForm,
  type VerifyFormList,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_PUBLIC_URL, useTestApp } from '../../test-support/app.ts';
import type { TestClient } from '../../test-support/client.ts';
import { DAY } from '../../test-support/clock.ts';
import { padPng, solidImage } from '../../test-support/images.ts';
import { type FormPart, multipartBody } from '../../test-support/multipart.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import { escapeLike, FORM_CREATION_LIMITS, formHasVerificationsText } from './service.ts';

const t = useTestApp();

const notFound = { detail: 'Not found.', MainCode_: 'not_found' };

async function createForm(
  owner: Owner,
  body: { name: string; language?: string; category?: string } = { name: 'Form' },
): Promise<VerifyForm> {
  const response = await owner.c.post('/api/verify-forms', { account: owner.accountId, ...body });
  if (response.statusCode !== 201) throw new Error(`create form: ${response.statusCode} ${response.body}`);
  return response.json<VerifyForm>();
}

async function setCreated(id: number, iso: string) {
  await t.db.db
    .update(schema.verifyForms)
    .set({ createdAt: new Date(iso) })
    .where(eq(schema.verifyForms.id, id));
}

async function list(owner: Owner, query = ''): Promise<VerifyFormList> {
  const response = await owner.c.get(`/api/verify-forms?account=${owner.accountId}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<VerifyFormList>();
}

const names = (l: VerifyFormList) => l.results.map((f) => f.name);
const sorted = (l: VerifyFormList) => names(l).sort();

/** Moves the test clock to `iso` (backwards too); afterEach puts it back where it was. */
let clockShift = 0;
function setClock(iso: string) {
  const delta = new Date(iso).getTime() - t.clock.now().getTime();
  t.clock.advance(delta);
  clockShift += delta;
}
afterEach(() => {
  t.clock.advance(-clockShift);
  clockShift = 0;
});

describe('POST /api/verify-forms', () => {
  it('creates a form: 201, not live, English, no category, a public URL', async () => {
    const owner = await newOwner(t.app);
    const response = await owner.c.post('/api/verify-forms', {
      name: '  Sign-up  ',
      account: owner.accountId,
    });
    expect(response.statusCode).toBe(201);
    const form = response.json<VerifyForm>();
    expect(form).toEqual({
      id: expect.any(Number),
      publicId: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/),
      name: 'Sign-up',
      account: owner.accountId,
      isLive: false,
      language: 'en',
      category: '',
      created: expect.any(String),
      bannerImage: null,
      publicUrl: `${TEST_PUBLIC_URL}/f/${form.publicId}`,
    });
    expect(new Date(form.created).getTime()).toBe(t.clock.now().getTime());
    const other = await createForm(owner, { name: 'Other', language: 'es', category: 'Retail' });
    expect(other).toMatchObject({ language: 'es', category: 'Retail' });
    expect(other.publicId).not.toBe(form.publicId);
  });

  it('any member may create; validation errors per field', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const created = await member.c.post('/api/verify-forms', { name: 'By member', account: owner.accountId });
    expect(created.statusCode).toBe(201);

    const cases: [unknown, string][] = [
      [{ account: owner.accountId }, 'name'],
      [{ name: '   ', account: owner.accountId }, 'name'],
      [{ name: 42, account: owner.accountId }, 'name'],
      [{ name: 'x'.repeat(121), account: owner.accountId }, 'name'],
      [{ name: 'A', account: 'abc' }, 'account'],
      [{ name: 'A' }, 'account'],
      [{ name: 'A', account: owner.accountId, category: 7 }, 'category'],
      [{ name: 'A', account: owner.accountId, language: 'fr' }, 'language'],
    ];
    for (const [body, field] of cases) {
      const response = await owner.c.post('/api/verify-forms', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json(), JSON.stringify(body)).toHaveProperty(field);
      expect(response.json().MainCode_).toBe('validation_error');
    }
    const fr = await owner.c.post('/api/verify-forms', {
      name: 'A',
      account: owner.accountId,
      language: 'fr',
    });
    expect(fr.json().language).toEqual(["Invalid enum value. Expected 'en' | 'es'"]);
  });

  it('an account the caller is not a member of answers 404, like an unknown one', async () => {
    const owner = await newOwner(t.app);
    const stranger = await newOwner(t.app);
    for (const account of [owner.accountId, 2_000_000_000]) {
      const response = await stranger.c.post('/api/verify-forms', { name: 'Mine now', account });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    expect((await list(owner)).count).toBe(0);
  });

  it(`limits creation to ${FORM_CREATION_LIMITS.perAccount} forms a day per account`, async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const bucket = `form-create:account:${owner.accountId}`;
    for (let i = 0; i < FORM_CREATION_LIMITS.perAccount - 1; i++) await t.app.services.rateLimit.hit(bucket);
    expect((await createForm(owner, { name: 'Last one' })).name).toBe('Last one');
    const refused = await member.c.post('/api/verify-forms', { name: 'Too many', account: owner.accountId });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    t.clock.advance(DAY + 1000);
    expect((await createForm(owner, { name: 'Next day' })).name).toBe('Next day');
  });
});

describe('GET /api/verify-forms', () => {
  it('lists the account’s forms only, newest first, in the list shape', async () => {
    const owner = await newOwner(t.app);
    const other = await newOwner(t.app);
    await createForm(other, { name: 'Not mine' });
    const a = await createForm(owner, { name: 'A' });
    t.clock.advance(1000);
    const b = await createForm(owner, { name: 'B' });
    expect(await list(owner)).toEqual({ count: 2, pageNumber: 1, pageSize: 25, results: [b, a] });
  });

  it('status, isLive (wins over status) and language', async () => {
    const owner = await newOwner(t.app);
    const live = await createForm(owner, { name: 'Live', language: 'es' });
    await owner.c.patch(`/api/verify-forms/${live.id}`, { isLive: true });
    await createForm(owner, { name: 'Draft' });
    expect(names(await list(owner, '&status=active'))).toEqual(['Live']);
    expect(names(await list(owner, '&status=inactive'))).toEqual(['Draft']);
    expect(sorted(await list(owner, '&status=all'))).toEqual(['Draft', 'Live']);
    expect(names(await list(owner, '&isLive=true'))).toEqual(['Live']);
    expect(names(await list(owner, '&isLive=false'))).toEqual(['Draft']);
    expect(names(await list(owner, '&isLive=false&status=active'))).toEqual(['Draft']);
    expect(names(await list(owner, '&language=es'))).toEqual(['Live']);
    expect(names(await list(owner, '&language=en'))).toEqual(['Draft']);
    expect(sorted(await list(owner, '&language=all'))).toEqual(['Draft', 'Live']);
  });

  it('category__in: comma-separated or repeated', async () => {
    const owner = await newOwner(t.app);
    await createForm(owner, { name: 'R', category: 'Retail' });
    await createForm(owner, { name: 'B', category: 'Banking' });
    await createForm(owner, { name: 'N' });
    expect(names(await list(owner, '&category__in=Retail'))).toEqual(['R']);
    expect(sorted(await list(owner, '&category__in=Retail,Banking'))).toEqual(['B', 'R']);
    expect(sorted(await list(owner, '&category__in=Retail&category__in=Banking'))).toEqual(['B', 'R']);
    expect(names(await list(owner, '&category__in=retail'))).toEqual([]);
    expect((await list(owner, '&category__in=')).count).toBe(3);
  });

  it('q: case-insensitive substring of name or category; % and _ are literal', async () => {
    const owner = await newOwner(t.app);
    await createForm(owner, { name: 'Summer Promo', category: 'Retail' });
    await createForm(owner, { name: '100% off', category: 'Sales_EU' });
    await createForm(owner, { name: 'Plain', category: 'SalesXEU' });
    expect(names(await list(owner, '&q=promo'))).toEqual(['Summer Promo']);
    expect(names(await list(owner, '&q=RETAIL'))).toEqual(['Summer Promo']);
    expect(names(await list(owner, `&q=${encodeURIComponent('%')}`))).toEqual(['100% off']);
    expect(names(await list(owner, '&q=s_e'))).toEqual(['100% off']);
    expect(sorted(await list(owner, '&q=sales'))).toEqual(['100% off', 'Plain']);
    expect(names(await list(owner, '&q=nothing'))).toEqual([]);
    expect(escapeLike('a\\b%c_d')).toBe('a\\\\b\\%c\\_d');
  });

  it('date presets in the caller’s time zone, across the day daylight saving starts (New York, 2026-03-08)', async () => {
    const owner = await newOwner(t.app);
    const at: [string, string][] = [
      ['Mar 7 23:59 EST', '2026-03-08T04:59:00Z'],
      ['Mar 8 00:00 EST', '2026-03-08T05:00:00Z'],
      ['Mar 8 23:59 EDT', '2026-03-09T03:59:00Z'],
      // A naive 24-hour day from 05:00Z would count this one as March 8.
      ['Mar 9 00:30 EDT', '2026-03-09T04:30:00Z'],
      ['Mar 9 noon EDT', '2026-03-09T16:00:00Z'],
      ['Feb 20', '2026-02-20T17:00:00Z'],
    ];
    for (const [name, iso] of at) await setCreated((await createForm(owner, { name })).id, iso);
    setClock('2026-03-09T18:00:00Z');
    const ny = '&tz=America%2FNew_York';
    const preset = (p: string, extra = ny) => list(owner, `&created__date__preset=${p}${extra}`).then(sorted);

    expect(await preset('today')).toEqual(['Mar 9 00:30 EDT', 'Mar 9 noon EDT']);
    expect(await preset('yesterday')).toEqual(['Mar 8 00:00 EST', 'Mar 8 23:59 EDT']);
    expect(await preset('last3d')).toEqual([
      'Mar 7 23:59 EST',
      'Mar 8 00:00 EST',
      'Mar 8 23:59 EDT',
      'Mar 9 00:30 EDT',
      'Mar 9 noon EDT',
    ]);
    expect((await preset('last7d')).length).toBe(5);
    expect((await preset('last30d')).length).toBe(6);
    expect((await preset('all')).length).toBe(6);
    // No tz, or one nobody knows: America/New_York.
    expect(await preset('yesterday', '')).toEqual(['Mar 8 00:00 EST', 'Mar 8 23:59 EDT']);
    expect(await preset('yesterday', '&tz=Mars%2FPhobos')).toEqual(['Mar 8 00:00 EST', 'Mar 8 23:59 EDT']);
    // The same instants seen from London (no DST change that day): March 8 runs 00:00Z–24:00Z.
    expect(await preset('yesterday', '&tz=Europe%2FLondon')).toEqual(['Mar 7 23:59 EST', 'Mar 8 00:00 EST']);
    expect(await preset('today', '&tz=Europe%2FLondon')).toEqual([
      'Mar 8 23:59 EDT',
      'Mar 9 00:30 EDT',
      'Mar 9 noon EDT',
    ]);
    expect(await preset('today', '&tz=Asia%2FTokyo')).toEqual(['Mar 9 noon EDT']);

    // custom: lte is inclusive; either end may be open.
    const custom = (range: string) => preset('custom', `${ny}${range}`);
    expect(await custom('&created__date__gte=2026-03-08&created__date__lte=2026-03-08')).toEqual([
      'Mar 8 00:00 EST',
      'Mar 8 23:59 EDT',
    ]);
    expect(await custom('&created__date__lte=2026-03-07')).toEqual(['Feb 20', 'Mar 7 23:59 EST']);
    expect((await custom('&created__date__gte=2026-03-09')).length).toBe(2);
    expect((await custom('')).length).toBe(6);
    // Dates that do not exist are dropped (open end), never an error.
    expect((await custom('&created__date__gte=2026-02-30&created__date__lte=2026-03-07')).length).toBe(2);
    // A custom range only counts with the custom preset.
    expect((await preset('today', `${ny}&created__date__gte=2026-01-01`)).length).toBe(2);
  });

  it('a 25-hour day (New York falls back on 2026-11-01) is one whole local day', async () => {
    const owner = await newOwner(t.app);
    const at: [string, string][] = [
      ['Oct 31 23:59 EDT', '2026-11-01T03:59:00Z'],
      ['Nov 1 00:00 EDT', '2026-11-01T04:00:00Z'],
      // A naive 24-hour day from 04:00Z would end at 04:00Z on Nov 2 and miss this one.
      ['Nov 1 23:30 EST', '2026-11-02T04:30:00Z'],
      ['Nov 2 00:00 EST', '2026-11-02T05:00:00Z'],
    ];
    for (const [name, iso] of at) await setCreated((await createForm(owner, { name })).id, iso);
    const day = '&created__date__preset=custom&created__date__gte=2026-11-01&created__date__lte=2026-11-01';
    expect(sorted(await list(owner, `${day}&tz=America%2FNew_York`))).toEqual([
      'Nov 1 00:00 EDT',
      'Nov 1 23:30 EST',
    ]);
    setClock('2026-11-02T15:00:00Z');
    expect(sorted(await list(owner, '&created__date__preset=yesterday'))).toEqual([
      'Nov 1 00:00 EDT',
      'Nov 1 23:30 EST',
    ]);
  });

  it('bad query values fall back to their defaults: 200, never 400', async () => {
    const owner = await newOwner(t.app);
    await createForm(owner, { name: 'One' });
    const bad =
      '&isLive=maybe&status=paused&language=fr&created__date__preset=forever&created__date__gte=yesterday' +
      '&created__date__lte=2026-13-45&tz=Nowhere&o=-color&pageNumber=-3&pageSize=1000000&q=' +
      'x'.repeat(300);
    const response = await owner.c.get(`/api/verify-forms?account=${owner.accountId}${bad}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ count: 1, pageNumber: 1, pageSize: 25 });
    const junk = await list(owner, '&pageNumber=abc&pageSize=0&o=&status=');
    expect(junk).toMatchObject({ count: 1, pageNumber: 1, pageSize: 25 });
  });

  it('the account is required; another account’s or an unknown one answers 404', async () => {
    const owner = await newOwner(t.app);
    const stranger = await newOwner(t.app);
    expect((await owner.c.get('/api/verify-forms')).statusCode).toBe(400);
    for (const account of [owner.accountId, 2_000_000_000]) {
      const response = await stranger.c.get(`/api/verify-forms?account=${account}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
  });

  it('paging and sorting', async () => {
    const owner = await newOwner(t.app);
    for (const [name, category] of [
      ['charlie', 'b'],
      ['Alpha', 'c'],
      ['bravo', 'a'],
    ]) {
      await createForm(owner, { name: name ?? '', category: category ?? '' });
      t.clock.advance(1000);
    }
    expect(names(await list(owner))).toEqual(['bravo', 'Alpha', 'charlie']);
    expect(names(await list(owner, '&o=created'))).toEqual(['charlie', 'Alpha', 'bravo']);
    expect(names(await list(owner, '&o=name'))).toEqual(['Alpha', 'bravo', 'charlie']);
    expect(names(await list(owner, '&o=-name'))).toEqual(['charlie', 'bravo', 'Alpha']);
    expect(names(await list(owner, '&o=category'))).toEqual(['bravo', 'charlie', 'Alpha']);
    expect(names(await list(owner, '&o=-category'))).toEqual(['Alpha', 'charlie', 'bravo']);

    const page2 = await list(owner, '&o=name&pageSize=2&pageNumber=2');
    expect(page2).toMatchObject({ count: 3, pageNumber: 2, pageSize: 2 });
    expect(names(page2)).toEqual(['charlie']);
    expect(names(await list(owner, '&o=name&pageSize=2'))).toEqual(['Alpha', 'bravo']);
    const beyond = await list(owner, '&pageSize=2&pageNumber=9');
    expect(beyond).toMatchObject({ count: 3, pageNumber: 9, results: [] });
  });
});

describe('GET /api/verify-forms/categories', () => {
  it('distinct, non-empty, sorted; the account’s own only', async () => {
    const owner = await newOwner(t.app);
    const other = await newOwner(t.app);
    await createForm(other, { name: 'x', category: 'Secret' });
    for (const category of ['retail', 'Banking', '', 'retail', 'Zoo'])
      await createForm(owner, { name: 'f', category });
    const response = await owner.c.get(`/api/verify-forms/categories?account=${owner.accountId}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ results: ['Banking', 'retail', 'Zoo'] });
    expect((await other.c.get(`/api/verify-forms/categories?account=${owner.accountId}`)).statusCode).toBe(
      404,
    );
  });
});

describe('/api/verify-forms/{id}', () => {
  it('GET, partial PATCH (isLive toggles), DELETE → 204 then 404', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const form = await createForm(owner, { name: 'Form', category: 'Retail' });
    const url = `/api/verify-forms/${form.id}`;
    const read = await member.c.get(url);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(form);

    const live = await member.c.patch(url, { isLive: true });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ ...form, isLive: true });
    const off = await owner.c.patch(url, { isLive: false });
    expect(off.json<VerifyForm>().isLive).toBe(false);

    const renamed = await owner.c.patch(url, { name: ' Renamed ', language: 'es' });
    expect(renamed.json()).toEqual({ ...form, name: 'Renamed', language: 'es' });
    const uncategorised = await owner.c.patch(url, { category: '' });
    expect(uncategorised.json()).toMatchObject({ name: 'Renamed', category: '' });

    for (const body of [
      { name: '' },
      { isLive: 'yes' },
      { language: 'fr' },
      { account: 99 },
      { publicId: 'x' },
    ]) {
      const response = await owner.c.patch(url, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await owner.c.patch(url, { language: 'fr' })).json().language).toEqual([
      "Invalid enum value. Expected 'en' | 'es'",
    ]);

    const deleted = await member.c.request({ method: 'DELETE', url });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await owner.c.get(url)).statusCode).toBe(404);
    expect((await owner.c.request({ method: 'DELETE', url })).statusCode).toBe(404);
  });

  it('a form with verifications cannot be deleted: 400 with a clear message, the form stays', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner, { name: 'Used' });
    await t.db.db.insert(schema.verifications).values({
      accountId: owner.accountId,
      verifyFormId: form.id,
      cellPhone: '+15555550100',
      verifyFormName: form.name,
      verificationMethod: 'sms',
    });
    const response = await owner.c.request({ method: 'DELETE', url: `/api/verify-forms/${form.id}` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      nonFieldErrors: [formHasVerificationsText],
      MainCode_: 'validation_error',
    });
    expect((await owner.c.get(`/api/verify-forms/${form.id}`)).statusCode).toBe(200);
  });
});

describe('the verifications foreign key', () => {
  it('refuses to delete a used form directly, yet deleting the account removes forms and verifications', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner, { name: 'Used' });
    const { db } = t.db;
    await db.insert(schema.verifications).values({
      accountId: owner.accountId,
      verifyFormId: form.id,
      cellPhone: '+15555550101',
      verifyFormName: form.name,
      verificationMethod: 'email',
    });
    await expect(db.delete(schema.verifyForms).where(eq(schema.verifyForms.id, form.id))).rejects.toThrow();
    await db.delete(schema.accounts).where(eq(schema.accounts.id, owner.accountId));
    const left = await db
      .select()
      .from(schema.verifications)
      .where(eq(schema.verifications.accountId, owner.accountId));
    expect(left).toEqual([]);
    expect(await db.select().from(schema.verifyForms).where(eq(schema.verifyForms.id, form.id))).toEqual([]);
  });
});

describe('banner image', () => {
  const FIELD = 'bannerImage';
  const file = (data: Buffer, filename = 'banner.png'): FormPart => ({
    name: FIELD,
    filename,
    contentType: 'image/png',
    data,
  });
  const patchMultipart = (c: TestClient, url: string, parts: FormPart[]) => {
    const form = multipartBody(parts);
    return c.request({
      method: 'PATCH',
      url,
      rawBody: form.body,
      headers: { 'content-type': form.contentType },
    });
  };
  const fieldError = (message: string) => ({ [FIELD]: [message], MainCode_: 'validation_error' });

  it('upload (a real PNG becomes a WebP under /media/), refusals, delete', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const form = await createForm(owner, { name: 'With banner' });
    const url = `/api/verify-forms/${form.id}/update-banner-image`;

    const uploaded = await patchMultipart(member.c, url, [file(await solidImage(600, 200, 'png'))]);
    expect(uploaded.statusCode).toBe(200);
    const withBanner = uploaded.json<VerifyForm>();
    expect(withBanner).toEqual({
      ...form,
      bannerImage: expect.stringMatching(/^\/media\/[0-9a-f]{64}\.webp$/),
    });
    const image = await t.app.inject({ method: 'GET', url: withBanner.bannerImage ?? '' });
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 600,
      height: 200,
    });
    expect((await owner.c.get(`/api/verify-forms/${form.id}`)).json()).toEqual(withBanner);

    const png = await solidImage(8, 8, 'png');
    const refusals: [FormPart[], string][] = [
      [[{ name: 'note', value: 'x' }], uploadTexts.required],
      [[file(Buffer.from('not an image at all'))], uploadTexts.wrongType],
      [[file(padPng(png, IMAGE_UPLOAD_MAX_BYTES + 1))], uploadTexts.tooLarge],
      [[file(png), file(png, 'second.png')], uploadTexts.tooMany],
      // Under the profile picture's field name: not this route's file.
      [[{ ...file(png), name: 'uploadedProfileImage' }], uploadTexts.required],
    ];
    for (const [parts, message] of refusals) {
      const refused = await patchMultipart(owner.c, url, parts);
      expect(refused.statusCode, message).toBe(400);
      expect(refused.json()).toEqual(fieldError(message));
    }
    expect((await owner.c.get(`/api/verify-forms/${form.id}`)).json()).toEqual(withBanner);

    const deleted = await member.c.patch(`/api/verify-forms/${form.id}/delete-banner-image`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual(form);
  });
});
