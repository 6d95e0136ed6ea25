import type { PublicVerifyForm, SendCodeResponse } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiV1, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { MINUTE } from '../../test-support/clock.ts';
import { latestCodeTo } from '../../test-support/codes.ts';
import {
  type Consumer,
  createPublicForm,
  newCellPhone,
  newConsumer,
} from '../../test-support/public-verify.ts';
import { newOwner } from '../../test-support/teams.ts';

/**
 * Issue #18's evidence from the public page: each opening of a live form is a page view that the code asked from it
 * links to, and each code typed is an entry, right or wrong.
 */

const t = useTestApp();
const { formPageViews, verificationAttempts, codeEntries } = schema;

const AGENT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)';

async function liveForm(options: Parameters<typeof createPublicForm>[1] = {}) {
  const owner = await newOwner(t.app, 'Acme Lending');
  return { owner, form: await createPublicForm(owner, options) };
}

const viewsOf = (formId: number) =>
  t.db.db.select().from(formPageViews).where(eq(formPageViews.verifyFormId, formId));

async function pageViewOf(attemptId: string): Promise<string | null> {
  const [row] = await t.db.db
    .select({ pageViewId: verificationAttempts.pageViewId })
    .from(verificationAttempts)
    .where(eq(verificationAttempts.id, attemptId));
  if (!row) throw new Error(`no attempt ${attemptId}`);
  return row.pageViewId;
}

const entriesOf = (attemptId: string) =>
  t.db.db
    .select({
      at: codeEntries.at,
      correct: codeEntries.correct,
      ip: codeEntries.ip,
      userAgent: codeEntries.userAgent,
    })
    .from(codeEntries)
    .where(eq(codeEntries.attemptId, attemptId))
    .orderBy(asc(codeEntries.id));

async function sendFresh(consumer: Consumer, publicId: string, extra: Record<string, unknown> = {}) {
  const phone = newCellPhone();
  const response = await consumer.sendCode(publicId, { cellPhone: phone.typed, method: 'sms', ...extra });
  expect(response.statusCode, response.body).toBe(201);
  return { sent: response.json<SendCodeResponse>(), code: await latestCodeTo(t.app, phone.e164) };
}

/** A 6-digit code that is not `code`. */
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('page views', () => {
  it('opening a live form records a view (language, consent version shown, address, agent), whose id the data carries', async () => {
    const { owner, form } = await liveForm({ language: 'es' });
    const published = await owner.c.post(`/api/verify-forms/${form.id}/consent-versions`, {
      language: 'es',
      text: 'Al enviar aceptas que Acme te contacte.',
      requireCheckbox: false,
    });
    expect(published.statusCode, published.body).toBe(201);
    const consentId = published.json<{ id: string }>().id;

    const consumer = new TestClient(t.app, '203.0.113.41');
    const open = (url: string) => consumer.request({ method: 'GET', url, headers: { 'user-agent': AGENT } });
    expect((await open(`/f/${form.publicId}`)).statusCode).toBe(200);
    const api = await open(`/api/public/verify-forms/${form.publicId}`);
    const fromApi = api.json<PublicVerifyForm>().pageViewId;
    expect(fromApi).toMatch(/^pv_[\w-]{22}$/);

    const views = await viewsOf(form.id);
    expect(views).toHaveLength(2);
    for (const view of views) {
      expect(view).toMatchObject({
        accountId: owner.accountId,
        language: 'es',
        consentVersionId: consentId,
        ip: '203.0.113.41',
        userAgent: AGENT,
        createdAt: t.clock.now(),
      });
    }
    expect(views.map((v) => v.id)).toContain(fromApi);
    expect(new Set(views.map((v) => v.id)).size).toBe(2);
  });

  it('a form without consent text records its view with none', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    expect(consumer.pageViewId).toMatch(/^pv_/);
    expect(await viewsOf(form.id)).toEqual([
      expect.objectContaining({ id: consumer.pageViewId, language: 'en', consentVersionId: null }),
    ]);
  });

  it('a member’s preview of an inactive form records none and carries none; nor does an inactive form’s 404', async () => {
    const { owner, form } = await liveForm({ isLive: false });
    const api = await owner.c.get(`/api/public/verify-forms/${form.publicId}`);
    expect(api.json<PublicVerifyForm>()).toMatchObject({ preview: true, pageViewId: null });
    const page = await owner.c.get(`/f/${form.publicId}`);
    expect(page.statusCode).toBe(200);
    expect((await new TestClient(t.app).get(`/api/public/verify-forms/${form.publicId}`)).statusCode).toBe(
      404,
    );
    await new TestClient(t.app).get(`/f/${form.publicId}`);
    expect(await viewsOf(form.id)).toEqual([]);
  });

  it('send-code links the attempt to the view it names', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const { sent } = await sendFresh(consumer, form.publicId, consumer.pageFields());
    expect(consumer.pageViewId).not.toBeNull();
    expect(await pageViewOf(sent.attemptId)).toBe(consumer.pageViewId);
  });

  it('another form’s view, an unknown id or a malformed one is dropped, never refused (a stale tab still gets its code)', async () => {
    const { owner, form } = await liveForm();
    const other = await createPublicForm(owner, { name: 'Other form' });
    const elsewhere = await newConsumer(t.app, other.publicId);
    const consumer = await newConsumer(t.app, form.publicId);
    for (const pageViewId of [elsewhere.pageViewId, 'pv_AAAAAAAAAAAAAAAAAAAAAA', 'x'.repeat(500), 42, null]) {
      const { sent } = await sendFresh(consumer, form.publicId, { pageViewId });
      expect(await pageViewOf(sent.attemptId), String(pageViewId)).toBeNull();
      t.clock.advance(MINUTE);
    }
    // Without one at all (a page older than views), likewise.
    const { sent } = await sendFresh(consumer, form.publicId);
    expect(await pageViewOf(sent.attemptId)).toBeNull();
  });
});

