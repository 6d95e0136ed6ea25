import { schema } from '@veriform/db';
import { eq, inArray } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createJobWork, handlerOf } from '../../job-handlers.ts';
import { checkReassignedNumbers } from '../../jobs/definitions/check-reassigned-numbers.ts';
import { DAY } from '../../test-support/clock.ts';
import {
  newReassignmentWorld,
  type ReassignmentWorld,
  setLookups,
  verifyLiveNumber,
} from '../../test-support/reassignment.ts';
import { useTwilioTestApp } from '../../test-support/twilio-app.ts';
import { LOOKUP_NUMBERS } from '../../test-support/twilio-lookup.ts';
import { utcDateOf } from '../lookups/index.ts';
import { checkReassignedNumbers as sweepDirectly } from './index.ts';

/**
 * The scheduled reassigned-number checks (issue #36 item 2, ADR 43), on each engine, against the Twilio stand-in, the
 * clock moved over days: each account with checks on has its numbers with live consent checked when due (the newest
 * verification of each number only), not again before `reassignedMaxAgeDays`; its monthly ceiling stops it (logged
 * without a number); two sweeps at once ask each number once; a sweep after a crash asks nothing answered that day.
 */

const { t, twilio } = useTwilioTestApp();

const { yes, no, noData, failing } = {
  yes: LOOKUP_NUMBERS.reassignedYes,
  no: LOOKUP_NUMBERS.reassignedNo,
  noData: LOOKUP_NUMBERS.reassignedNoData,
  failing: LOOKUP_NUMBERS.serverError,
};

/** Reassignment questions the stand-in answered (of one number, or all). */
const asked = (phone?: string) =>
  twilio.lookups.filter(
    (lookup) => lookup.fields === 'reassigned_number' && (phone === undefined || lookup.phone === phone),
  ).length;

/** The scheduled job's registered handler, run as pg-boss runs it. */
const runJob = () =>
  handlerOf(createJobWork(t.app.services, t.db.executeSql), checkReassignedNumbers.name).run(
    {},
    {
      log: t.app.log,
      job: {
        id: 'test',
        name: checkReassignedNumbers.name,
        retryCount: 0,
        retryLimit: 0,
        createdOn: new Date(),
      },
    },
  );

/** The checks kept of each verification, by id. */
async function checksOf(ids: string[]): Promise<Map<string, number>> {
  const rows = await t.db.db
    .select({ attemptId: schema.reassignmentChecks.attemptId })
    .from(schema.reassignmentChecks)
    .where(inArray(schema.reassignmentChecks.attemptId, ids));
  return new Map(ids.map((id) => [id, rows.filter((row) => row.attemptId === id).length]));
}

/** Live verifications of `phones` in a new account, with `settings`. */
async function liveWorld(name: string, settings: object, phones: string[]) {
  const w = await newReassignmentWorld(t.app, t.clock, [], name);
  await setLookups(w, settings);
  const ids: string[] = [];
  for (const phone of phones) ids.push(await verifyLiveNumber(w, twilio, phone));
  return { w, ids };
}

const worlds: ReassignmentWorld[] = [];
// Each test's accounts stop checking after it, so that the next one counts its own questions only (straight in the
// database: the owners' sessions end while the clock moves over days).
afterEach(async () => {
  const accountIds = worlds.splice(0).map((w) => w.owner.accountId);
  if (accountIds.length === 0) return;
  await t.db.db
    .update(schema.lookupSettings)
    .set({ reassignedChecks: false })
    .where(inArray(schema.lookupSettings.accountId, accountIds));
});

beforeAll(() => {
  twilio.slowMs = 0;
});

