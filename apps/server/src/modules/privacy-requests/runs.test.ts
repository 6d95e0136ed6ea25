import { schema } from '@veriform/db';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createJobWork, handlerOf } from '../../job-handlers.ts';
import { longestRunSeconds } from '../../jobs/define.ts';
import { carryOutPrivacyRequest } from '../../jobs/definitions/carry-out-privacy-request.ts';
import { reopenStalledPrivacyRequests } from '../../jobs/definitions/reopen-stalled-privacy-requests.ts';
import { useTestApp } from '../../test-support/app.ts';
import { HOUR, MINUTE } from '../../test-support/clock.ts';
import { jobsOf, jobsSettled } from '../../test-support/jobs.ts';
import { newOwner } from '../../test-support/teams.ts';
import { approvedVerification, createForm, insertAttempt } from '../verifications/test-helpers.ts';
import { filed, lookupOf, read, verdictOf } from './test-helpers.ts';

/**
 * A data-subject request's runs (issue #37 leftovers, ADR 47's second amendment): a retried erasure answers what every
 * run erased (`erased_so_far`, counted in each redaction's transaction), and a request whose job died without its
 * failure path (killed, or expired) is reopened by the hourly sweep once no try of its job can be left.
 */

const t = useTestApp();

async function rowOf(id: string) {
  const [row] = await t.db.db.select().from(schema.privacyRequests).where(eq(schema.privacyRequests.id, id));
  if (!row) throw new Error(`no request ${id}`);
  return row;
}

/** Running since `since`, as a carry-out leaves it, without queueing its job (the test runs the work itself). */
async function runningSince(id: string, since: Date): Promise<void> {
  await t.db.db
    .update(schema.privacyRequests)
    .set({ status: 'running', runningSince: since })
    .where(eq(schema.privacyRequests.id, id));
}

/** The request's audit events: action and changes, oldest first. */
async function eventsOf(id: string) {
  return t.db.db
    .select({ action: schema.auditEvents.action, changes: schema.auditEvents.changes })
    .from(schema.auditEvents)
    .where(and(eq(schema.auditEvents.targetType, 'privacy_request'), eq(schema.auditEvents.targetId, id)))
    .orderBy(asc(schema.auditEvents.id));
}

/** One try of the job, as its worker runs it; answers what it threw (the database's refusal, under "Failed query"). */
function tryOnce(id: string, retryCount: number): Promise<string> {
  return handlerOf(createJobWork(t.app.services, t.db.executeSql), carryOutPrivacyRequest.name)
    .run(
      { privacyRequestId: id },
      {
        log: t.app.log,
        job: {
          id: 'test',
          name: carryOutPrivacyRequest.name,
          retryCount,
          retryLimit: carryOutPrivacyRequest.queue.retryLimit ?? 0,
          createdOn: new Date(),
        },
      },
    )
    .then(
      () => '(no failure)',
      (error: unknown) => String(error instanceof Error ? error.cause : error),
    );
}

/** While `work` runs, the database refuses to answer `id` (the job fails at its last step, as a crash there would). */
async function refusingAnswerOf<T>(id: string, work: () => Promise<T>): Promise<T> {
  await t.db.executeSql(
    "CREATE FUNCTION refuse_answer() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$",
  );
  await t.db.executeSql(
    `CREATE TRIGGER refuse_answer BEFORE UPDATE ON privacy_requests FOR EACH ROW WHEN (NEW.status = 'answered' AND NEW.id = '${id}') EXECUTE FUNCTION refuse_answer()`,
  );
  try {
    return await work();
  } finally {
    await t.db.executeSql('DROP TRIGGER refuse_answer ON privacy_requests');
    await t.db.executeSql('DROP FUNCTION refuse_answer()');
  }
}

async function redactedCount(accountId: number): Promise<number> {
  const rows = await t.db.db
    .select({ id: schema.verifications.id })
    .from(schema.verifications)
    .where(and(eq(schema.verifications.accountId, accountId), isNotNull(schema.verifications.redactedAt)));
  return rows.length;
}

