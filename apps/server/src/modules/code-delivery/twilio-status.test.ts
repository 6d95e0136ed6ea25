import { type ApiVerification, publicVerifyTexts } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiV1, newApiKey } from '../../test-support/api-v1/client.ts';
import { TEST_PUBLIC_URL } from '../../test-support/app.ts';
import { readAttempt, waitForSend } from '../../test-support/attempts.ts';
import { MINUTE } from '../../test-support/clock.ts';
import { createPublicForm, newCellPhone } from '../../test-support/public-verify.ts';
import { newOwner } from '../../test-support/teams.ts';
import { TWILIO_ERRORS, TWILIO_TEST_CREDENTIALS, twilioSignature } from '../../test-support/twilio.ts';
import { useTwilioTestApp } from '../../test-support/twilio-app.ts';

const { t, twilio } = useTwilioTestApp({ listening: true });
/** Where the app listens (the stand-in's callbacks go there); the signatures cover PUBLIC_URL, another origin. */
const loopback = () => twilio.callbackOrigin ?? '';

const CALLBACK_URL = `${TEST_PUBLIC_URL}/api/webhooks/twilio/status`;

/** A live code sent by SMS through API v1, once Twilio took it: the attempt's id, its SID and a reading client. */
async function sentCode(options: { to?: string } = {}) {
  const owner = await newOwner(t.app);
  const form = await createPublicForm(owner);
  const to = options.to ?? newCellPhone().e164;
  const { key } = await newApiKey(owner, ['verifications:write', 'verifications:read'], 'live');
  const api = apiV1(t.app, key);
  const started = await api.POST('/api/v1/verifications', { body: { formId: form.id, to } });
  expect(started.response.status).toBe(201);
  const id = started.data?.id ?? '';
  const row = await waitForSend(t.app, id);
  const read = async (): Promise<ApiVerification> => {
    const { data } = await api.GET('/api/v1/verifications/{id}', { params: { path: { id } } });
    if (!data) throw new Error('no verification');
    return data;
  };
  return { id, sid: row.providerMessageId ?? '', to, read, accountId: owner.accountId };
}

/** The account's stored webhook events of a type, for one verification. */
async function outcomeEvents(accountId: number, verificationId: string) {
  const rows = await t.db.db
    .select({ type: schema.webhookEvents.type, data: schema.webhookEvents.data })
    .from(schema.webhookEvents)
    .where(
      and(
        eq(schema.webhookEvents.accountId, accountId),
        inArray(schema.webhookEvents.type, ['verification.delivered', 'verification.delivery_failed']),
      ),
    );
  return rows.filter((row) => (row.data as ApiVerification).id === verificationId);
}

async function eventsOf(attemptId: string) {
  return t.db.db
    .select({ status: schema.codeDeliveryEvents.status, errorCode: schema.codeDeliveryEvents.errorCode })
    .from(schema.codeDeliveryEvents)
    .where(eq(schema.codeDeliveryEvents.attemptId, attemptId))
    .orderBy(asc(schema.codeDeliveryEvents.id));
}

