import {
  type PublicPageData,
  type PublicRevocationResponse,
  publicRevokeTexts,
  revokeLinkTexts,
  type SendCodeResponse,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createJobWork, handlerOf } from '../../job-handlers.ts';
import { TEST_PUBLIC_URL } from '../../test-support/app.ts';
import { HOUR, MINUTE } from '../../test-support/clock.ts';
import { latestCodeTo } from '../../test-support/codes.ts';
import { jobsOf, jobsSettled } from '../../test-support/jobs.ts';
import { initialDataOf } from '../../test-support/outbox.ts';
import { Consumer, createPublicForm, newCellPhone } from '../../test-support/public-verify.ts';
import { newOwner, nextIp } from '../../test-support/teams.ts';
import { useTwilioTestApp } from '../../test-support/twilio-app.ts';
import { CONFIRMATION_WINDOW_MS, revocationDeadline } from '../revocations/index.ts';
import { REVOCATION_PAGE_LIMITS } from './service.ts';

/**
 * The public revocation page (issue #35; FCC 24-24: by any reasonable means, no proof of ownership, one confirmation
 * text): `/f/{publicId}/revoke` and `POST /api/public/verify-forms/{publicId}/revocations`. Text messages go to the
 * Twilio stand-in, which records them; e-mails to the development outbox.
 */
const { t, twilio } = useTwilioTestApp();

async function liveForm(options: { language?: 'en' | 'es'; isLive?: boolean } = {}) {
  const owner = await newOwner(t.app, `Acme ${nextIp()}`);
  const form = await createPublicForm(owner, options);
  return { owner, form };
}

/** A consumer holding the CSRF token of the revocation page it opened (as the page does). */
async function onRevokePage(publicId: string, ip = nextIp()) {
  const consumer = new Consumer(t.app, ip);
  const page = await consumer.get(`/f/${publicId}/revoke`);
  const data = initialDataOf(page.body) as PublicPageData;
  consumer.csrfToken = data.csrfToken;
  return { consumer, page, data };
}

const revoke = (consumer: Consumer, publicId: string, body: unknown) =>
  consumer.post(`/api/public/verify-forms/${publicId}/revocations`, body);

async function rowOf(id: string) {
  const [row] = await t.db.db.select().from(schema.revocations).where(eq(schema.revocations.id, id));
  if (!row) throw new Error(`no revocation ${id}`);
  return row;
}

/** Text messages the stand-in took for `to` that are a revocation's confirmation (in either language). */
const confirmationsTo = (to: string) =>
  twilio.received.filter(
    (m) => m.to === to && (m.body.startsWith('Confirmed:') || m.body.startsWith('Confirmado:')),
  );

/** A verification by e-mail of `cellPhone` on the form: the number becomes known to the form's account. */
async function verifyByEmail(publicId: string, cellPhone: string, email: string) {
  const consumer = new Consumer(t.app, nextIp());
  await consumer.open(publicId);
  const sent = await consumer.sendCode(publicId, {
    cellPhone,
    method: 'email',
    email,
    ...consumer.consentFields(),
    ...consumer.pageFields(),
  });
  expect(sent.statusCode, sent.body).toBe(201);
  const checked = await consumer.check(
    sent.json<SendCodeResponse>().attemptId,
    await latestCodeTo(t.app, email),
  );
  expect(checked.statusCode, checked.body).toBe(200);
  return checked.json<{ verificationId: number }>().verificationId;
}

describe('the revocation page /f/{publicId}/revoke', () => {
  it('serves the live form’s face in its language, with a CSRF token, and records no page view', async () => {
    const { form } = await liveForm({ language: 'es' });
    const views = async () =>
      (
        await t.db.db
          .select({ n: count() })
          .from(schema.formPageViews)
          .where(eq(schema.formPageViews.verifyFormId, form.id))
      )[0]?.n;
    const { page, data } = await onRevokePage(form.publicId);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-language']).toBe('es');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.body).toContain('<html lang="es">');
    expect(data.csrfToken).not.toBe('');
    expect(data).toMatchObject({
      form: { publicId: form.publicId, name: form.name, language: 'es', preview: false, consent: null },
      externalRefId: null,
      language: 'es',
    });
    expect(data.form?.pageViewId).toBeNull();
    expect(await views()).toBe(0);
  });

  it('an inactive form answers 404 with its language, an unknown link 404 in English', async () => {
    const { form } = await liveForm({ language: 'es', isLive: false });
    const inactive = await onRevokePage(form.publicId);
    expect(inactive.page.statusCode).toBe(404);
    expect(inactive.data).toMatchObject({ form: null, language: 'es' });
    const unknown = await onRevokePage('AAAAAAAAAAAAAAAA');
    expect(unknown.page.statusCode).toBe(404);
    expect(unknown.data).toMatchObject({ form: null, language: null });
  });
});

