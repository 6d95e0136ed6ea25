import { errorTexts, type SendCodeResponse, type VerificationTimeline } from '@veriform/contracts';
import { transaction } from '@veriform/db';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { waitForSend } from '../../test-support/attempts.ts';
import { MINUTE } from '../../test-support/clock.ts';
import { latestCodeMessageTo } from '../../test-support/codes.ts';
import {
  type Consumer,
  createPublicForm,
  newCellPhone,
  newConsumer,
} from '../../test-support/public-verify.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import { recordDeliveryEvent } from '../attempts/index.ts';
import { insertVerification, verifyOnHostedPage, verifyThroughApi } from './test-helpers.ts';
import { verificationTimeline } from './timeline.ts';

/** GET /api/verifications/{id}/timeline (issue #18 item 6): from the page's opening to the verification. */

const t = useTestApp();
const notFound = { detail: 'Not found.', MainCode_: 'not_found' };

const at = (offsetMs: number, start: Date) => new Date(start.getTime() + offsetMs).toISOString();

async function timelineOf(owner: Owner, verificationId: number) {
  const response = await owner.c.get(
    `/api/verifications/${verificationId}/timeline?account=${owner.accountId}`,
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json<VerificationTimeline>().events;
}

/** Asks for a code by SMS from the consumer's page; answers the attempt once the job has sent it, and its code. */
async function askCode(consumer: Consumer, publicId: string, phone: { typed: string; e164: string }) {
  const response = await consumer.sendCode(publicId, {
    cellPhone: phone.typed,
    method: 'sms',
    ...consumer.consentFields(),
    ...consumer.pageFields(),
  });
  expect(response.statusCode, response.body).toBe(201);
  const { attemptId } = response.json<SendCodeResponse>();
  const row = await waitForSend(t.app, attemptId);
  const { code } = await latestCodeMessageTo(t.app, phone.e164);
  return { attemptId, sid: row.providerMessageId, code };
}

const report = (attemptId: string, status: 'delivered' | 'undelivered', errorCode: string | null = null) =>
  transaction(t.db.db, (tx) => recordDeliveryEvent(tx, { attemptId, status, at: t.clock.now(), errorCode }));

const line = (over: Record<string, unknown>) => ({
  attemptId: null,
  correct: null,
  errorCode: null,
  detail: null,
  ...over,
});

describe('GET /api/verifications/{id}/timeline', () => {
  it('a hosted verification: the page and its consent, each code asked from it with its reports, each code typed, then the verification', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const published = await owner.c.post(`/api/verify-forms/${form.id}/consent-versions`, {
      language: 'en',
      text: 'By entering your number you agree that Acme may contact you.',
      requireCheckbox: true,
    });
    expect(published.statusCode, published.body).toBe(201);

    const start = t.clock.now();
    const consumer = await newConsumer(t.app, form.publicId);
    const phone = newCellPhone();
    t.clock.advance(MINUTE);
    const first = await askCode(consumer, form.publicId, phone);
    t.clock.advance(MINUTE);
    await report(first.attemptId, 'undelivered', '30003');
    // Someone else on the same form meanwhile: their page and code are not in this timeline.
    const stranger = await newConsumer(t.app, form.publicId);
    await askCode(stranger, form.publicId, newCellPhone());
    t.clock.advance(MINUTE);
    const second = await askCode(consumer, form.publicId, phone);
    t.clock.advance(MINUTE);
    await report(second.attemptId, 'delivered');
    t.clock.advance(MINUTE);
    const wrong = String((Number(second.code) + 1) % 1_000_000).padStart(6, '0');
    expect((await consumer.check(second.attemptId, wrong)).statusCode).toBe(400);
    t.clock.advance(MINUTE);
    const checked = await consumer.check(second.attemptId, second.code);
    expect(checked.statusCode, checked.body).toBe(200);
    const { verificationId } = checked.json<{ verificationId: number }>();

    expect(await timelineOf(owner, verificationId)).toEqual([
      line({ kind: 'page_opened', at: at(0, start) }),
      line({ kind: 'consent_shown', at: at(0, start), detail: 'v1 (en)' }),
      line({ kind: 'code_requested', at: at(MINUTE, start), attemptId: first.attemptId, detail: 'SMS' }),
      line({ kind: 'code_sent', at: at(MINUTE, start), attemptId: first.attemptId, detail: first.sid }),
      line({
        kind: 'code_undelivered',
        at: at(2 * MINUTE, start),
        attemptId: first.attemptId,
        errorCode: '30003',
      }),
      line({ kind: 'code_requested', at: at(3 * MINUTE, start), attemptId: second.attemptId, detail: 'SMS' }),
      line({ kind: 'code_sent', at: at(3 * MINUTE, start), attemptId: second.attemptId, detail: second.sid }),
      line({ kind: 'code_delivered', at: at(4 * MINUTE, start), attemptId: second.attemptId }),
      line({ kind: 'code_entered', at: at(5 * MINUTE, start), attemptId: second.attemptId, correct: false }),
      line({ kind: 'code_entered', at: at(6 * MINUTE, start), attemptId: second.attemptId, correct: true }),
      line({ kind: 'verified', at: at(6 * MINUTE, start), attemptId: second.attemptId }),
    ]);
  });

  it('a code asked without a page view (a page older than views): that code alone, no page lines', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const consumer = await newConsumer(t.app, form.publicId);
    const phone = newCellPhone();
    consumer.pageViewId = null;
    const code = await askCode(consumer, form.publicId, phone);
    const checked = await consumer.check(code.attemptId, code.code);
    const { verificationId } = checked.json<{ verificationId: number }>();
    expect((await timelineOf(owner, verificationId)).map((e) => e.kind)).toEqual([
      'code_requested',
      'code_sent',
      'code_entered',
      'verified',
    ]);
  });

  it('a verification started through API v1 has no page lines', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const row = await verifyThroughApi(t, owner, form);
    const events = await timelineOf(owner, row.id);
    expect(events.map((e) => e.kind)).not.toContain('page_opened');
    expect(events.map((e) => e.kind)).not.toContain('consent_shown');
    // A test number's delivery lines (its simulated delivery) are left aside here.
    const delivery = ['code_sent', 'code_delivered', 'code_undelivered', 'code_failed'];
    expect(events.filter((e) => !delivery.includes(e.kind))).toEqual([
      expect.objectContaining({ kind: 'code_requested', correct: null }),
      expect.objectContaining({ kind: 'code_entered', correct: true }),
      expect.objectContaining({ kind: 'verified', correct: null }),
    ]);
    expect(events.every((e) => e.attemptId === events[0]?.attemptId && e.attemptId !== null)).toBe(true);
  });

  it('a verification older than timelines (no attempt leads to it) has an empty one', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const row = await insertVerification(t, form, { verifiedAt: t.clock.now() });
    expect(await timelineOf(owner, row.id)).toEqual([]);
  });

  it('another account’s verification, an unknown and a malformed id answer 404; the function answers null', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const row = await verifyOnHostedPage(t, form);
    const stranger = await newOwner(t.app, 'Stranger');
    for (const url of [
      `/api/verifications/${row.id}/timeline`,
      `/api/verifications/${row.id}/timeline?account=${owner.accountId}`,
      `/api/verifications/${row.id}/timeline?account=${stranger.accountId}`,
    ]) {
      const response = await stranger.c.get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    for (const id of ['2000000000', 'abc', '0']) {
      const response = await owner.c.get(`/api/verifications/${id}/timeline?account=${owner.accountId}`);
      expect(response.statusCode, id).toBe(404);
    }
    // The owner's other account, named in the URL: not found under it.
    const second = await owner.c.post('/api/accounts', { displayName: 'Second Co' });
    const secondId = second.json().membership.account.id as number;
    expect((await owner.c.get(`/api/verifications/${row.id}/timeline?account=${secondId}`)).statusCode).toBe(
      404,
    );

    expect(await verificationTimeline(t.db.db, stranger.accountId, row.id, t.clock.now())).toBeNull();
    expect(await verificationTimeline(t.db.db, owner.accountId, row.id, t.clock.now())).not.toBeNull();
  });

  it('needs canSearchData: 403 without it', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const row = await verifyOnHostedPage(t, form);
    const viewer = await join(t.app, owner, { canViewReports: true });
    const url = `/api/verifications/${row.id}/timeline?account=${owner.accountId}`;
    const denied = await viewer.c.get(url);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ detail: errorTexts.permissionDenied, MainCode_: 'permission_denied' });
    const searcher = await join(t.app, owner, { canSearchData: true });
    expect((await searcher.c.get(url)).statusCode).toBe(200);
  });
});