describe('counts across runs', () => {
  it('a run that failed after erasing two, and one that erased the third: the answer says 3, once each', async () => {
    const owner = await newOwner(t.app, 'Two Runs Co');
    const form = await createForm(owner);
    const phone = '+12015550301';
    await approvedVerification(t, form, { phone });
    await approvedVerification(t, form, { phone });
    const request = await filed(owner, { type: 'erasure', phones: [phone] });
    await runningSince(request.id, t.clock.now());

    // The first run erases both, then its last try fails at the answer: back to open, the two counted.
    const failure = await refusingAnswerOf(request.id, () => tryOnce(request.id, 3));
    expect(failure).toMatch(/injected failure/);
    expect(await rowOf(request.id)).toMatchObject({ status: 'open', runningSince: null, erasedSoFar: 2 });
    expect(await redactedCount(owner.accountId)).toBe(2);

    // A third verification of the number since; the owner carries it out again: this run erases only the third.
    await approvedVerification(t, form, { phone });
    const started = await owner.c.post(`/api/privacy-requests/${request.id}/carry-out`, {});
    expect(started.statusCode, started.body).toBe(202);
    await jobsSettled(t.app);
    const answered = await read(owner, request.id);
    expect(answered.status).toBe('answered');
    expect(answered.answer).toMatchObject({ erased: 3, restricted: 0 });
    expect(answered.answer?.message).toMatch(/^3 verifications erased\./);
    expect(await redactedCount(owner.accountId)).toBe(3);
    expect((await rowOf(request.id)).erasedSoFar).toBe(3);

    const events = await eventsOf(request.id);
    expect(events.map((event) => event.action)).toEqual([
      'privacy_request.filed',
      'privacy_request.carry_out_failed',
      'privacy_request.carry_out_started',
      'privacy_request.answered',
    ]);
    expect(events[1]?.changes).toEqual({ type: 'erasure', reason: 'failed' });
    expect(events[3]?.changes).toMatchObject({ erased: 3 });

    // Webhook events, in the transactions of the reopening and of the answer; neither carries the number (events are
    // kept and replayed: an erasure must leave no copy of it in them).
    const sent = await t.db.db
      .select({ type: schema.webhookEvents.type, data: schema.webhookEvents.data })
      .from(schema.webhookEvents)
      .where(eq(schema.webhookEvents.accountId, owner.accountId))
      .orderBy(asc(schema.webhookEvents.createdAt));
    const ofRequest = sent.filter((event) => event.type.startsWith('privacy_request.'));
    expect(ofRequest.map((event) => event.type)).toEqual([
      'privacy_request.reopened',
      'privacy_request.answered',
    ]);
    expect(ofRequest[0]?.data).toMatchObject({
      id: request.id,
      status: 'open',
      identifiersMasked: true,
      livemode: true,
    });
    expect(ofRequest[1]?.data).toMatchObject({
      id: request.id,
      status: 'answered',
      identifiersMasked: true,
      answer: { erased: 3 },
    });
    for (const event of ofRequest) expect(JSON.stringify(event.data)).not.toContain(phone.slice(2));
  });

  it('a rerun that finds nothing left answers the first run’s counts of every kind, not twice them nor none', async () => {
    const owner = await newOwner(t.app, 'Nothing Left Co');
    const form = await createForm(owner);
    const phone = '+12015550302';
    await approvedVerification(t, form, { phone });
    await approvedVerification(t, form, { phone });
    // Past the verifications (ADR 47 amendment): a code never approved, a verdict and a carrier lookup of the number.
    await insertAttempt(t, form, { cellPhone: phone, status: 'replaced', ip: '192.0.2.7' });
    await verdictOf(owner, phone);
    await lookupOf(t, owner, phone);
    const request = await filed(owner, { type: 'erasure', phones: [phone] });
    await runningSince(request.id, t.clock.now());
    // Two tries fail at the answer (the first not the last: it stays running), then the job's next try answers.
    await refusingAnswerOf(request.id, async () => {
      expect(await tryOnce(request.id, 0)).toMatch(/injected failure/);
      expect(await tryOnce(request.id, 1)).toMatch(/injected failure/);
    });
    expect(await rowOf(request.id)).toMatchObject({
      status: 'running',
      erasedSoFar: 2,
      attemptsErasedSoFar: 1,
      verdictsErasedSoFar: 1,
      lookupsErasedSoFar: 1,
    });
    expect(await tryOnce(request.id, 2)).toBe('(no failure)');
    const answered = await read(owner, request.id);
    // The last run found nothing of any kind; the answer is every run's total.
    expect(answered.answer).toMatchObject({
      erased: 2,
      attemptsErased: 1,
      verdictsErased: 1,
      lookupsErased: 1,
    });
    expect(answered.answer?.message).toMatch(/^2 verifications erased\./);
    const redactions = await t.db.db
      .select({ id: schema.auditEvents.id })
      .from(schema.auditEvents)
      .where(
        and(
          eq(schema.auditEvents.accountId, owner.accountId),
          eq(schema.auditEvents.action, 'verification.redacted'),
        ),
      );
    expect(redactions).toHaveLength(2);
  });
});

