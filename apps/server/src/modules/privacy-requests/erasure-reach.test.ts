import type { PrivacyRequest } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../lib/rows.ts';
import { newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { MINUTE } from '../../test-support/clock.ts';
import { latestCodeTo } from '../../test-support/codes.ts';
import { jobsSettled } from '../../test-support/jobs.ts';
import {
  createPublicForm,
  newCellPhone,
  newConsumer,
  verifyPhone,
} from '../../test-support/public-verify.ts';
import { insertRevocation } from '../../test-support/revocations.ts';
import { spellingsOf, whereStored } from '../../test-support/stored.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';
import {
  approvedVerification,
  createForm,
  insertAttempt,
  linkCarrierLookups,
} from '../verifications/test-helpers.ts';
import { carriedOut, filed, lookupOf, verdictOf } from './test-helpers.ts';

/**
 * An erasure reaches every copy of the person (issue #37 item 3, ADR 47's amendment): besides the verifications it
 * redacts, the codes no verification names (hosted page, API v1, e-mail), their page views, webhook events, stored
 * Idempotency-Key answers, code-send buckets and outbox, the contactability verdicts and carrier lookups of the numbers.
 * The proof is a search of every text, JSON and array column of every table for the number and the address.
 */

const t = useTestApp();

const whereFound = (needles: readonly string[]) => whereStored(t.db.db, needles);

/** A GDPR request filed, carried out and answered. */
async function fileAndCarryOut(owner: Owner, body: Record<string, unknown>): Promise<PrivacyRequest> {
  return carriedOut(t.app, owner, (await filed(owner, { law: 'gdpr', ...body })).id);
}

async function attemptsOf(accountId: number, phone: string) {
  return t.db.db
    .select({
      id: schema.verificationAttempts.id,
      ip: schema.verificationAttempts.ip,
      userAgent: schema.verificationAttempts.userAgent,
    })
    .from(schema.verificationAttempts)
    .where(
      and(
        eq(schema.verificationAttempts.accountId, accountId),
        eq(schema.verificationAttempts.cellPhone, phone),
      ),
    );
}

describe('an erasure reaches every copy of the person', () => {
  it('the number and address are found nowhere after it, except under a legal hold; the answer counts each kind', async () => {
    const owner = await newOwner(t.app, 'Everywhere Co');
    const form = await createPublicForm(owner);
    const erased = newCellPhone();
    const held = newCellPhone();
    const email = `erase-me-${Date.now()}@example.com`;

    // A verification of the number on the hosted page (its code approved)…
    await verifyPhone(t.app, form.publicId, { cellPhone: erased.typed });
    // …a code asked for on another visit, from another address, never approved…
    t.clock.advance(2 * MINUTE);
    const visitor = await newConsumer(t.app, form.publicId, '203.0.113.55');
    const sent = await visitor.sendCode(form.publicId, {
      cellPhone: erased.typed,
      method: 'sms',
      ...visitor.consentFields(),
      ...visitor.pageFields(),
    });
    expect(sent.statusCode, sent.body).toBe(201);
    // …one started through API v1 with an Idempotency-Key (its stored answer names the number)…
    t.clock.advance(2 * MINUTE);
    const { key } = await newApiKey(owner, ['verifications:write'], 'live');
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/verifications',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': 'lead-42',
      },
      payload: JSON.stringify({ formId: form.id, to: erased.e164 }),
    });
    expect(started.statusCode, started.body).toBe(201);
    // …and a code by e-mail to the address, on a third visit (its e-mail goes through the outbox).
    t.clock.advance(2 * MINUTE);
    const byEmail = await newConsumer(t.app, form.publicId);
    const emailed = await byEmail.sendCode(form.publicId, {
      cellPhone: erased.typed,
      method: 'email',
      email,
      ...byEmail.consentFields(),
      ...byEmail.pageFields(),
    });
    expect(emailed.statusCode, emailed.body).toBe(201);
    const emailedCode = await latestCodeTo(t.app, email);
    // The person's opt-out stays (ADR 39, 47): their revocation is the one row that still names them.
    await insertRevocation(t.db.db, {
      accountId: owner.accountId,
      phone: erased.e164,
      receivedAt: t.clock.now(),
    });
    await verdictOf(owner, erased.e164);
    await lookupOf(t, owner, erased.e164);

    // A held number: a code never approved, a verdict and a lookup, all kept whole.
    t.clock.advance(2 * MINUTE);
    const heldVisitor = await newConsumer(t.app, form.publicId);
    const heldSent = await heldVisitor.sendCode(form.publicId, {
      cellPhone: held.typed,
      method: 'sms',
      ...heldVisitor.consentFields(),
      ...heldVisitor.pageFields(),
    });
    expect(heldSent.statusCode, heldSent.body).toBe(201);
    await verdictOf(owner, held.e164);
    await lookupOf(t, owner, held.e164);
    const hold = await owner.c.post(`/api/legal-holds?account=${owner.accountId}`, {
      scope: 'identifier',
      phone: held.e164,
      reason: 'Doe v. Acme, case 25-cv-7',
    });
    expect(hold.statusCode, hold.body).toBe(201);
    await jobsSettled(t.app);
    const heldBefore = await attemptsOf(owner.accountId, held.e164);
    expect(heldBefore).toHaveLength(1);
    expect(heldBefore[0]?.ip).not.toBeNull();

    const needles = [...spellingsOf(erased.e164), email];
    expect((await whereFound(needles)).length).toBeGreaterThan(3);

    const answered = await fileAndCarryOut(owner, {
      type: 'erasure',
      phones: [erased.e164, held.e164],
      emails: [email],
    });
    expect(answered.answer).toMatchObject({
      erased: 1,
      restricted: 0,
      revocationsKept: 1,
      attemptsErased: 3,
      verdictsErased: 1,
      lookupsErased: 1,
    });
    expect(answered.answer?.message).toContain('3 other codes sent');

    // The code still pending ended with the erasure: typed now, it makes no verification of the masked number.
    const late = await byEmail.check(emailed.json<{ attemptId: string }>().attemptId, emailedCode);
    expect(late.statusCode, late.body).toBe(400);
    const [ended] = await t.db.db
      .select({
        status: schema.verificationAttempts.status,
        sendAfter: schema.verificationAttempts.sendAfter,
      })
      .from(schema.verificationAttempts)
      .where(eq(schema.verificationAttempts.id, emailed.json<{ attemptId: string }>().attemptId));
    expect(ended).toEqual({ status: 'canceled', sendAfter: null });
    const made = await t.db.db
      .select({ id: schema.verifications.id })
      .from(schema.verifications)
      .where(eq(schema.verifications.accountId, owner.accountId));
    expect(made).toHaveLength(1);

    // Nowhere: no table holds the number in any spelling or the address (the request itself masked them), but the
    // person's revocation of consent.
    expect(await whereFound(needles)).toEqual(['public.revocations: 1']);
    // Nor the never-approved visit's IP address (its page view, attempt and code entries), but in the per-IP
    // code-send limit's bucket: the address's own count for a day, not the person's, which a redaction keeps too.
    expect(await whereFound(['203.0.113.55'])).toEqual(['public.rate_limit_events: 1']);
    const [bucket] = rowsOf(
      await t.db.db.execute(sql`select bucket from rate_limit_events where bucket like ${'%203.0.113.55%'}`),
    );
    expect(String(bucket?.bucket)).toMatch(/^code-send:ip:/);
    const viewsWithIp = rowsOf(
      await t.db.db.execute(
        sql`select count(*) as n from form_page_views where account_id = ${owner.accountId} and ip is not null`,
      ),
    );
    // The held number's visit keeps its page view's address.
    expect(Number(viewsWithIp[0]?.n)).toBe(1);

    // The held number's rows are untouched.
    expect(await attemptsOf(owner.accountId, held.e164)).toEqual(heldBefore);
    const heldVerdicts = await t.db.db
      .select({ id: schema.contactabilityChecks.id })
      .from(schema.contactabilityChecks)
      .where(eq(schema.contactabilityChecks.phone, held.e164));
    expect(heldVerdicts).toHaveLength(1);
    const heldLookups = await t.db.db
      .select({ answer: schema.lookups.answer })
      .from(schema.lookups)
      .where(eq(schema.lookups.phone, held.e164));
    expect(heldLookups).toHaveLength(1);
    expect(heldLookups[0]?.answer).not.toBeNull();

    // The answer's audit event counts each kind, naming nobody.
    const [event] = await t.db.db
      .select({ changes: schema.auditEvents.changes })
      .from(schema.auditEvents)
      .where(
        and(
          eq(schema.auditEvents.accountId, owner.accountId),
          eq(schema.auditEvents.action, 'privacy_request.answered'),
        ),
      );
    expect(event?.changes).toMatchObject({ attemptsErased: 3, verdictsErased: 1, lookupsErased: 1 });
    expect(JSON.stringify(event?.changes)).not.toContain(erased.e164.slice(2));
  });

  it('a verification under a hold keeps its visit: the codes of its form and number, its verdicts and lookups', async () => {
    const owner = await newOwner(t.app, 'Kept Visit Co');
    const form = await createForm(owner);
    const phone = '+12015550271';
    const made = await approvedVerification(t, form, { phone });
    await linkCarrierLookups(t, owner.accountId, made, {
      lineType: 'mobile',
      carrierName: 'Acme Wireless',
      lastSimSwapAt: null,
      withinWindow: false,
      windowDays: 7,
    });
    await insertAttempt(t, form, { cellPhone: phone, status: 'replaced', ip: '192.0.2.9' });
    await verdictOf(owner, phone);
    const hold = await owner.c.post(`/api/legal-holds?account=${owner.accountId}`, {
      scope: 'verification',
      verificationId: made.verificationId,
      reason: 'Kept for a complaint',
    });
    expect(hold.statusCode, hold.body).toBe(201);

    const answered = await fileAndCarryOut(owner, { type: 'erasure', phones: [phone] });
    expect(answered.answer).toMatchObject({
      erased: 0,
      restricted: 1,
      attemptsErased: 0,
      verdictsErased: 0,
      lookupsErased: 0,
    });
    const attempts = await attemptsOf(owner.accountId, phone);
    expect(attempts).toHaveLength(2);
    expect(attempts.map((a) => a.ip).sort()).toEqual(['192.0.2.9', null].sort());
    const lookups = await t.db.db
      .select({ answer: schema.lookups.answer })
      .from(schema.lookups)
      .where(and(eq(schema.lookups.accountId, owner.accountId), eq(schema.lookups.phone, phone)));
    expect(lookups).toHaveLength(2);
    expect(lookups.every((lookup) => lookup.answer !== null)).toBe(true);
  });

  it('a hold placed while it masks codes: whole batches before it, none after it', async () => {
    const owner = await newOwner(t.app, 'Race Reach Co');
    const form = await createForm(owner);
    const phone = '+12015550281';
    const total = 450;
    const at = t.clock.now();
    await t.db.db.insert(schema.verificationAttempts).values(
      Array.from({ length: total }, (_, i) => ({
        id: `race-reach-${i}`,
        accountId: owner.accountId,
        verifyFormId: form.id,
        cellPhone: phone,
        method: 'sms' as const,
        codeHash: 'not-a-real-hash',
        status: 'locked' as const,
        ip: '192.0.2.44',
        createdAt: new Date(at.getTime() - (total - i) * 1000),
        expiresAt: new Date(at.getTime() + MINUTE),
      })),
    );
    const filed = await owner.c.post(`/api/privacy-requests?account=${owner.accountId}`, {
      type: 'erasure',
      law: 'ccpa',
      requester: { name: 'Ana' },
      phones: [phone],
    });
    expect(filed.statusCode, filed.body).toBe(201);
    const id = filed.json<PrivacyRequest>().id;
    expect((await owner.c.post(`/api/privacy-requests/${id}/carry-out`, {})).statusCode).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const hold = await owner.c.post(`/api/legal-holds?account=${owner.accountId}`, {
      scope: 'identifier',
      phone,
      reason: 'Placed mid-erasure',
    });
    expect(hold.statusCode, hold.body).toBe(201);
    await jobsSettled(t.app);
    const answered = (await owner.c.get(`/api/privacy-requests/${id}`)).json<PrivacyRequest>();
    const rows = await t.db.db
      .select({ cellPhone: schema.verificationAttempts.cellPhone, ip: schema.verificationAttempts.ip })
      .from(schema.verificationAttempts)
      .where(eq(schema.verificationAttempts.accountId, owner.accountId));
    const intact = rows.filter((row) => row.cellPhone === phone && row.ip !== null).length;
    const masked = rows.filter((row) => row.cellPhone !== phone && row.ip === null).length;
    // Every code is either masked whole or untouched, and the answer counts the masked ones.
    expect(intact + masked).toBe(total);
    expect(answered.answer?.attemptsErased).toBe(masked);
    // Batches of 200 under the holds' lock: the hold came between two of them (or before the first, or after all).
    expect([0, 200, 400, total]).toContain(masked);
  });
});