async function postCallback(fields: Record<string, string>, headers: Record<string, string>) {
  return fetch(`${loopback()}/api/webhooks/twilio/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

describe('delivery status of SMS codes (Twilio status callbacks)', () => {
  it('records queued and sent, asks Twilio for reports at PUBLIC_URL, and the stand-in’s signed reports make it delivered', async () => {
    const code = await sentCode();
    expect(twilio.received.find((m) => m.sid === code.sid)?.statusCallback).toBe(CALLBACK_URL);
    expect((await code.read()).delivery).toEqual({ status: 'sent', errorCode: null, reason: null });

    const answers = await twilio.report(code.sid);
    expect(answers.map((a) => a.answer)).toEqual([204, 204]);
    expect((await code.read()).delivery).toEqual({ status: 'delivered', errorCode: null, reason: null });
    expect(await eventsOf(code.id)).toEqual([
      { status: 'queued', errorCode: null },
      { status: 'sent', errorCode: null },
      { status: 'sent', errorCode: null },
      { status: 'delivered', errorCode: null },
    ]);
  });

  it('an undelivered message keeps the carrier’s error code', async () => {
    const to = newCellPhone().e164;
    twilio.reports(to, { status: 'sent' }, { status: 'undelivered', errorCode: 30003 });
    const code = await sentCode({ to });
    await twilio.report(code.sid);
    expect((await code.read()).delivery).toEqual({
      status: 'undelivered',
      errorCode: '30003',
      reason: {
        reason: 'Unreachable: the phone may be off or out of coverage.',
        nextStep: 'Ask the person to try again later or use e-mail.',
      },
    });
  });

  it('refuses a missing or wrong signature, and one computed over the address the request came to (403), changing nothing', async () => {
    const code = await sentCode();
    const before = await eventsOf(code.id);
    const fields = {
      MessageSid: code.sid,
      MessageStatus: 'delivered',
      AccountSid: TWILIO_TEST_CREDENTIALS.accountSid,
    };
    const signatures: (string | null)[] = [
      null,
      '',
      twilioSignature('not-the-auth-token', CALLBACK_URL, fields),
      // Right token, but over the loopback URL: the app checks against PUBLIC_URL, what the message was created with.
      twilioSignature(TWILIO_TEST_CREDENTIALS.authToken, `${loopback()}/api/webhooks/twilio/status`, fields),
      // Right token and URL, but another status than the one signed.
      twilioSignature(TWILIO_TEST_CREDENTIALS.authToken, CALLBACK_URL, {
        ...fields,
        MessageStatus: 'failed',
      }),
    ];
    for (const signature of signatures) {
      const response = await postCallback(
        fields,
        signature === null ? {} : { 'x-twilio-signature': signature },
      );
      expect(response.status).toBe(403);
    }
    const forged = await twilio.report(code.sid, [{ status: 'delivered' }], { signature: 'AAAA' });
    expect(forged.map((a) => a.answer)).toEqual([403]);
    expect(await eventsOf(code.id)).toEqual(before);
    expect((await code.read()).delivery?.status).toBe('sent');

    const signed = await postCallback(fields, {
      'x-twilio-signature': twilioSignature(TWILIO_TEST_CREDENTIALS.authToken, CALLBACK_URL, fields),
    });
    expect(signed.status).toBe(204);
    expect((await code.read()).delivery?.status).toBe('delivered');
  });

  it('out-of-order reports never move the status back; every report is kept', async () => {
    const code = await sentCode();
    await twilio.report(code.sid, [
      { status: 'delivered' },
      { status: 'sent' },
      { status: 'queued' },
      { status: 'failed', errorCode: 30008 },
    ]);
    expect((await code.read()).delivery).toEqual({ status: 'delivered', errorCode: null, reason: null });
    expect((await eventsOf(code.id)).map((e) => e.status)).toEqual([
      'queued',
      'sent',
      'delivered',
      'sent',
      'queued',
      'failed',
    ]);
  });

  it('two final reports at once: one wins, the other is kept as an event only', async () => {
    const code = await sentCode();
    await Promise.all([
      twilio.report(code.sid, [{ status: 'delivered' }]),
      twilio.report(code.sid, [{ status: 'undelivered', errorCode: 30005 }]),
    ]);
    const { delivery } = await code.read();
    expect([
      JSON.stringify({ status: 'delivered', errorCode: null }),
      JSON.stringify({ status: 'undelivered', errorCode: '30005' }),
    ]).toContain(JSON.stringify({ status: delivery?.status, errorCode: delivery?.errorCode }));
    const row = await readAttempt(t.app, code.id);
    expect(row.deliveryStatus).toBe(delivery?.status);
    expect((await eventsOf(code.id)).length).toBe(4);
  });

  it('no report 10 minutes after sent shows as unknown, never delivered; a late report still counts', async () => {
    const code = await sentCode();
    t.clock.advance(9 * MINUTE);
    expect((await code.read()).delivery?.status).toBe('sent');
    t.clock.advance(MINUTE);
    expect((await code.read()).delivery?.status).toBe('unknown');
    await twilio.report(code.sid, [{ status: 'delivered' }]);
    expect((await code.read()).delivery?.status).toBe('delivered');
  });

  it('a permanent refusal by Twilio is failed, with its code', async () => {
    const to = newCellPhone().e164;
    twilio.script(to, TWILIO_ERRORS.unsubscribed);
    const code = await sentCode({ to });
    expect((await code.read()).delivery).toEqual({
      status: 'failed',
      errorCode: '21610',
      reason: expect.objectContaining({ reason: 'Opted out: the person replied STOP to our messages.' }),
    });
    expect((await eventsOf(code.id)).map((e) => e.status)).toEqual(['queued', 'failed']);
  });

  it('a signed report for a message not (yet) ours is accepted and kept aside, with no attempt', async () => {
    const sid = `SM${'0'.repeat(31)}1`;
    const fields = { MessageSid: sid, MessageStatus: 'delivered' };
    const response = await postCallback(fields, {
      'x-twilio-signature': twilioSignature(TWILIO_TEST_CREDENTIALS.authToken, CALLBACK_URL, fields),
    });
    expect(response.status).toBe(204);
    const kept = await t.db.db
      .select({ status: schema.codeDeliveryEvents.status })
      .from(schema.codeDeliveryEvents)
      .where(
        and(
          isNull(schema.codeDeliveryEvents.attemptId),
          eq(schema.codeDeliveryEvents.providerMessageId, sid),
        ),
      );
    expect(kept).toEqual([{ status: 'delivered' }]);
  });

  it('reports that arrive before the SID is saved are adopted by the send: the attempt shows delivered, once', async () => {
    const to = newCellPhone().e164;
    twilio.reportEarly(to);
    const code = await sentCode({ to });
    // The reports were answered before the app had the SID (Twilio's create had not returned yet).
    expect(twilio.sentReports.filter((r) => r.sid === code.sid).map((r) => [r.status, r.answer])).toEqual([
      ['sent', 204],
      ['delivered', 204],
    ]);
    expect((await code.read()).delivery).toEqual({ status: 'delivered', errorCode: null, reason: null });
    expect((await eventsOf(code.id)).map((e) => e.status).sort()).toEqual([
      'delivered',
      'queued',
      'sent',
      'sent',
    ]);
    const events = await outcomeEvents(code.accountId, code.id);
    expect(events.map((e) => e.type)).toEqual(['verification.delivered']);
    expect(events[0]?.data).toEqual(await code.read());
  });

  it('an early undelivered report is adopted with its error code, and the page tells the consumer why', async () => {
    const to = newCellPhone().e164;
    twilio.reports(to, { status: 'undelivered', errorCode: 30007 }, { status: 'sent' });
    twilio.reportEarly(to);
    const code = await sentCode({ to });
    expect((await code.read()).delivery).toMatchObject({ status: 'undelivered', errorCode: '30007' });
    expect((await outcomeEvents(code.accountId, code.id)).map((e) => e.type)).toEqual([
      'verification.delivery_failed',
    ]);
    const shown = await t.app.inject({ method: 'GET', url: `/api/public/attempts/${code.id}/delivery` });
    expect(shown.json()).toEqual({
      status: 'undelivered',
      message: publicVerifyTexts.en.deliveryCarrierFilter,
      suggestEmail: true,
    });
  });

  it('a final report emits its webhook event once; the same report 10 times at once still emits one', async () => {
    const code = await sentCode();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => twilio.report(code.sid, [{ status: 'delivered' }])),
    );
    expect(answers.flat().map((a) => a.answer)).toEqual(Array(10).fill(204));
    expect((await code.read()).delivery?.status).toBe('delivered');
    const events = await outcomeEvents(code.accountId, code.id);
    expect(events.map((e) => e.type)).toEqual(['verification.delivered']);
    expect(events[0]?.data).toMatchObject({ id: code.id, delivery: { status: 'delivered' } });
    // Every report is kept as evidence.
    expect((await eventsOf(code.id)).filter((e) => e.status === 'delivered')).toHaveLength(10);
  });

  it('undelivered: verification.delivery_failed with the reason; a later delivered report changes nothing', async () => {
    const code = await sentCode();
    await twilio.report(code.sid, [{ status: 'undelivered', errorCode: 30003 }, { status: 'delivered' }]);
    const events = await outcomeEvents(code.accountId, code.id);
    expect(events.map((e) => e.type)).toEqual(['verification.delivery_failed']);
    expect(events[0]?.data).toMatchObject({
      delivery: { status: 'undelivered', errorCode: '30003', reason: { nextStep: expect.any(String) } },
    });
  });

  it('a permanent refusal by Twilio emits verification.delivery_failed', async () => {
    const to = newCellPhone().e164;
    twilio.script(to, TWILIO_ERRORS.notMobile);
    const code = await sentCode({ to });
    const events = await outcomeEvents(code.accountId, code.id);
    expect(events.map((e) => e.type)).toEqual(['verification.delivery_failed']);
    expect(events[0]?.data).toMatchObject({ delivery: { status: 'failed', errorCode: '21614' } });
  });
});
