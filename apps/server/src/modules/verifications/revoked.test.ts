import type { Revocation, VerificationDetail, VerificationList, VerifyForm } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../lib/rows.ts';
import { useTestApp } from '../../test-support/app.ts';
import { parseCsv } from '../../test-support/csv.ts';
import { insertRevocation } from '../../test-support/revocations.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';
import { firstRevocationOfVerification } from '../revocations/index.ts';
import { exportHeader } from './export.ts';
import { createForm, insertVerification } from './test-helpers.ts';

/**
 * Issue #35: every place the activity log shows a verification carries the revocation of its consent, the first open
 * or acknowledged revocation of its number or address (same account, same mode) received at or after it was
 * verified; and the log filters by it (`revoked=true|false`), counts included, in the list and in the CSV.
 */

const t = useTestApp();

const HOUR = 3_600_000;
const T0 = new Date('2026-05-01T12:00:00.000Z');
const at = (hours: number) => new Date(T0.getTime() + hours * HOUR);

/** A revocation as any channel stores it, received at `receivedAt`. */
const revocation = (
  accountId: number,
  values: Partial<typeof schema.revocations.$inferInsert> & { receivedAt: Date },
) => insertRevocation(t.db.db, { accountId, ...values });

/** A verification of `cellPhone` verified (and made) at `when`. */
const verified = (
  form: VerifyForm,
  cellPhone: string,
  when: Date,
  values: Partial<typeof schema.verifications.$inferInsert> = {},
) => insertVerification(t, form, { cellPhone, createdAt: when, verifiedAt: when, ...values });