describe('the sweep of requests whose job died', () => {
  it('derives its bound from the job’s queue policy: four tries of an hour and the backoff’s longest waits', () => {
    // retryLimit 3, expireInSeconds 3600, retryDelay 60 with backoff: waits of at most 120, 240 and 480 s.
    expect(longestRunSeconds(carryOutPrivacyRequest.queue)).toBe(4 * 3600 + 120 + 240 + 480);
    expect(longestRunSeconds({ retryLimit: 2, retryDelay: 300, expireInSeconds: 1800 })).toBe(3 * 1800 + 600);
    expect(() => longestRunSeconds({ retryDelay: 60 })).toThrow(/retryLimit or expireInSeconds/);
  });

  it('reopens a request running past the bound, audited as expired; not one within it; a late answer is refused', async () => {
    const owner = await newOwner(t.app, 'Stalled Co');
    const form = await createForm(owner);
    const phone = '+12015550311';
    await approvedVerification(t, form, { phone });
    const bound = longestRunSeconds(carryOutPrivacyRequest.queue) * 1000;
    const stalled = await filed(owner, { type: 'erasure', phones: [phone] });
    await runningSince(stalled.id, t.clock.now());
    t.clock.advance(2 * HOUR);
    const later = await filed(owner, { type: 'restriction', phones: ['+12015550312'] });
    await runningSince(later.id, t.clock.now());

    // A minute short of the bound: both still running.
    t.clock.advance(bound - 2 * HOUR - MINUTE);
    expect(await t.app.services.privacyRequests.reopenStalled()).toBe(0);
    expect((await read(owner, stalled.id)).status).toBe('running');

    // Past it for the first only: the scheduled job reopens it.
    t.clock.advance(2 * MINUTE);
    const id = await t.app.services.jobs.enqueue(reopenStalledPrivacyRequests, {});
    const deadline = Date.now() + 10_000;
    for (;;) {
      const job = (await jobsOf(t.app, reopenStalledPrivacyRequests.name)).find((row) => row.id === id);
      if (job?.state === 'completed') {
        // 1, unless the schedule's own tick (hourly, on this test's clock) came first.
        expect(job.output).toMatchObject({ outcome: 'reopened' });
        break;
      }
      if (Date.now() > deadline) throw new Error(`the sweep did not complete: ${JSON.stringify(job)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await rowOf(stalled.id)).toMatchObject({ status: 'open', runningSince: null, answer: null });
    expect(await rowOf(later.id)).toMatchObject({ status: 'running' });
    const events = await eventsOf(stalled.id);
    expect(events.filter((event) => event.action === 'privacy_request.carry_out_failed')).toEqual([
      { action: 'privacy_request.carry_out_failed', changes: { type: 'erasure', reason: 'expired' } },
    ]);
    // Again: nothing more to do.
    expect(await t.app.services.privacyRequests.reopenStalled()).toBe(0);

    // The dead job's work arriving late is not written: the request stays open, unanswered.
    expect(await t.app.services.privacyRequests.carryOutNow(stalled.id)).toBe('not_running');
    expect((await read(owner, stalled.id)).status).toBe('open');

    // The owner carries it out again and it is answered.
    expect((await owner.c.post(`/api/privacy-requests/${stalled.id}/carry-out`, {})).statusCode).toBe(202);
    await jobsSettled(t.app);
    expect((await read(owner, stalled.id)).answer).toMatchObject({ erased: 1 });
  });

  it('a request started again since the sweep read it is left running', async () => {
    const owner = await newOwner(t.app, 'Restarted Co');
    const request = await filed(owner, { type: 'restriction', phones: ['+12015550321'] });
    const cutoff = t.clock.now();
    t.clock.advance(MINUTE);
    await runningSince(request.id, t.clock.now());
    const reopened = await t.app.services.privacyRequests.carryOutFailed(request.id, {
      reason: 'expired',
      runningBefore: cutoff,
    });
    expect(reopened).toBe(false);
    expect((await rowOf(request.id)).status).toBe('running');
  });

  it('twenty stalled requests, each raced by its late answer and by sweeps: exactly one wins each, never both', async () => {
    const owner = await newOwner(t.app, 'Race Sweep Co');
    const form = await createForm(owner);
    const ids: string[] = [];
    const since = t.clock.now();
    for (let i = 0; i < 20; i += 1) {
      const phone = `+120155504${String(i).padStart(2, '0')}`;
      // Half erase a verification (a slower answer), half restrict.
      if (i % 2 === 0) await approvedVerification(t, form, { phone });
      const request = await filed(owner, { type: i % 2 === 0 ? 'erasure' : 'restriction', phones: [phone] });
      await runningSince(request.id, since);
      ids.push(request.id);
    }
    t.clock.advance(longestRunSeconds(carryOutPrivacyRequest.queue) * 1000 + MINUTE);
    const { privacyRequests } = t.app.services;
    const delayed = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const [answers] = await Promise.all([
      Promise.all(ids.map((id) => privacyRequests.carryOutNow(id))),
      privacyRequests.reopenStalled(),
      delayed(5).then(() => privacyRequests.reopenStalled()),
      delayed(20).then(() => privacyRequests.reopenStalled()),
    ]);
    // Each answer says whether it won (a sweep that reopened it first makes it `not_running`).
    const answeredIds = ids.filter((_, i) => answers[i] === 'answered');

    for (const id of ids) {
      const row = await rowOf(id);
      const actions = (await eventsOf(id)).map((event) => event.action);
      const answered = actions.filter((action) => action === 'privacy_request.answered').length;
      const failed = actions.filter((action) => action === 'privacy_request.carry_out_failed').length;
      expect(row.runningSince, id).toBeNull();
      if (row.status === 'answered') {
        expect(answeredIds).toContain(id);
        expect([answered, failed], id).toEqual([1, 0]);
        expect(row.answer, id).not.toBeNull();
        expect(row.answeredAt, id).not.toBeNull();
      } else {
        expect(row.status, id).toBe('open');
        expect(answeredIds).not.toContain(id);
        expect([answered, failed], id).toEqual([0, 1]);
        expect(row.answer, id).toBeNull();
        expect(row.answeredAt, id).toBeNull();
      }
      // An erasure's verification was erased and counted once, whichever won.
      expect(row.erasedSoFar, id).toBe(row.type === 'erasure' ? 1 : 0);
    }
  });
});
