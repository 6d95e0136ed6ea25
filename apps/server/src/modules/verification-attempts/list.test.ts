import { deliveryReasonOf, errorTexts } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { MINUTE } from '../../test-support/clock.ts';
import { statementsOf } from '../../test-support/statements.ts';
import { join, newOwner } from '../../test-support/teams.ts';
import { shownDeliveryStatus } from '../attempts/index.ts';
import { createForm, insertVerification, setClock } from '../verifications/test-helpers.ts';
import { addAttempt, deliver, enterCodes, listAttempts } from './test-helpers.ts';

/** GET /api/verification-attempts (issue #18 item 6): every code sent, with its delivery, on a real database. */

const t = useTestApp();
const sorted = (values: string[]) => [...values].sort();

describe('the list', () => {
  it('answers {count, pageNumber, pageSize, results}, each attempt with its delivery, newest first', async () => {
    setClock(t, '2026-06-10T12:00:00Z');
    const owner = await newOwner(t.app);
    const form = await createForm(owner, { name: 'Loans', category: 'Lending' });
    const verification = await insertVerification(t, form);
    const verified = await addAttempt(t, form, {
      createdAt: new Date('2026-06-10T11:00:00Z'),
      cellPhone: '+12015550111',
      externalRefId: 'lead-1',
      status: 'verified',
      verificationId: verification.id,
      sentAt: new Date('2026-06-10T11:00:01Z'),
      providerMessageId: 'SM111',
    });
    await deliver(t, verified, [
      { status: 'queued', at: new Date('2026-06-10T11:00:00Z') },
      { status: 'sent', at: new Date('2026-06-10T11:00:01Z') },
      { status: 'delivered', at: new Date('2026-06-10T11:00:04Z') },
    ]);
    await enterCodes(t, verified, [false, true]);
    const email = await addAttempt(t, form, {
      createdAt: new Date('2026-06-10T11:30:00Z'),
      method: 'email',
      email: 'ana@example.com',
      source: 'api',
      // Live (issue #33: the view shows live data unless mode=test).
      isTest: false,
    });

    const list = await listAttempts(owner);
    expect(list).toEqual({
      count: 2,
      pageNumber: 1,
      pageSize: 100,
      results: [
        {
          id: email,
          created: '2026-06-10T11:30:00.000Z',
          cellPhone: expect.any(String),
          email: 'ana@example.com',
          externalRefId: '',
          verifyFormId: form.id,
          verifyFormName: 'Loans',
          channel: 'email',
          source: 'api',
          isTest: false,
          // Its ten minutes ran out at 11:40.
          status: 'expired',
          deliveryStatus: 'queued',
          deliveryErrorCode: null,
          deliveryReason: null,
          providerMessageId: null,
          events: [],
          codesEntered: 0,
          verified: false,
          verificationId: null,
        },
        {
          id: verified,
          created: '2026-06-10T11:00:00.000Z',
          cellPhone: '+12015550111',
          email: null,
          externalRefId: 'lead-1',
          verifyFormId: form.id,
          verifyFormName: 'Loans',
          channel: 'sms',
          source: 'hosted',
          isTest: false,
          status: 'verified',
          deliveryStatus: 'delivered',
          deliveryErrorCode: null,
          deliveryReason: null,
          providerMessageId: 'SM111',
          events: [
            { status: 'queued', at: '2026-06-10T11:00:00.000Z', errorCode: null },
            { status: 'sent', at: '2026-06-10T11:00:01.000Z', errorCode: null },
            { status: 'delivered', at: '2026-06-10T11:00:04.000Z', errorCode: null },
          ],
          codesEntered: 2,
          verified: true,
          verificationId: verification.id,
        },
      ],
    });

    // The form's current name: attempts keep no copy of it.
    await t.db.db
      .update(schema.verifyForms)
      .set({ name: 'Loans 2026' })
      .where(eq(schema.verifyForms.id, form.id));
    expect((await listAttempts(owner)).results.map((r) => r.verifyFormName)).toEqual([
      'Loans 2026',
      'Loans 2026',
    ]);
  });

  it('statuses: pending until its time runs out (then expired), and the stored ones as they are', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const now = t.clock.now();
    const pending = await addAttempt(t, form, { expiresAt: new Date(now.getTime() + MINUTE) });
    const justExpired = await addAttempt(t, form, { expiresAt: now });
    const locked = await addAttempt(t, form, {
      status: 'locked',
      expiresAt: new Date(now.getTime() - MINUTE),
    });
    const replaced = await addAttempt(t, form, { status: 'replaced' });
    const canceled = await addAttempt(t, form, { status: 'canceled' });
    const statusOf = async () =>
      new Map((await listAttempts(owner)).results.map((r) => [r.id, [r.status, r.verified]]));
    expect(await statusOf()).toEqual(
      new Map([
        [pending, ['pending', false]],
        [justExpired, ['expired', false]],
        [locked, ['locked', false]],
        [replaced, ['replaced', false]],
        [canceled, ['canceled', false]],
      ]),
    );
    t.clock.advance(MINUTE);
    expect((await statusOf()).get(pending)).toEqual(['expired', false]);
  });

  it('pages never overlap: created desc, then id desc for attempts of the same instant', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const at = t.clock.now();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await addAttempt(t, form, { createdAt: at }));
    ids.push(await addAttempt(t, form, { createdAt: new Date(at.getTime() - MINUTE) }));
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const response = await owner.c.get(
        `/api/verification-attempts?account=${owner.accountId}&pageNumber=${page}&pageSize=3`,
      );
      const list = response.json<Awaited<ReturnType<typeof listAttempts>>>();
      expect(list).toMatchObject({ count: 8, pageNumber: page, pageSize: 3 });
      seen.push(...list.results.map((r) => r.id));
    }
    expect(seen).toEqual([...sorted(ids.slice(0, 7)).reverse(), ids[7]]);
  });

  it('reads the page’s delivery histories in one query, only its own events, oldest first', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const base = t.clock.now().getTime();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = await addAttempt(t, form, { sentAt: new Date(base + 1000) });
      // Twilio's callbacks out of order: `delivered` arrives before `sent`; the history is by time, the status stays.
      await deliver(t, id, [
        { status: 'queued', at: new Date(base) },
        { status: 'delivered', at: new Date(base + 3000 + i) },
        { status: 'sent', at: new Date(base + 1000) },
      ]);
      ids.push(id);
    }
    // A callback ahead of its message (no attempt yet) belongs to no attempt.
    await t.db.db
      .insert(schema.codeDeliveryEvents)
      .values({ attemptId: null, status: 'delivered', at: new Date(base), providerMessageId: 'SM-orphan' });

    let list: Awaited<ReturnType<typeof listAttempts>> | undefined;
    const statements = await statementsOf(t.db.db, async () => {
      list = await listAttempts(owner);
    });
    expect(statements.filter((s) => s.includes('code_delivery_events'))).toHaveLength(1);
    for (const result of list?.results ?? []) {
      const i = ids.indexOf(result.id);
      expect(result.deliveryStatus).toBe('delivered');
      expect(result.events).toEqual([
        { status: 'queued', at: new Date(base).toISOString(), errorCode: null },
        { status: 'sent', at: new Date(base + 1000).toISOString(), errorCode: null },
        { status: 'delivered', at: new Date(base + 3000 + i).toISOString(), errorCode: null },
      ]);
    }
    expect(list?.results).toHaveLength(5);
  });

  it('a failed delivery names its error code, its reason in words and the next step (30003, 30006, SMTP 550)', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const at = t.clock.now();
    const unreachable = await addAttempt(t, form, { sentAt: at });
    await deliver(t, unreachable, [
      { status: 'sent', at },
      { status: 'undelivered', at, errorCode: '30003' },
    ]);
    const landline = await addAttempt(t, form, { sentAt: at });
    await deliver(t, landline, [{ status: 'failed', at, errorCode: '30006' }]);
    const unknownCode = await addAttempt(t, form, { sentAt: at });
    await deliver(t, unknownCode, [{ status: 'failed', at, errorCode: '12345' }]);
    const mailbox = await addAttempt(t, form, { method: 'email', email: 'x@example.com' });
    await deliver(t, mailbox, [{ status: 'failed', at, errorCode: '550' }]);

    const byId = new Map((await listAttempts(owner)).results.map((r) => [r.id, r]));
    expect(byId.get(unreachable)).toMatchObject({
      deliveryStatus: 'undelivered',
      deliveryErrorCode: '30003',
      deliveryReason: {
        reason: 'Unreachable: the phone may be off or out of coverage.',
        nextStep: 'Ask the person to try again later or use e-mail.',
      },
      events: [
        { status: 'sent', errorCode: null },
        { status: 'undelivered', errorCode: '30003' },
      ],
    });
    expect(byId.get(landline)).toMatchObject({
      deliveryStatus: 'failed',
      deliveryErrorCode: '30006',
      deliveryReason: deliveryReasonOf('sms', '30006'),
    });
    expect(byId.get(landline)?.deliveryReason?.reason).toMatch(/^Landline/);
    // A code we have no words for is still shown; the reason is null.
    expect(byId.get(unknownCode)).toMatchObject({ deliveryErrorCode: '12345', deliveryReason: null });
    expect(byId.get(mailbox)).toMatchObject({
      channel: 'email',
      deliveryErrorCode: '550',
      deliveryReason: deliveryReasonOf('email', '550'),
    });
  });
});