const list = async (owner: Owner, query = '') => {
  const response = await owner.c.get(`/api/verifications?account=${owner.accountId}&pageSize=100&${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<VerificationList>();
};

const detail = async (owner: Owner, id: number) => {
  const response = await owner.c.get(`/api/verifications/${id}?account=${owner.accountId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<VerificationDetail>();
};

const revokedOf = (page: VerificationList) =>
  Object.fromEntries(
    page.results.map((v) => [v.id, { revokedAt: v.revokedAt, revocationId: v.revocationId }]),
  );

const ids = (page: VerificationList) => page.results.map((v) => v.id).sort((a, b) => a - b);

describe('a verification and the revocation of its consent', () => {
  it('a revocation after A and before B marks A, not B: on the list, the detail (with its channel) and the filter', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const a = await verified(form, '+12015550301', at(0));
    const revocationId = await revocation(owner.accountId, { phone: '+12015550301', receivedAt: at(1) });
    const b = await verified(form, '+12015550301', at(2));
    // The same instant as the verification counts: "from the moment it was received", at or after.
    const c = await verified(form, '+12015550302', at(3));
    const same = await revocation(owner.accountId, {
      phone: '+12015550302',
      receivedAt: at(3),
      channel: 'member',
    });

    const page = await list(owner);
    expect(revokedOf(page)).toEqual({
      [a.id]: { revokedAt: at(1).toISOString(), revocationId },
      [b.id]: { revokedAt: null, revocationId: null },
      [c.id]: { revokedAt: at(3).toISOString(), revocationId: same },
    });

    expect(await detail(owner, a.id)).toMatchObject({
      revokedAt: at(1).toISOString(),
      revocationId,
      revocation: {
        id: revocationId,
        channel: 'sms_reply',
        receivedAt: at(1).toISOString(),
        phone: '+12015550301',
        email: null,
      },
    });
    expect(await detail(owner, b.id)).toMatchObject({
      revokedAt: null,
      revocationId: null,
      revocation: null,
    });
    expect((await detail(owner, c.id)).revocation).toEqual({
      id: same,
      channel: 'member',
      receivedAt: at(3).toISOString(),
      phone: '+12015550302',
      email: null,
    });

    const revoked = await list(owner, 'revoked=true');
    expect(ids(revoked)).toEqual([a.id, c.id]);
    expect(revoked.count).toBe(2);
    const notRevoked = await list(owner, 'revoked=false');
    expect(ids(notRevoked)).toEqual([b.id]);
    expect(notRevoked.count).toBe(1);
    // Anything else means both.
    expect((await list(owner, 'revoked=maybe')).count).toBe(3);
  });

  it('the first revoking revocation since is the one named; possible and dismissed ones never mark', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const v = await verified(form, '+12015550311', at(0));
    await revocation(owner.accountId, { phone: '+12015550311', receivedAt: at(1), status: 'possible' });
    await revocation(owner.accountId, { phone: '+12015550311', receivedAt: at(2), status: 'dismissed' });
    const untouched = await verified(form, '+12015550312', at(0));
    await revocation(owner.accountId, { phone: '+12015550312', receivedAt: at(1), status: 'possible' });
    await revocation(owner.accountId, { phone: '+12015550312', receivedAt: at(2), status: 'dismissed' });
    // Before the verification: it is the consent the verification replaced, not this one's.
    await revocation(owner.accountId, { phone: '+12015550311', receivedAt: at(-1) });
    const acknowledged = await revocation(owner.accountId, {
      phone: '+12015550311',
      receivedAt: at(3),
      status: 'acknowledged',
    });
    await revocation(owner.accountId, { phone: '+12015550311', receivedAt: at(4) });

    expect(revokedOf(await list(owner))).toEqual({
      [v.id]: { revokedAt: at(3).toISOString(), revocationId: acknowledged },
      [untouched.id]: { revokedAt: null, revocationId: null },
    });
    expect(ids(await list(owner, 'revoked=true'))).toEqual([v.id]);
    expect((await list(owner, 'revoked=false')).results.map((r) => r.id)).toEqual([untouched.id]);
  });

  it('an address revokes the verifications that went to it, whatever their number', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const byEmail = await verified(form, '+12015550321', at(0), {
      verificationMethod: 'email',
      email: 'ana@example.com',
    });
    const otherAddress = await verified(form, '+12015550322', at(0), {
      verificationMethod: 'email',
      email: 'bob@example.com',
    });
    const id = await revocation(owner.accountId, {
      email: 'ana@example.com',
      receivedAt: at(1),
      channel: 'public_page',
    });
    expect(revokedOf(await list(owner))).toEqual({
      [byEmail.id]: { revokedAt: at(1).toISOString(), revocationId: id },
      [otherAddress.id]: { revokedAt: null, revocationId: null },
    });
    expect((await detail(owner, byEmail.id)).revocation).toMatchObject({
      channel: 'public_page',
      phone: null,
      email: 'ana@example.com',
    });
    const revoked = await list(owner, 'revoked=true');
    expect(ids(revoked)).toEqual([byEmail.id]);
    expect(revoked.count).toBe(1);
  });

  it('a test revocation marks test verifications only, a live one live ones only (ADR 29)', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const live = await verified(form, '+12015550331', at(0));
    const test = await verified(form, '+12015550331', at(0), { isTest: true });
    const testRevocation = await revocation(owner.accountId, {
      phone: '+12015550331',
      receivedAt: at(1),
      channel: 'api',
      isTest: true,
    });

    expect(revokedOf(await list(owner))).toEqual({ [live.id]: { revokedAt: null, revocationId: null } });
    expect(revokedOf(await list(owner, 'mode=test'))).toEqual({
      [test.id]: { revokedAt: at(1).toISOString(), revocationId: testRevocation },
    });
    expect((await list(owner, 'revoked=true')).count).toBe(0);
    expect(ids(await list(owner, 'revoked=false'))).toEqual([live.id]);
    expect(ids(await list(owner, 'mode=test&revoked=true'))).toEqual([test.id]);
    expect((await list(owner, 'mode=test&revoked=false')).count).toBe(0);
    expect((await detail(owner, live.id)).revocation).toBeNull();

    const liveRevocation = await revocation(owner.accountId, { phone: '+12015550331', receivedAt: at(2) });
    expect(revokedOf(await list(owner))).toEqual({
      [live.id]: { revokedAt: at(2).toISOString(), revocationId: liveRevocation },
    });
    // The test one still names the test revocation, the earlier of its own mode.
    expect(revokedOf(await list(owner, 'mode=test'))[test.id]?.revocationId).toBe(testRevocation);
  });

  it('another account’s revocation of the same number never marks', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const mine = await verified(form, '+12015550341', at(0));
    const stranger = await newOwner(t.app, 'Stranger');
    await revocation(stranger.accountId, { phone: '+12015550341', receivedAt: at(1) });
    await revocation(stranger.accountId, {
      email: 'x@example.com',
      phone: '+12015550341',
      receivedAt: at(1),
    });
    expect(revokedOf(await list(owner))).toEqual({ [mine.id]: { revokedAt: null, revocationId: null } });
    expect((await list(owner, 'revoked=true')).count).toBe(0);
    expect((await detail(owner, mine.id)).revocation).toBeNull();
  });

  it('a revocation recorded by a member reaches the verification at once', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const v = await verified(form, '+12015550351', new Date(t.clock.now().getTime() - HOUR));
    const response = await owner.c.post(`/api/revocations?account=${owner.accountId}`, {
      phone: '(201) 555-0351',
      via: 'phone_call',
      note: 'Called the help desk',
    });
    expect(response.statusCode, response.body).toBe(201);
    const recorded = response.json<Revocation>();
    expect((await detail(owner, v.id)).revocation).toEqual({
      id: recorded.id,
      channel: 'member',
      receivedAt: recorded.receivedAt,
      phone: '+12015550351',
      email: null,
    });
  });
});

