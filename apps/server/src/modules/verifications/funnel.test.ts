import type { FunnelSteps, VerificationReport, VerifyForm } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { parseCsv } from '../../test-support/csv.ts';
import {
  createPublicForm,
  newCellPhone,
  newConsumer,
  verifyPhone,
} from '../../test-support/public-verify.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';
import { attemptExportHeader } from '../verification-attempts/export.ts';
import { createForm, insertAttempt, setClock } from './test-helpers.ts';

/**
 * The dashboard's funnel (issue #18 item 7): page opened → code requested → delivered → code entered → verified, over
 * the attempts of the range, by channel and form, with the top failure reasons; on a real database.
 */

const t = useTestApp();

const NOW = '2026-03-15T16:00:00Z';
const minutesAgo = (minutes: number) => new Date(new Date(NOW).getTime() - minutes * 60_000);

const report = async (owner: Pick<Owner, 'c' | 'accountId'>, query = '') => {
  const response = await owner.c.get(`/api/verifications/report?account=${owner.accountId}&${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<VerificationReport>().funnel;
};

let ids = 0;

/** An attempt with its code entries (right ones last; each wrong one counted, as checks do), returning its id. */
async function attempt(
  form: VerifyForm,
  values: Partial<typeof schema.verificationAttempts.$inferInsert> = {},
  entries: boolean[] = [],
): Promise<string> {
  ids += 1;
  const id = `funnel-${Date.now()}-${ids}`;
  const wrongTries = entries.filter((correct) => !correct).length;
  await insertAttempt(t, form, { id, createdAt: minutesAgo(60), wrongTries, ...values });
  for (const [i, correct] of entries.entries())
    await t.db.db.insert(schema.codeEntries).values({ attemptId: id, at: minutesAgo(50 - i), correct });
  return id;
}

async function pageViews(form: VerifyForm, n: number, createdAt = minutesAgo(70)) {
  for (let i = 0; i < n; i++) {
    ids += 1;
    await t.db.db.insert(schema.formPageViews).values({
      id: `pv_funnel_${Date.now()}_${ids}`,
      accountId: form.account,
      verifyFormId: form.id,
      language: 'en',
      createdAt,
    });
  }
}

const verified = { status: 'verified', deliveryStatus: 'delivered', verifiedAt: minutesAgo(40) } as const;

/**
 * Two forms and every fate of a code: delivered SMS entered right or wrong or not at all, a test number's simulated
 * delivery, SMS still waiting (one past the 10-minute "unknown"), undelivered and failed ones, e-mail accepted by SMTP
 * or refused; and another account's rows, and rows outside the range, that must not count.
 */
async function world() {
  setClock(t, NOW);
  const owner = await newOwner(t.app);
  const loans = await createForm(owner, { name: 'Loans', category: 'Lending' });
  const cards = await createForm(owner, { name: 'Cards', category: 'Retail' });
  await pageViews(loans, 6);
  await pageViews(cards, 3);
  await pageViews(loans, 2, new Date('2026-03-01T12:00:00Z')); // outside last7d
  // Loans: 7 SMS.
  await attempt(loans, verified, [false, true]);
  await attempt(loans, verified, [true]);
  await attempt(loans, { deliveryStatus: 'delivered' }, [false]);
  // Live: the attempts export it is compared with shows live data unless mode=test (issue #33).
  await attempt(loans, { deliveryStatus: 'delivered' });
  await attempt(loans, { deliveryStatus: 'sent', sentAt: minutesAgo(2) });
  await attempt(loans, { deliveryStatus: 'sent', sentAt: minutesAgo(30) }); // shown "unknown"
  await attempt(loans, { deliveryStatus: 'undelivered', deliveryErrorCode: '30007' }, [false]);
  // Cards: 2 SMS failed or undelivered, 3 e-mails.
  await attempt(cards, { deliveryStatus: 'failed', deliveryErrorCode: '30006' });
  await attempt(cards, { deliveryStatus: 'undelivered', deliveryErrorCode: '30007' });
  await attempt(cards, { method: 'email', email: 'a@example.com', deliveryStatus: 'sent' }, [false]);
  await attempt(cards, { method: 'email', email: 'b@example.com', ...verified }, [true]);
  await attempt(cards, {
    method: 'email',
    email: 'c@example.com',
    deliveryStatus: 'failed',
    deliveryErrorCode: '550',
  });
  await attempt(cards, { deliveryStatus: 'delivered', createdAt: new Date('2026-03-01T12:00:00Z') }); // outside
  // Another account's views and codes, in the same range.
  const stranger = await newOwner(t.app, 'Stranger');
  const theirs = await createForm(stranger, { name: 'Theirs' });
  await pageViews(theirs, 5);
  await attempt(theirs, verified, [true]);
  await attempt(theirs, { deliveryStatus: 'undelivered', deliveryErrorCode: '30007' });
  return { owner, loans, cards, stranger };
}

const reasonOf30007 = {
  reason: 'Blocked by the carrier’s filter.',
  nextStep: 'Try e-mail instead.',
};

describe('the dashboard funnel (GET /api/verifications/report → funnel)', () => {
  it('counts each step over the range’s attempts, by channel and by form, with the top failure reasons', async () => {
    const { owner, loans, cards, stranger } = await world();
    const funnel = await report(owner);
    expect(funnel).toEqual({
      pageOpened: 9,
      pageOpenedUnavailable: null,
      codeRequested: 12,
      // SMS delivered (4, the test number's included); e-mail accepted by SMTP (2).
      delivered: 6,
      codeEntered: 6,
      verified: 3,
      codesSent: 12,
      conversionRate: 3 / 12,
      byChannel: [
        { channel: 'sms', codeRequested: 9, delivered: 4, codeEntered: 4, verified: 2 },
        { channel: 'email', codeRequested: 3, delivered: 2, codeEntered: 2, verified: 1 },
      ],
      byForm: [
        {
          verifyFormId: loans.id,
          verifyFormName: 'Loans',
          pageOpened: 6,
          codeRequested: 7,
          delivered: 4,
          codeEntered: 4,
          verified: 2,
        },
        {
          verifyFormId: cards.id,
          verifyFormName: 'Cards',
          pageOpened: 3,
          codeRequested: 5,
          delivered: 2,
          codeEntered: 2,
          verified: 1,
        },
      ],
      topFailureReasons: [
        { errorCode: '30007', channel: 'sms', count: 2, reason: reasonOf30007 },
        { errorCode: '550', channel: 'email', count: 1, reason: expect.objectContaining({}) },
        {
          errorCode: '30006',
          channel: 'sms',
          count: 1,
          reason: {
            reason: 'Landline: this number cannot receive text messages.',
            nextStep: 'Ask for a mobile number.',
          },
        },
      ],
    });
    expect(funnel.topFailureReasons[1]?.reason?.reason).toBe('The mail server refused the address for good.');

    // The other account sees its own rows only.
    const theirs = await report(stranger);
    expect(theirs).toMatchObject({
      pageOpened: 5,
      codeRequested: 2,
      delivered: 1,
      codeEntered: 1,
      verified: 1,
    });
    expect(theirs.topFailureReasons).toEqual([
      { errorCode: '30007', channel: 'sms', count: 1, reason: reasonOf30007 },
    ]);

    // last30d takes in the older views and attempt.
    expect(await report(owner, 'created__date__preset=last30d')).toMatchObject({
      pageOpened: 11,
      codeRequested: 13,
      delivered: 7,
    });
  });

  it('a channel, API v1 or a search: no page-view count (views know none of them); forms and categories narrow it', async () => {
    const { owner, loans, cards } = await world();
    const sms = await report(owner, 'verificationMethod__in=sms');
    expect(sms).toMatchObject({
      pageOpened: null,
      pageOpenedUnavailable: 'channel',
      codeRequested: 9,
      delivered: 4,
      codeEntered: 4,
      verified: 2,
    });
    expect(sms.byForm.map((f) => f.pageOpened)).toEqual([null, null]);
    // Channel lines always list both, the filtered-out one with zeros.
    expect(sms.byChannel[1]).toEqual({
      channel: 'email',
      codeRequested: 0,
      delivered: 0,
      codeEntered: 0,
      verified: 0,
    });
    expect(sms.topFailureReasons.map((r) => r.errorCode)).toEqual(['30007', '30006']);
    // Both channels named is no channel filter.
    expect((await report(owner, 'verificationMethod__in=sms,email')).pageOpened).toBe(9);
    expect(await report(owner, 'source=api')).toMatchObject({
      pageOpened: null,
      pageOpenedUnavailable: 'source',
      codeRequested: 0,
    });
    expect((await report(owner, 'source=hosted')).pageOpened).toBe(9);
    expect(await report(owner, 'q=cards')).toMatchObject({
      pageOpened: null,
      pageOpenedUnavailable: 'search',
      codeRequested: 5,
    });

    const lending = await report(owner, 'verifyFormCategory__in=Lending');
    expect(lending).toMatchObject({ pageOpened: 6, codeRequested: 7, verified: 2 });
    expect(lending.byForm.map((f) => f.verifyFormId)).toEqual([loans.id]);
    expect(await report(owner, `verifyFormId__in=${cards.id}`)).toMatchObject({
      pageOpened: 3,
      codeRequested: 5,
      delivered: 2,
    });
    // A category no form has: nothing, views included.
    expect(await report(owner, 'verifyFormCategory__in=Insurance')).toMatchObject({
      pageOpened: 0,
      codeRequested: 0,
    });
  });

  it('a consumer’s codes through the public page: each one typed is entered once, a right one verified too', async () => {
    setClock(t, NOW);
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    // One right code; and a code mistyped twice, never typed right (entered once, as the attempt counts).
    await verifyPhone(t.app, form.publicId);
    const consumer = await newConsumer(t.app, form.publicId);
    const sent = await consumer.sendCode(form.publicId, {
      cellPhone: newCellPhone().typed,
      method: 'sms',
      ...consumer.consentFields(),
      ...consumer.pageFields(),
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const { attemptId } = sent.json<{ attemptId: string }>();
    for (const wrong of ['000000', '111111'])
      expect((await consumer.check(attemptId, wrong)).statusCode).toBe(400);
    const funnel = await report(owner);
    expect(funnel).toMatchObject({ codeRequested: 2, codeEntered: 2, verified: 1 });
    expect(funnel.byChannel.find((c) => c.channel === 'sms')).toMatchObject({ codeEntered: 2, verified: 1 });
  });

  it('the 5 most frequent failures (a code without words keeps its code), and the 10 forms with most codes', async () => {
    setClock(t, NOW);
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const failures: [string | null, number][] = [
      ['30003', 4],
      ['30005', 3],
      ['12345', 2],
      [null, 2],
      ['30008', 1],
      ['21610', 1],
    ];
    for (const [code, n] of failures)
      for (let i = 0; i < n; i++) await attempt(form, { deliveryStatus: 'failed', deliveryErrorCode: code });
    const funnel = await report(owner);
    expect(funnel.topFailureReasons.map((r) => [r.errorCode, r.count])).toEqual([
      ['30003', 4],
      ['30005', 3],
      // Ties by code, the missing code last.
      ['12345', 2],
      [null, 2],
      ['21610', 1],
    ]);
    expect(funnel.topFailureReasons[2]?.reason).toBeNull();
    expect(funnel.topFailureReasons[3]?.reason).toBeNull();

    const forms = [form];
    for (let i = 1; i < 11; i++) forms.push(await createForm(owner, { name: `Form ${i}` }));
    // Form i (i ≥ 1) gets i codes: form 1 (one code) is the one left out; the first form has 13.
    for (const [i, f] of forms.entries()) if (i > 0) for (let n = 0; n < i; n++) await attempt(f);
    const byForm = (await report(owner)).byForm;
    expect(byForm.map((f) => f.codeRequested)).toEqual([13, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    expect(byForm.map((f) => f.verifyFormId)).not.toContain(forms[1]?.id);
  });

  it('its numbers equal the rows of the attempts export for the same filters', async () => {
    const { owner, cards, stranger } = await world();
    const column = (name: (typeof attemptExportHeader)[number]) => attemptExportHeader.indexOf(name);
    type Row = string[];
    const cell = (row: Row, name: (typeof attemptExportHeader)[number]) => row[column(name)] ?? '';

    /** The export's rows for the filters, read as a member would read the file. */
    const exported = async (who: Pick<Owner, 'c' | 'accountId'>, query: string): Promise<Row[]> => {
      const response = await who.c.get(
        `/api/verification-attempts/export-csv?account=${who.accountId}&${query}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      const [header, ...rows] = parseCsv(response.body.replace(/^\uFEFF/, ''));
      expect(header).toEqual([...attemptExportHeader]);
      return rows;
    };
    /** The funnel's steps counted from the export's rows (the contract's definitions, in the file's words). */
    const stepsOf = (rows: Row[]): FunnelSteps => ({
      codeRequested: rows.length,
      delivered: rows.filter((r) =>
        cell(r, 'Channel') === 'SMS'
          ? cell(r, 'Delivery status') === 'Delivered'
          : ['Sent', 'Delivered'].includes(cell(r, 'Delivery status')),
      ).length,
      codeEntered: rows.filter((r) => Number(cell(r, 'Codes entered')) > 0).length,
      verified: rows.filter((r) => cell(r, 'Verified') === 'Yes').length,
    });
    const failuresOf = (rows: Row[]) => {
      const counts = new Map<string, number>();
      for (const r of rows)
        if (['Undelivered', 'Failed'].includes(cell(r, 'Delivery status'))) {
          const key = `${cell(r, 'Channel')}|${cell(r, 'Error code')}|${cell(r, 'Reason')}`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
      return counts;
    };
    const channelWord = { sms: 'SMS', email: 'E-mail' } as const;

    const filters = [
      'created__date__preset=last7d',
      'created__date__preset=last30d',
      'created__date__preset=last7d&verificationMethod__in=sms',
      'created__date__preset=last7d&verificationMethod__in=email',
      `created__date__preset=last7d&verifyFormId__in=${cards.id}`,
      'created__date__preset=last7d&verifyFormCategory__in=Lending',
      'created__date__preset=last7d&q=loans',
      'created__date__preset=last7d&source=api',
    ];
    for (const query of filters.map((f) => `tz=America/New_York&${f}`)) {
      const funnel = await report(owner, query);
      const rows = await exported(owner, query);
      const { codeRequested, delivered, codeEntered, verified } = funnel;
      expect({ codeRequested, delivered, codeEntered, verified }, query).toEqual(stepsOf(rows));
      for (const line of funnel.byChannel) {
        const { channel, ...steps } = line;
        expect(steps, `${query} ${channel}`).toEqual(
          stepsOf(rows.filter((r) => cell(r, 'Channel') === channelWord[channel])),
        );
      }
      for (const form of funnel.byForm) {
        const { verifyFormId, verifyFormName: _name, pageOpened: _views, ...steps } = form;
        expect(steps, `${query} form ${verifyFormId}`).toEqual(
          stepsOf(rows.filter((r) => cell(r, 'Form ID') === String(verifyFormId))),
        );
      }
      // Every failure line of the export is in the top 5 here (fewer than 5 kinds), with its count and reason.
      const failures = failuresOf(rows);
      expect(
        new Map(
          funnel.topFailureReasons.map((f) => [
            `${channelWord[f.channel]}|${f.errorCode ?? ''}|${f.reason?.reason ?? ''}`,
            f.count,
          ]),
        ),
        query,
      ).toEqual(failures);
    }
    // The world has every step non-zero under the default filters, so the comparison above compared something.
    expect(stepsOf(await exported(owner, 'tz=America/New_York&created__date__preset=last7d'))).toEqual({
      codeRequested: 12,
      delivered: 6,
      codeEntered: 6,
      verified: 3,
    });
    // The other account: its own rows on both sides.
    const theirs = await report(stranger, 'created__date__preset=last7d');
    expect(theirs.codeRequested).toBe((await exported(stranger, 'created__date__preset=last7d')).length);
  });
});