describe('filters', () => {
  it('the log’s: form, category (the form’s current one), channel, source, dates in the caller’s zone, search', async () => {
    setClock(t, '2026-06-10T16:00:00Z');
    const owner = await newOwner(t.app);
    const loans = await createForm(owner, { name: 'Loans', category: 'Lending' });
    const cards = await createForm(owner, { name: 'Cards', category: 'Retail' });
    const a = await addAttempt(t, loans, { cellPhone: '+12015550142', externalRefId: 'CRM-9' });
    const b = await addAttempt(t, loans, { method: 'email', email: 'b@example.com', source: 'api' });
    const c = await addAttempt(t, cards, { createdAt: new Date('2026-06-10T03:30:00Z') });
    const d = await addAttempt(t, cards, { createdAt: new Date('2026-06-01T12:00:00Z'), method: 'email' });
    const ids = async (query: string) => sorted((await listAttempts(owner, query)).results.map((r) => r.id));

    expect(await ids(`verifyFormId__in=${loans.id}`)).toEqual(sorted([a, b]));
    expect(await ids(`verifyFormId__in=${loans.id},${cards.id}`)).toEqual(sorted([a, b, c, d]));
    expect(await ids('verifyFormCategory__in=Retail')).toEqual(sorted([c, d]));
    expect(await ids('verificationMethod__in=email')).toEqual(sorted([b, d]));
    expect(await ids('verificationMethod__in=sms')).toEqual(sorted([a, c]));
    expect(await ids('source=api')).toEqual([b]);
    expect(await ids('source=hosted')).toEqual(sorted([a, c, d]));
    // 03:30Z is June 9 in New York, June 10 in UTC.
    expect(await ids('created__date__preset=today&tz=America/New_York')).toEqual(sorted([a, b]));
    expect(await ids('created__date__preset=today&tz=UTC')).toEqual(sorted([a, b, c]));
    expect(await ids('created__date__preset=yesterday&tz=America/New_York')).toEqual([c]);
    expect(
      await ids(
        'created__date__preset=custom&created__date__gte=2026-06-01&created__date__lte=2026-06-01&tz=UTC',
      ),
    ).toEqual([d]);
    expect(await ids('q=0142')).toEqual([a]);
    expect(await ids('q=(201) 555-0142')).toEqual([a]);
    expect(await ids('q=crm')).toEqual([a]);
    expect(await ids('q=card')).toEqual(sorted([c, d]));
    // Combined with AND.
    expect(await ids(`verifyFormId__in=${cards.id}&verificationMethod__in=email`)).toEqual([d]);

    // The category is the form's current one (attempts keep no copy).
    await t.db.db
      .update(schema.verifyForms)
      .set({ category: 'Insurance' })
      .where(eq(schema.verifyForms.id, cards.id));
    expect(await ids('verifyFormCategory__in=Retail')).toEqual([]);
    expect(await ids('verifyFormCategory__in=Insurance')).toEqual(sorted([c, d]));
  });

  it('deliveryStatus: unknown is an SMS still queued or sent 10 minutes after it left, by the app’s clock', async () => {
    setClock(t, '2026-06-10T12:00:00Z');
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const now = t.clock.now().getTime();
    const ago = (minutes: number) => new Date(now - minutes * MINUTE);
    const rows = {
      // Not handed to the provider yet: queued, however old.
      queued: await addAttempt(t, form, { createdAt: ago(30) }),
      sentRecently: await addAttempt(t, form, { deliveryStatus: 'sent', sentAt: ago(9) }),
      sentTenMinutesAgo: await addAttempt(t, form, { deliveryStatus: 'sent', sentAt: ago(10) }),
      sentLongAgo: await addAttempt(t, form, { deliveryStatus: 'sent', sentAt: ago(60) }),
      queuedAfterSending: await addAttempt(t, form, { deliveryStatus: 'queued', sentAt: ago(20) }),
      // E-mail has no callbacks: SMTP's acceptance is all there is.
      emailSent: await addAttempt(t, form, {
        method: 'email',
        email: 'e@example.com',
        deliveryStatus: 'sent',
        sentAt: ago(60),
      }),
      delivered: await addAttempt(t, form, { deliveryStatus: 'delivered', sentAt: ago(60) }),
      undelivered: await addAttempt(t, form, {
        deliveryStatus: 'undelivered',
        deliveryErrorCode: '30003',
        sentAt: ago(60),
      }),
      failed: await addAttempt(t, form, {
        deliveryStatus: 'failed',
        deliveryErrorCode: '30006',
        sentAt: ago(60),
      }),
    };
    type Name = keyof typeof rows;
    const nameOf = new Map(Object.entries(rows).map(([name, id]) => [id, name as Name]));
    const names = async (query: string) =>
      (await listAttempts(owner, query)).results.map((r) => nameOf.get(r.id) ?? r.id).sort();

    expect(await names('deliveryStatus=unknown')).toEqual(
      ['queuedAfterSending', 'sentLongAgo', 'sentTenMinutesAgo'].sort(),
    );
    expect(await names('deliveryStatus=sent')).toEqual(['emailSent', 'sentRecently']);
    expect(await names('deliveryStatus=queued')).toEqual(['queued']);
    expect(await names('deliveryStatus=delivered')).toEqual(['delivered']);
    expect(await names('deliveryStatus=undelivered,failed')).toEqual(['failed', 'undelivered']);
    // Repeated keys as a comma list; junk items dropped; nothing left means every status.
    expect(await names('deliveryStatus=failed&deliveryStatus=delivered')).toEqual(['delivered', 'failed']);
    expect(await names('deliveryStatus=failed,lost')).toEqual(['failed']);
    for (const junk of ['deliveryStatus=lost', 'deliveryStatus=', 'deliveryStatus=,', 'deliveryStatus=SENT'])
      expect((await listAttempts(owner, junk)).count, junk).toBe(9);
    // With the log's filters (AND).
    expect(await names('deliveryStatus=unknown&q=nothing-matches')).toEqual([]);

    // Each row shows what the filter found it by, and what messaging/delivery-status.ts says of it.
    const stored = await t.db.db
      .select()
      .from(schema.verificationAttempts)
      .where(eq(schema.verificationAttempts.accountId, owner.accountId));
    const shown = new Map((await listAttempts(owner)).results.map((r) => [r.id, r.deliveryStatus]));
    for (const row of stored)
      expect(shown.get(row.id), nameOf.get(row.id)).toBe(shownDeliveryStatus(row, t.clock.now()));

    // A minute later, the one sent 9 minutes ago has waited 10: unknown too.
    t.clock.advance(MINUTE);
    expect(await names('deliveryStatus=sent')).toEqual(['emailSent']);
    expect(await names('deliveryStatus=unknown')).toContain('sentRecently');
    // A late callback settles it.
    await deliver(t, rows.sentRecently, [{ status: 'delivered', at: t.clock.now() }]);
    expect(await names('deliveryStatus=delivered')).toEqual(['delivered', 'sentRecently']);
  });

  it('bad values fall back as on the log: page size, page number, presets, channels', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    for (let i = 0; i < 3; i++) await addAttempt(t, form);
    const page = async (query: string) => {
      const response = await owner.c.get(`/api/verification-attempts?account=${owner.accountId}&${query}`);
      expect(response.statusCode, response.body).toBe(200);
      const list = response.json<Awaited<ReturnType<typeof listAttempts>>>();
      return {
        count: list.count,
        pageNumber: list.pageNumber,
        pageSize: list.pageSize,
        n: list.results.length,
      };
    };
    expect(await page('')).toEqual({ count: 3, pageNumber: 1, pageSize: 25, n: 3 });
    expect(await page('pageSize=1000&pageNumber=abc')).toEqual({
      count: 3,
      pageNumber: 1,
      pageSize: 25,
      n: 3,
    });
    expect(await page('pageSize=0&pageNumber=-2')).toEqual({ count: 3, pageNumber: 1, pageSize: 25, n: 3 });
    expect(await page('pageSize=2&pageNumber=2')).toEqual({ count: 3, pageNumber: 2, pageSize: 2, n: 1 });
    expect(await page('pageNumber=99')).toEqual({ count: 3, pageNumber: 99, pageSize: 25, n: 0 });
    for (const junk of [
      'verificationMethod__in=fax',
      'verifyFormId__in=abc',
      'source=web',
      'created__date__preset=someday',
      'created__date__gte=June',
      'tz=Mars/Olympus',
      `q=${'x'.repeat(300)}`,
    ])
      expect((await page(junk)).count, junk).toBe(3);
  });
});