describe('the scheduled reassigned-number checks (check-reassigned-numbers)', () => {
  it('checks the due numbers with live consent only (the newest verification of each), again after reassignedMaxAgeDays', async () => {
    const on = await liveWorld('On Co', { reassignedChecks: true, reassignedMaxAgeDays: 30 }, [
      no,
      yes,
      no,
      noData,
      failing,
    ]);
    const off = await liveWorld('Off Co', { reassignedChecks: false }, [no]);
    worlds.push(on.w, off.w);
    const [olderNo, yesId, newerNo, noDataId, failingId] = on.ids;
    const checkedIds = [yesId, newerNo, noDataId].flatMap((id) => (id ? [id] : []));
    const before = asked();

    expect(await runJob()).toMatchObject({ outcome: 'checked', checked: 3, failed: 1, stoppedAtCeiling: 0 });
    expect(asked() - before).toBe(4);
    expect(asked(no)).toBe(1);
    const kept = await checksOf([...on.ids, ...off.ids]);
    expect([...kept.values()]).toEqual([0, 1, 1, 1, 0, 0]);
    expect(olderNo && failingId).toBeTruthy();

    // Not due within the 30 days: only the failed one is asked again (a failure is no answer).
    t.clock.advance(10 * DAY);
    const tenDays = asked();
    expect(await runJob()).toMatchObject({ checked: 0, failed: 1 });
    expect(asked() - tenDays).toBe(1);
    expect(asked(failing)).toBe(2);

    // 31 days after the checks: due again.
    t.clock.advance(21 * DAY);
    const month = asked();
    expect(await runJob()).toMatchObject({ checked: 3, failed: 1 });
    expect(asked() - month).toBe(4);
    expect([...(await checksOf(checkedIds)).values()]).toEqual([2, 2, 2]);
  });

  it('stops an account at its monthly ceiling, and says so in the log without a number', async () => {
    const { w, ids } = await liveWorld('Ceiling Co', { reassignedChecks: true }, [yes, no, noData]);
    worlds.push(w);
    const used = (await t.app.services.lookups.thisMonth(w.owner.accountId)).reassigned;
    await setLookups(w, { monthlyCeiling: { reassigned: used + 1 } });
    const lines: string[] = [];
    const before = asked();
    const report = await sweepDirectly({
      db: t.db.db,
      clock: t.clock,
      reassignmentChecks: t.app.services.reassignmentChecks,
      log: { info: (...args: unknown[]) => lines.push(JSON.stringify(args)) },
    });
    expect(report).toMatchObject({ checked: 1, stoppedAtCeiling: 1 });
    expect(asked() - before).toBe(1);
    expect([...(await checksOf(ids)).values()].reduce((a, b) => a + b, 0)).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`"accountId":${w.owner.accountId}`);
    expect(lines[0]).toContain('monthly ceiling');
    for (const phone of [yes, no, noData]) expect(lines[0]).not.toContain(phone.slice(2));
  });

  it('keeps its pace: no more checks started a second than checksPerSecond', async () => {
    const phones = [yes, no, noData];
    const { w } = await liveWorld('Paced Co', { reassignedChecks: true }, phones);
    worlds.push(w);
    const before = asked();
    const started = performance.now();
    const report = await sweepDirectly({
      db: t.db.db,
      clock: t.clock,
      reassignmentChecks: t.app.services.reassignmentChecks,
      log: t.app.log,
      checksPerSecond: 4,
    });
    expect(report).toMatchObject({ checked: 3 });
    expect(asked() - before).toBe(3);
    // Three checks at four a second: the third starts half a second after the first, at the soonest (a lower bound,
    // whatever the machine's speed; the same sweep unpaced takes a few milliseconds a check).
    expect(performance.now() - started).toBeGreaterThanOrEqual(500);
  });

  it('two sweeps at once ask each number once; after a crash, what was answered that day is not asked again', async () => {
    const { w, ids } = await liveWorld('Twice Co', { reassignedChecks: true }, [yes, no, noData]);
    worlds.push(w);
    const before = asked();
    const reports = await Promise.all([runJob(), runJob()]);
    expect(asked() - before).toBe(3);
    expect(reports.map((report) => report.outcome)).toEqual(['checked', 'checked']);
    expect([...(await checksOf(ids)).values()]).toEqual([1, 1, 1]);

    // A crash between the answer and its check: the lookup record exists, the check does not.
    const crashed = await liveWorld('Crash Co', { reassignedChecks: true }, [no]);
    worlds.push(crashed.w);
    const id = crashed.ids[0] ?? '';
    const [attempt] = await t.db.db
      .select({ verifiedAt: schema.verificationAttempts.verifiedAt })
      .from(schema.verificationAttempts)
      .where(eq(schema.verificationAttempts.id, id));
    await t.app.services.lookups.lookUp(crashed.w.owner.accountId, 'reassigned', no, {
      lastVerifiedDate: utcDateOf(attempt?.verifiedAt ?? new Date(0)),
    });
    const afterCrash = asked();
    expect(await runJob()).toMatchObject({ checked: 1 });
    expect(asked()).toBe(afterCrash);
    expect([...(await checksOf([id])).values()]).toEqual([1]);
  });
});