describe('the revoked filter', () => {
  it('counts and pages both ways, with other filters, a search and deep pages (the deferred join)', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner, { name: 'Loans' });
    const other = await createForm(owner, { name: 'Cards' });
    // 120 verifications an hour apart, 12 numbers; the revoked numbers' rows before their revocation are revoked.
    const rows = await t.db.db
      .insert(schema.verifications)
      .values(
        Array.from({ length: 120 }, (_, i) => ({
          accountId: owner.accountId,
          verifyFormId: i % 2 === 0 ? form.id : other.id,
          cellPhone: `+120155504${String(i % 12).padStart(2, '0')}`,
          verifyFormName: i % 2 === 0 ? form.name : other.name,
          verifyFormCategory: 'Retail',
          verificationMethod: 'sms' as const,
          createdAt: at(i),
          verifiedAt: at(i),
        })),
      )
      .returning();
    // Numbers 00 and 05 revoked at hour 60: their rows up to hour 60 (included: at or after) are revoked, 11 of them;
    // later ones are new consent.
    await revocation(owner.accountId, { phone: '+12015550400', receivedAt: at(60) });
    await revocation(owner.accountId, { phone: '+12015550405', receivedAt: at(60), status: 'acknowledged' });
    await revocation(owner.accountId, { phone: '+12015550407', receivedAt: at(60), status: 'possible' });
    const expected = rows
      .filter((r, i) => (r.cellPhone === '+12015550400' || r.cellPhone === '+12015550405') && i <= 60)
      .map((r) => r.id)
      .sort((x, y) => x - y);
    expect(expected).toHaveLength(11);

    const revoked = await list(owner, 'revoked=true');
    expect(ids(revoked)).toEqual(expected);
    expect(revoked.count).toBe(11);
    expect(revoked.results.every((r) => r.revokedAt === at(60).toISOString())).toBe(true);
    const notRevoked = await list(owner, 'revoked=false&pageSize=100');
    expect(notRevoked.count).toBe(109);
    expect(notRevoked.results.every((r) => r.revokedAt === null)).toBe(true);

    // A deep page (offset ≥ 100: the deferred join) holds what one sorted list holds there.
    const all = rows.map((r) => r.id).filter((id) => !expected.includes(id));
    const newestFirst = [...all].sort((x, y) => y - x);
    const deep = await owner.c.get(
      `/api/verifications?account=${owner.accountId}&revoked=false&pageSize=1&pageNumber=105`,
    );
    expect(deep.json<VerificationList>().results.map((r) => r.id)).toEqual([newestFirst[104]]);
    const deepRevoked = await owner.c.get(
      `/api/verifications?account=${owner.accountId}&pageSize=1&pageNumber=101&o=created`,
    );
    // Row 100 oldest first is hour 100: not revoked (after the revocation), and it says so on the deferred join.
    expect(deepRevoked.json<VerificationList>().results[0]).toMatchObject({
      id: rows[100]?.id,
      revokedAt: null,
    });
    const deepFirst = await owner.c.get(
      `/api/verifications?account=${owner.accountId}&pageSize=1&pageNumber=101&o=-created`,
    );
    // Row 100 newest first is hour 19: number 07 (possible only), so not revoked; hour 0 is number 00, revoked.
    expect(deepFirst.json<VerificationList>().results[0]).toMatchObject({
      id: rows[19]?.id,
      revokedAt: null,
    });
    const oldest = await owner.c.get(
      `/api/verifications?account=${owner.accountId}&pageSize=1&pageNumber=120&o=-created`,
    );
    expect(oldest.json<VerificationList>().results[0]).toMatchObject({
      id: rows[0]?.id,
      revokedAt: at(60).toISOString(),
    });

    // With a form filter, a date range and a search, the counts still add up.
    const inForm = await list(owner, `revoked=true&verifyFormId__in=${form.id}`);
    expect(inForm.count).toBe(inForm.results.length);
    expect(inForm.results.every((r) => r.verifyFormId === form.id)).toBe(true);
    const inFormNot = await list(owner, `revoked=false&verifyFormId__in=${form.id}`);
    expect(inForm.count + inFormNot.count).toBe(60);
    const bySearch = await list(owner, 'revoked=true&q=2015550405');
    expect(bySearch.count).toBe(5);
    expect((await list(owner, 'revoked=false&q=2015550405')).count).toBe(5);
    const range =
      'created__date__preset=custom&created__date__gte=2026-05-01&created__date__lte=2026-05-02&tz=UTC';
    const inRange = await list(owner, `revoked=true&${range}`);
    const inRangeNot = await list(owner, `revoked=false&${range}`);
    expect(inRange.count).toBe(inRange.results.length);
    expect(inRangeNot.count).toBe(inRangeNot.results.length);
    expect(inRange.count + inRangeNot.count).toBe((await list(owner, range)).count);
  });
});