describe('POST /api/public/verify-forms/{publicId}/revocations', () => {
  it('records a live, open revocation in the form’s account, answered the same whether or not the number is known', async () => {
    const { owner, form } = await liveForm();
    const known = newCellPhone();
    const verificationId = await verifyByEmail(form.publicId, known.typed, `known-${nextIp()}@example.com`);
    const stranger = newCellPhone();

    const { consumer } = await onRevokePage(form.publicId);
    const answers = [
      await revoke(consumer, form.publicId, { phone: known.typed }),
      await revoke(consumer, form.publicId, { phone: stranger.typed }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(201);
      expect(Object.keys(answer.json()).sort()).toEqual(['id', 'receivedAt']);
    }
    const [first, second] = answers.map((a) => a.json<PublicRevocationResponse>());
    expect(first?.id).not.toBe(second?.id);

    for (const [answer, e164] of [
      [first, known.e164],
      [second, stranger.e164],
    ] as const) {
      const row = await rowOf(answer?.id ?? '');
      expect(row).toMatchObject({
        accountId: owner.accountId,
        channel: 'public_page',
        status: 'open',
        phone: e164,
        email: null,
        isTest: false,
        recordedBy: null,
        acknowledgedAt: null,
      });
      expect(row.receivedAt.toISOString()).toBe(answer?.receivedAt);
      expect(row.deadline).toBe(revocationDeadline(row.receivedAt, 'federal'));
    }

    // consent.revoked for each, in its transaction; the known number's names its verification.
    const events = await t.db.db
      .select({ data: schema.webhookEvents.data })
      .from(schema.webhookEvents)
      .where(
        and(
          eq(schema.webhookEvents.accountId, owner.accountId),
          eq(schema.webhookEvents.type, 'consent.revoked'),
        ),
      );
    const byId = new Map(
      events.map((e) => {
        const data = e.data as { id: string; verificationIds: number[]; channel: string };
        return [data.id, data] as const;
      }),
    );
    expect(byId.get(first?.id ?? '')).toMatchObject({
      channel: 'public_page',
      verificationIds: [verificationId],
    });
    expect(byId.get(second?.id ?? '')).toMatchObject({ channel: 'public_page', verificationIds: [] });
    // Veriform itself records it in the audit log: the consumer is no member.
    const audited = await t.db.db
      .select({ actorType: schema.auditEvents.actorType, targets: schema.auditEvents.targets })
      .from(schema.auditEvents)
      .where(
        and(
          eq(schema.auditEvents.accountId, owner.accountId),
          eq(schema.auditEvents.action, 'revocation.recorded'),
        ),
      );
    expect(audited.map((a) => a.actorType)).toEqual(['system', 'system']);

    // The members see both in the revocations list.
    const list = await owner.c.get(`/api/revocations?account=${owner.accountId}`);
    expect(list.json<{ results: { id: string; channel: string }[] }>().results.map((r) => r.id)).toEqual(
      expect.arrayContaining([first?.id, second?.id]),
    );
  });

  it('takes an e-mail address instead of a number, as typed', async () => {
    const { form } = await liveForm();
    const { consumer } = await onRevokePage(form.publicId);
    const answer = await revoke(consumer, form.publicId, { email: ' Ana.Lopez@Example.com ' });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(await rowOf(answer.json<PublicRevocationResponse>().id)).toMatchObject({
      phone: null,
      email: 'Ana.Lopez@Example.com',
      channel: 'public_page',
    });
  });

  it('refuses what it cannot record with 400 on the field, in the form’s language, and records nothing', async () => {
    const { owner, form } = await liveForm({ language: 'es' });
    const es = publicRevokeTexts.es;
    const { consumer } = await onRevokePage(form.publicId);
    const cases: [unknown, Record<string, string[]>][] = [
      [{}, { phone: [es.phoneOrEmail] }],
      [{ phone: '  ', email: '' }, { phone: [es.phoneOrEmail] }],
      [{ phone: '12345' }, { phone: [es.phoneInvalid] }],
      [{ phone: 'call me' }, { phone: [es.phoneInvalid] }],
      [{ email: 'not-an-address' }, { email: [es.emailInvalid] }],
      [
        { phone: '555', email: 'nope' },
        { phone: [es.phoneInvalid], email: [es.emailInvalid] },
      ],
      [{ phone: 2015550123 }, { phone: [es.phoneInvalid] }],
      [{ phone: '(201) 555-0123', confirm: 'yes' }, { confirm: [es.confirmInvalid] }],
      [{ phone: 'x'.repeat(41) }, { phone: [es.phoneInvalid] }],
    ];
    for (const [body, fields] of cases) {
      const answer = await revoke(consumer, form.publicId, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json()).toMatchObject(fields);
    }
    const rows = await t.db.db
      .select({ id: schema.revocations.id })
      .from(schema.revocations)
      .where(eq(schema.revocations.accountId, owner.accountId));
    expect(rows).toEqual([]);
  });

  it('an unknown, malformed or inactive form is 404; without the page’s CSRF token 403', async () => {
    const { form: inactive } = await liveForm({ isLive: false });
    const { form } = await liveForm();
    const { consumer } = await onRevokePage(form.publicId);
    for (const publicId of [inactive.publicId, 'AAAAAAAAAAAAAAAA', 'short', '%2e%2e']) {
      const answer = await revoke(consumer, publicId, { phone: '(201) 555-0123' });
      expect(answer.statusCode, publicId).toBe(404);
    }
    const noToken = await consumer.request({
      method: 'POST',
      url: `/api/public/verify-forms/${form.publicId}/revocations`,
      body: { phone: '(201) 555-0123' },
      csrf: false,
    });
    expect(noToken.statusCode).toBe(403);
  });
});

describe('the one confirmation text', () => {
  it('is texted once, in the form’s language, when the consumer asks; never for an address or without asking', async () => {
    const { form } = await liveForm({ language: 'es' });
    const asked = newCellPhone();
    const notAsked = newCellPhone();
    const { consumer } = await onRevokePage(form.publicId);
    const answer = await revoke(consumer, form.publicId, { phone: asked.typed, confirm: true });
    expect(answer.statusCode, answer.body).toBe(201);
    expect((await revoke(consumer, form.publicId, { phone: notAsked.typed })).statusCode).toBe(201);
    expect(
      (await revoke(consumer, form.publicId, { email: `a-${nextIp()}@example.com`, confirm: true }))
        .statusCode,
    ).toBe(201);
    await jobsSettled(t.app);

    const company = (
      await t.db.db.select().from(schema.accounts).where(eq(schema.accounts.id, form.account))
    )[0]?.displayName;
    expect(confirmationsTo(asked.e164).map((m) => m.body)).toEqual([
      publicRevokeTexts.es.confirmationSms(company ?? ''),
    ]);
    expect(confirmationsTo(notAsked.e164)).toEqual([]);

    // At most one per revocation: the job run again (a retry, a second delivery) sends nothing more.
    const { id } = answer.json<PublicRevocationResponse>();
    const [job] = (await jobsOf(t.app, 'send-revocation-confirmation')).filter(
      (j) => (j.data as { revocationId: string }).revocationId === id,
    );
    expect(job?.output).toEqual({ outcome: 'sent' });
    const handler = confirmationHandler();
    expect(await handler.run(job?.data, jobContext())).toEqual({ outcome: 'limited' });
    expect(confirmationsTo(asked.e164)).toHaveLength(1);
  });

  it('at most one a day to a number (no proof of ownership is asked), and only to a cell phone of the account’s countries', async () => {
    const { form } = await liveForm();
    const phone = newCellPhone();
    const { consumer } = await onRevokePage(form.publicId);
    for (let i = 0; i < 3; i++)
      expect((await revoke(consumer, form.publicId, { phone: phone.typed, confirm: true })).statusCode).toBe(
        201,
      );
    // A UK mobile: a valid number (the revocation is recorded), but not of the account's countries (US): no text.
    const abroad = await revoke(consumer, form.publicId, { phone: '+44 7400 123456', confirm: true });
    expect(abroad.statusCode).toBe(201);
    await jobsSettled(t.app);
    expect(confirmationsTo(phone.e164)).toHaveLength(1);
    expect(confirmationsTo('+447400123456')).toEqual([]);
    expect(await rowOf(abroad.json<PublicRevocationResponse>().id)).toMatchObject({ phone: '+447400123456' });
  });

  it('is not sent past five minutes after the revocation (FCC 24-24)', async () => {
    const { form } = await liveForm();
    const phone = newCellPhone();
    const { consumer } = await onRevokePage(form.publicId);
    const answer = await revoke(consumer, form.publicId, { phone: phone.typed });
    const { id } = answer.json<PublicRevocationResponse>();
    t.clock.advance(CONFIRMATION_WINDOW_MS + MINUTE);
    const handler = confirmationHandler();
    expect(await handler.run({ revocationId: id, language: 'en' }, jobContext())).toEqual({
      outcome: 'late',
    });
    expect(confirmationsTo(phone.e164)).toEqual([]);
  });
});

describe('links to the revocation page', () => {
  it('the code e-mail carries “Changed your mind? Revoke consent” with the form’s revocation page, in its language', async () => {
    for (const language of ['en', 'es'] as const) {
      const { form } = await liveForm({ language });
      const email = `code-${language}-${nextIp()}@example.com`;
      const consumer = new Consumer(t.app, nextIp());
      await consumer.open(form.publicId);
      const sent = await consumer.sendCode(form.publicId, {
        cellPhone: newCellPhone().typed,
        method: 'email',
        email,
        ...consumer.consentFields(),
        ...consumer.pageFields(),
      });
      expect(sent.statusCode, sent.body).toBe(201);
      await latestCodeTo(t.app, email);
      const [message] = await t.db.db
        .select()
        .from(schema.outboxMessages)
        .where(eq(schema.outboxMessages.to, email));
      const url = `${TEST_PUBLIC_URL}/f/${form.publicId}/revoke`;
      expect(message?.text).toContain(`${revokeLinkTexts[language]}: ${url}`);
      expect(message?.html).toContain(`<a href="${url}"`);
      expect(message?.html).toContain(`<html lang="${language}">`);
    }
  });
});

describe('limits', () => {
  it(`per connection: of 30 at once, exactly ${REVOCATION_PAGE_LIMITS.perIp.limit} are recorded; the others 429 in the form’s language`, async () => {
    expect(REVOCATION_PAGE_LIMITS.perIp).toEqual({ limit: 20, windowMs: HOUR });
    const { owner, form } = await liveForm({ language: 'es' });
    const ip = nextIp();
    const { consumer } = await onRevokePage(form.publicId, ip);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => revoke(consumer, form.publicId, { phone: newCellPhone().typed })),
    );
    const created = answers.filter((a) => a.statusCode === 201);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(created).toHaveLength(REVOCATION_PAGE_LIMITS.perIp.limit);
    expect(refused).toHaveLength(30 - REVOCATION_PAGE_LIMITS.perIp.limit);
    for (const answer of refused) {
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      expect(answer.json<{ detail: string }>().detail).toMatch(/^Se recibieron demasiadas solicitudes/);
    }
    const rows = await t.db.db
      .select({ n: count() })
      .from(schema.revocations)
      .where(eq(schema.revocations.accountId, owner.accountId));
    expect(rows[0]?.n).toBe(REVOCATION_PAGE_LIMITS.perIp.limit);

    // Another connection is not held up; this one again once the hour has passed.
    const other = await onRevokePage(form.publicId);
    expect((await revoke(other.consumer, form.publicId, { phone: newCellPhone().typed })).statusCode).toBe(
      201,
    );
    t.clock.advance(HOUR + MINUTE);
    expect((await revoke(consumer, form.publicId, { phone: newCellPhone().typed })).statusCode).toBe(201);
  });
});

/** The job's handler as the app registers it, to run directly. */
const confirmationHandler = () =>
  handlerOf(createJobWork(t.app.services, t.db.executeSql), 'send-revocation-confirmation');

/** What a handler run directly gets besides its payload. */
function jobContext() {
  return {
    log: t.app.log,
    job: {
      id: 'test',
      name: 'send-revocation-confirmation',
      retryCount: 0,
      retryLimit: 3,
      createdOn: new Date(),
    },
  };
}