describe('permissions and scoping', () => {
  it('canSearchData: 403 without it; another account answers 404 as the log does; its attempts never show', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    await addAttempt(t, form, { externalRefId: 'SECRET-REF' });
    const plain = await join(t.app, owner, { canViewReports: true });
    const denied = await plain.c.get(`/api/verification-attempts?account=${owner.accountId}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ detail: errorTexts.permissionDenied, MainCode_: 'permission_denied' });
    const searcher = await join(t.app, owner, { canSearchData: true });
    expect((await listAttempts({ c: searcher.c, accountId: owner.accountId })).count).toBe(1);

    const stranger = await newOwner(t.app, 'Stranger');
    const other = await stranger.c.get(`/api/verification-attempts?account=${owner.accountId}`);
    const log = await stranger.c.get(`/api/verifications?account=${owner.accountId}`);
    expect(other.statusCode).toBe(404);
    expect({ status: other.statusCode, body: other.json() }).toEqual({
      status: log.statusCode,
      body: log.json(),
    });
    expect(other.body).not.toContain('SECRET-REF');
    // Their own account, filtered by our form or searching our reference: nothing.
    expect((await listAttempts(stranger)).count).toBe(0);
    expect((await listAttempts(stranger, `verifyFormId__in=${form.id}`)).count).toBe(0);
    expect((await listAttempts(stranger, 'q=SECRET')).count).toBe(0);
    const anonymous = await t.app.inject({ url: `/api/verification-attempts?account=${owner.accountId}` });
    expect(anonymous.statusCode).toBe(401);
  });
});