describe('the CSV export', () => {
  it('writes "Revoked at" after Redacted, in tz like the other times, and filters by revoked as the list does', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const revokedRow = await verified(form, '+12015550361', at(0));
    const kept = await verified(form, '+12015550362', at(0));
    await revocation(owner.accountId, {
      phone: '+12015550361',
      receivedAt: new Date('2026-07-04T15:30:05.000Z'),
    });
    const csv = async (query: string) => {
      const response = await owner.c.get(`/api/verifications/export-csv?account=${owner.accountId}&${query}`);
      expect(response.statusCode, response.body).toBe(200);
      const [header, ...rows] = parseCsv(response.body.slice(1));
      expect(header).toEqual([...exportHeader]);
      return { rows, total: response.headers['x-total-count'] };
    };
    const column = exportHeader.indexOf('Revoked at');
    expect(exportHeader.slice(column - 1, column + 2)).toEqual(['Redacted', 'Revoked at', 'Reassigned']);
    const { rows } = await csv('tz=America/New_York&o=cellPhone');
    expect(rows.map((r) => [r[0], r[column]])).toEqual([
      [String(revokedRow.id), '2026-07-04 11:30:05 -04:00'],
      [String(kept.id), ''],
    ]);
    const onlyRevoked = await csv('tz=UTC&revoked=true');
    expect(onlyRevoked.rows.map((r) => [r[0], r[column]])).toEqual([
      [String(revokedRow.id), '2026-07-04 15:30:05 +00:00'],
    ]);
    expect(onlyRevoked.total).toBe('1');
    const others = await csv('revoked=false');
    expect(others.rows.map((r) => r[0])).toEqual([String(kept.id)]);
    expect(others.total).toBe('1');

    // Test mode: a test revocation of the kept number marks its test verification only, in the test export only.
    const test = await verified(form, '+12015550362', at(0), { isTest: true });
    await revocation(owner.accountId, {
      phone: '+12015550362',
      receivedAt: new Date('2026-07-05T00:00:00.000Z'),
      isTest: true,
    });
    expect((await csv('tz=UTC&o=cellPhone')).rows.map((r) => [r[0], r[column]])).toEqual([
      [String(revokedRow.id), '2026-07-04 15:30:05 +00:00'],
      [String(kept.id), ''],
    ]);
    expect((await csv('tz=UTC&mode=test')).rows.map((r) => [r[0], r[column]])).toEqual([
      [String(test.id), '2026-07-05 00:00:00 +00:00'],
    ]);
    expect((await csv('mode=test&revoked=false')).rows).toEqual([]);
  });

  it('the marks the list, the filter, the CSV and the certificate read are the rule’s answer, whatever the order of events', async () => {
    // A timeline as production makes one: verifications at increasing times, revocations received at most a year
    // back (API v1's limit), some possible ones decided later, some verifications redacted; after every run, each
    // verification's mark is what standing.ts's rule answers for it, read directly.
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('verify' as const),
        key: fc.nat(1),
        email: fc.boolean(),
        test: fc.boolean(),
      }),
      fc.record({
        kind: fc.constant('revoke' as const),
        key: fc.nat(1),
        email: fc.boolean(),
        test: fc.boolean(),
        back: fc.nat(72),
        status: fc.constantFrom('open', 'acknowledged', 'possible', 'dismissed'),
      }),
      fc.record({ kind: fc.constant('decide' as const), pick: fc.nat(), isRevocation: fc.boolean() }),
      fc.record({ kind: fc.constant('redact' as const), pick: fc.nat() }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 6, maxLength: 14 }), async (ops) => {
        run += 1;
        const phone = (key: number) =>
          `+1201555${String(run).padStart(2, '0')}${String(key).padStart(2, '0')}`;
        const email = (key: number) => `run${run}-${key}@example.com`;
        const possible: string[] = [];
        const made: number[] = [];
        for (const [step, o] of ops.entries()) {
          const now = at(step * 24);
          if (o.kind === 'verify') {
            const v = await verified(form, phone(o.key), now, {
              isTest: o.test,
              ...(o.email ? { verificationMethod: 'email' as const, email: email(o.key) } : {}),
            });
            made.push(v.id);
          } else if (o.kind === 'revoke') {
            const id = await revocation(owner.accountId, {
              ...(o.email ? { email: email(o.key) } : { phone: phone(o.key) }),
              isTest: o.test,
              status: o.status,
              receivedAt: new Date(now.getTime() - o.back * HOUR),
            });
            if (o.status === 'possible' && !o.test) possible.push(id);
          } else if (o.kind === 'decide' && possible.length > 0) {
            const [id] = possible.splice(o.pick % possible.length, 1);
            const decided = await owner.c.post(`/api/revocations/${id}/decide`, {
              isRevocation: o.isRevocation,
            });
            expect(decided.statusCode, decided.body).toBe(200);
          } else if (o.kind === 'redact' && made.length > 0) {
            const id = made[o.pick % made.length];
            await owner.c.post(`/api/verifications/${id}/redact?account=${owner.accountId}`);
          }
        }
        const rule = firstRevocationOfVerification();
        const judged = await t.db.db.execute(sql`
          select v.id::text as id, first.id as revocation_id, m.revocation_id as marked
          from verifications v
          left join lateral ${rule} first on true
          left join revocation_marks m on m.verification_id = v.id
          where v.account_id = ${owner.accountId}`);
        for (const row of rowsOf(judged))
          expect(row.marked ?? null, `verification ${String(row.id)}`).toBe(row.revocation_id ?? null);
      }),
      { numRuns: 10, seed: 3501 },
    );
  });
});