describe('code entries', () => {
  it('each code typed on the page is an entry: wrong, then right, with the time, address and agent', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId, '198.51.100.23');
    const { sent, code } = await sendFresh(consumer, form.publicId, consumer.pageFields());
    const check = (typed: string) =>
      consumer.request({
        method: 'POST',
        url: `/api/public/attempts/${sent.attemptId}/check`,
        body: { code: typed },
        headers: { 'user-agent': AGENT },
      });
    const wrongAt = t.clock.now();
    expect((await check(wrongCode(code))).statusCode).toBe(400);
    // Not a try: the shape is checked first and costs nothing.
    expect((await check('12')).statusCode).toBe(400);
    t.clock.advance(MINUTE);
    const rightAt = t.clock.now();
    expect((await check(code)).statusCode).toBe(200);
    // The attempt takes no code any more: nothing is judged, nothing entered.
    expect((await check(code)).statusCode).toBe(400);

    const entry = { ip: '198.51.100.23', userAgent: AGENT };
    expect(await entriesOf(sent.attemptId)).toEqual([
      { at: wrongAt, correct: false, ...entry },
      { at: rightAt, correct: true, ...entry },
    ]);
  });

  it('10 wrong codes at once: the entries are exactly the tries counted, and the attempt locks', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const { sent, code } = await sendFresh(consumer, form.publicId);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => consumer.check(sent.attemptId, wrongCode(code))),
    );
    expect(answers.every((a) => a.statusCode === 400)).toBe(true);
    const [attempt] = await t.db.db
      .select({ status: verificationAttempts.status, wrongTries: verificationAttempts.wrongTries })
      .from(verificationAttempts)
      .where(eq(verificationAttempts.id, sent.attemptId));
    expect(attempt).toEqual({ status: 'locked', wrongTries: 5 });
    const entries = await entriesOf(sent.attemptId);
    expect(entries).toHaveLength(attempt?.wrongTries ?? -1);
    expect(entries.every((e) => !e.correct)).toBe(true);
  });

  it('three right codes at once: one verification and one right entry', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const { sent, code } = await sendFresh(consumer, form.publicId);
    const answers = await Promise.all(Array.from({ length: 3 }, () => consumer.check(sent.attemptId, code)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400]);
    expect((await entriesOf(sent.attemptId)).map((e) => e.correct)).toEqual([true]);
  });

  it('API v1’s checks are entries too, from the caller’s address', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const phone = newCellPhone();
    const added = await owner.c.post('/api/test-phone-numbers', {
      account: owner.accountId,
      cellPhone: phone.e164,
      code: '123456',
    });
    expect(added.statusCode, added.body).toBe(201);
    const { key } = await newApiKey(owner, ['verifications:write']);
    const api = apiV1(t.app, key);
    const started = await api.POST('/api/v1/verifications', { body: { formId: form.id, to: phone.typed } });
    const id = started.data?.id ?? '';
    const path = { params: { path: { id } } };
    expect(
      (await api.POST('/api/v1/verifications/{id}/check', { ...path, body: { code: '000000' } })).data,
    ).toMatchObject({ status: 'incorrect' });
    expect(
      (await api.POST('/api/v1/verifications/{id}/check', { ...path, body: { code: '123456' } })).data,
    ).toMatchObject({ status: 'approved' });
    expect((await entriesOf(id)).map((e) => e.correct)).toEqual([false, true]);
    expect(await pageViewOf(id)).toBeNull();
  });
});
