import {
  errorTexts,
  type VerificationList,
  type VerificationSort,
  verificationSortKeys,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import {
  createForm,
  insertVerification,
  setClock,
  verifyOnHostedPage,
  verifyThroughApi,
} from './test-helpers.ts';

/** GET /api/verifications: every filter, preset, sort and search of SPEC §2 /activity-log/, on a real database. */

const t = useTestApp();

const list = async (owner: Pick<Owner, 'c' | 'accountId'>, query = '') => {
  const response = await owner.c.get(`/api/verifications?account=${owner.accountId}&pageSize=100&${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<VerificationList>();
};
const ids = async (owner: Owner, query = '') => (await list(owner, query)).results.map((v) => v.id);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

describe('filters', () => {
  it('by form, category (as recorded on the verification) and method; all and junk mean no filter', async () => {
    const owner = await newOwner(t.app);
    const loans = await createForm(owner, { name: 'Loans', category: 'Lending' });
    const cards = await createForm(owner, { name: 'Cards', category: 'Retail' });
    const a = await insertVerification(t, loans);
    const b = await insertVerification(t, loans, { verificationMethod: 'email', email: 'b@example.com' });
    const c = await insertVerification(t, cards);
    // Recorded under another category before the form was recategorised: the log shows and filters what was recorded.
    const d = await insertVerification(t, cards, {
      verifyFormCategory: 'Insurance',
      verificationMethod: 'email',
    });

    expect(sorted(await ids(owner, `verifyFormId__in=${loans.id}`))).toEqual([a.id, b.id]);
    expect(sorted(await ids(owner, `verifyFormId__in=${loans.id},${cards.id}`))).toEqual([
      a.id,
      b.id,
      c.id,
      d.id,
    ]);
    expect(sorted(await ids(owner, 'verifyFormCategory__in=Lending'))).toEqual([a.id, b.id]);
    expect(sorted(await ids(owner, 'verifyFormCategory__in=Retail,Insurance'))).toEqual([c.id, d.id]);
    expect(sorted(await ids(owner, 'verificationMethod__in=email'))).toEqual([b.id, d.id]);
    expect(sorted(await ids(owner, 'verificationMethod__in=sms'))).toEqual([a.id, c.id]);
    expect(sorted(await ids(owner, 'verificationMethod__in=sms,email'))).toHaveLength(4);
    expect(sorted(await ids(owner, 'verificationMethod__in=all'))).toHaveLength(4);
    expect(sorted(await ids(owner, 'verificationMethod__in=all,email'))).toHaveLength(4);
    expect(sorted(await ids(owner, 'verificationMethod__in=fax'))).toHaveLength(4);
    // Repeated keys work like a comma list; filters combine with AND.
    expect(
      sorted(
        await ids(
          owner,
          `verifyFormId__in=${loans.id}&verifyFormId__in=${cards.id}&verificationMethod__in=email`,
        ),
      ),
    ).toEqual([b.id, d.id]);
    expect(await ids(owner, `verifyFormCategory__in=Lending&verificationMethod__in=email`)).toEqual([b.id]);
    expect(await ids(owner, 'verifyFormCategory__in=Nope')).toEqual([]);
  });
});

describe('source: the hosted page or API v1 (issue #15)', () => {
  it('shows where each verification was made, and filters by it (count and search included); junk means both', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner, { name: 'Loans' });
    const hosted = await verifyOnHostedPage(t, form);
    const api = await verifyThroughApi(t, owner, form, 'crm-77');
    const older = await insertVerification(t, form, {
      createdAt: new Date(t.clock.now().getTime() - 86_400_000),
    });

    const all = await list(owner);
    expect(all.count).toBe(3);
    const sourceOf = new Map(all.results.map((v) => [v.id, v.source]));
    expect(sourceOf).toEqual(
      new Map([
        [hosted.id, 'hosted'],
        [api.id, 'api'],
        [older.id, 'hosted'],
      ]),
    );
    expect(all.results.find((v) => v.id === api.id)).toMatchObject({
      externalRefId: 'crm-77',
      isTest: false,
    });

    const onlyApi = await list(owner, 'source=api');
    expect(onlyApi).toMatchObject({ count: 1, results: [{ id: api.id, source: 'api' }] });
    const onlyHosted = await list(owner, 'source=hosted');
    expect(onlyHosted.count).toBe(2);
    expect(sorted(onlyHosted.results.map((v) => v.id))).toEqual(sorted([hosted.id, older.id]));
    // The total counts rows whatever the range: the daily counts keep no source.
    expect((await list(owner, 'source=hosted&created__date__preset=last7d&tz=Asia/Kolkata')).count).toBe(2);
    expect((await list(owner, 'source=api&created__date__preset=today&tz=UTC')).count).toBe(1);
    expect((await list(owner, 'source=api&created__date__preset=yesterday&tz=UTC')).count).toBe(0);
    // With the other filters and a search (which names the form: its rows by the form filter, then the source).
    expect(await ids(owner, 'source=api&q=crm-77')).toEqual([api.id]);
    expect(await ids(owner, 'source=hosted&q=crm-77')).toEqual([]);
    expect((await list(owner, 'source=api&q=Loans')).count).toBe(1);
    expect((await list(owner, 'source=hosted&q=Loans')).count).toBe(2);
    expect(await ids(owner, `source=api&verifyFormId__in=${form.id}&verificationMethod__in=sms`)).toEqual([
      api.id,
    ]);
    for (const junk of ['source=API', 'source=all', 'source=', 'source=web']) {
      expect((await list(owner, junk)).count, junk).toBe(3);
    }
  });
});

describe('date presets, in the caller’s time zone', () => {
  /**
   * "Now" is Sunday 2026-03-15 12:00 in New York (EDT, UTC−4). New York sprang forward on 2026-03-08 at 02:00 EST
   * (07:00Z): that day has 23 hours. Instants are written in UTC so the expectations do not depend on the code under
   * test.
   */
  const NOW = '2026-03-15T16:00:00Z';
  const rows = {
    today: '2026-03-15T04:30:00Z', // Mar 15 00:30 EDT
    yesterdayLate: '2026-03-15T03:30:00Z', // Mar 14 23:30 EDT
    twoDaysAgo: '2026-03-13T16:00:00Z', // Mar 13 12:00 EDT
    sixDaysAgoStart: '2026-03-09T04:00:00Z', // Mar 9 00:00 EDT: the first instant of last7d
    dstDayLate: '2026-03-09T03:30:00Z', // Mar 8 23:30 EDT: still Mar 8, the 23-hour day
    dstDayStart: '2026-03-08T05:00:00Z', // Mar 8 00:00 EST
    beforeDstDay: '2026-03-08T04:59:59Z', // Mar 7 23:59:59 EST
    firstOfMonth: '2026-03-01T05:00:00Z', // Mar 1 00:00 EST
    lastOfFebruary: '2026-03-01T04:59:59Z', // Feb 28 23:59:59 EST
    last30dStart: '2026-02-14T05:00:00Z', // Feb 14 00:00 EST: 29 days before Mar 15
    before30d: '2026-02-14T04:59:59Z', // Feb 13 23:59:59 EST
    firstOfFebruary: '2026-02-01T05:00:00Z', // Feb 1 00:00 EST
    january: '2026-02-01T04:59:59Z', // Jan 31 23:59:59 EST
  } as const;
  type Name = keyof typeof rows;

  async function world() {
    setClock(t, NOW);
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const idOf = new Map<number, Name>();
    for (const [name, at] of Object.entries(rows) as [Name, string][]) {
      const row = await insertVerification(t, form, { createdAt: new Date(at) });
      idOf.set(row.id, name);
    }
    const names = async (query: string) =>
      (await list(owner, query)).results.map((v) => idOf.get(v.id)).sort();
    return { owner, names };
  }

  it('each preset resolves to local days of America/New_York, a 23-hour DST day included', async () => {
    const { names } = await world();
    const tz = 'tz=America/New_York';
    const expected: Record<string, Name[]> = {
      all: Object.keys(rows) as Name[],
      today: ['today'],
      yesterday: ['yesterdayLate'],
      last3d: ['today', 'yesterdayLate', 'twoDaysAgo'],
      last7d: ['today', 'yesterdayLate', 'twoDaysAgo', 'sixDaysAgoStart'],
      last30d: [
        'today',
        'yesterdayLate',
        'twoDaysAgo',
        'sixDaysAgoStart',
        'dstDayLate',
        'dstDayStart',
        'beforeDstDay',
        'firstOfMonth',
        'lastOfFebruary',
        'last30dStart',
      ],
      thisMonth: [
        'today',
        'yesterdayLate',
        'twoDaysAgo',
        'sixDaysAgoStart',
        'dstDayLate',
        'dstDayStart',
        'beforeDstDay',
        'firstOfMonth',
      ],
      lastMonth: ['lastOfFebruary', 'last30dStart', 'before30d', 'firstOfFebruary'],
    };
    for (const [preset, want] of Object.entries(expected))
      expect(await names(`${tz}&created__date__preset=${preset}`), preset).toEqual([...want].sort());
    // No tz, or one the runtime does not know: America/New_York (SPEC §9); an unknown preset: all.
    expect(await names('created__date__preset=today')).toEqual(['today']);
    expect(await names('tz=Mars/Olympus&created__date__preset=today')).toEqual(['today']);
    expect(await names('created__date__preset=someday')).toHaveLength(Object.keys(rows).length);
  });

  it('custom: gte and lte are inclusive local days; the spring-forward day is 23 hours long', async () => {
    const { names } = await world();
    const custom = (gte?: string, lte?: string) =>
      names(
        `tz=America/New_York&created__date__preset=custom${gte ? `&created__date__gte=${gte}` : ''}${lte ? `&created__date__lte=${lte}` : ''}`,
      );
    expect(await custom('2026-03-08', '2026-03-08')).toEqual(['dstDayLate', 'dstDayStart']);
    expect(await custom('2026-03-09', '2026-03-09')).toEqual(['sixDaysAgoStart']);
    expect(await custom('2026-02-01', '2026-02-28')).toEqual(
      ['lastOfFebruary', 'last30dStart', 'before30d', 'firstOfFebruary'].sort(),
    );
    // One open end.
    expect(await custom(undefined, '2026-01-31')).toEqual(['january']);
    expect(await custom('2026-03-14')).toEqual(['today', 'yesterdayLate']);
    // Dates that do not exist are dropped (that end is open); the range of a preset ignores custom ends.
    expect(await custom('2026-02-30', '2026-01-31')).toEqual(['january']);
    expect(await names('created__date__preset=today&created__date__gte=2026-01-01')).toEqual(['today']);
  });

  it('another zone’s days: Asia/Kolkata (UTC+5:30) is already on the next day', async () => {
    setClock(t, '2026-03-15T20:00:00Z'); // Mar 16 01:30 in Kolkata, Mar 15 16:00 in New York
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const kolkataMidnight = await insertVerification(t, form, {
      createdAt: new Date('2026-03-15T18:30:00Z'),
    });
    const kolkataLastEvening = await insertVerification(t, form, {
      createdAt: new Date('2026-03-15T18:29:59Z'),
    });
    const q = (tz: string, preset: string) =>
      ids(owner, `tz=${encodeURIComponent(tz)}&created__date__preset=${preset}`);

    expect(await q('Asia/Kolkata', 'today')).toEqual([kolkataMidnight.id]);
    expect(await q('Asia/Kolkata', 'yesterday')).toEqual([kolkataLastEvening.id]);
    expect(await q('America/New_York', 'today')).toEqual([kolkataMidnight.id, kolkataLastEvening.id]);
    expect(await q('America/New_York', 'yesterday')).toEqual([]);
    // Europe/Madrid on its spring-forward day (2026-03-29, 02:00 CET → 03:00 CEST): 23:00Z Mar 28 to 22:00Z Mar 29.
    const madridDayStart = await insertVerification(t, form, { createdAt: new Date('2026-03-28T23:00:00Z') });
    const madridDayLate = await insertVerification(t, form, { createdAt: new Date('2026-03-29T21:59:59Z') });
    const madridNextDay = await insertVerification(t, form, { createdAt: new Date('2026-03-29T22:00:00Z') });
    expect(
      sorted(
        await ids(
          owner,
          'tz=Europe/Madrid&created__date__preset=custom&created__date__gte=2026-03-29&created__date__lte=2026-03-29',
        ),
      ),
    ).toEqual([madridDayStart.id, madridDayLate.id]);
    expect(
      await ids(
        owner,
        'tz=Europe/Madrid&created__date__preset=custom&created__date__gte=2026-03-30&created__date__lte=2026-03-30',
      ),
    ).toEqual([madridNextDay.id]);
  });
});

describe('sort', () => {
  it('each key ascending and descending, ties broken by id in the same direction; unknown → -created', async () => {
    const owner = await newOwner(t.app);
    const formA = await createForm(owner, { name: 'Alpha', category: 'Lending' });
    const formB = await createForm(owner, { name: 'Bravo', category: 'Retail' });
    const base = Date.parse('2026-05-01T12:00:00Z');
    // Every key has a tie between two rows, so the id must decide; values avoid case and accents, so every collation
    // orders them alike.
    const specs = [
      { form: formB, cellPhone: '+12015550102', externalRefId: 'REF-2', at: base },
      { form: formA, cellPhone: '+12015550101', externalRefId: 'REF-1', at: base + 1000 },
      { form: formB, cellPhone: '+12015550103', externalRefId: '', at: base },
      { form: formA, cellPhone: '+12015550101', externalRefId: 'REF-2', at: base + 2000 },
      { form: formA, cellPhone: '+12015550104', externalRefId: '', at: base + 1000 },
    ];
    const rows: Awaited<ReturnType<typeof insertVerification>>[] = [];
    for (const spec of specs)
      rows.push(
        await insertVerification(t, spec.form, {
          cellPhone: spec.cellPhone,
          externalRefId: spec.externalRefId,
          createdAt: new Date(spec.at),
        }),
      );
    const keyOf: Record<
      (typeof verificationSortKeys)[number],
      (r: (typeof rows)[number]) => string | number
    > = {
      cellPhone: (r) => r.cellPhone,
      externalRefId: (r) => r.externalRefId,
      verifyFormId: (r) => r.verifyFormId,
      verifyFormName: (r) => r.verifyFormName,
      verifyFormCategory: (r) => r.verifyFormCategory,
      created: (r) => r.createdAt.getTime(),
    };
    for (const key of verificationSortKeys) {
      for (const descending of [false, true]) {
        const o = `${descending ? '-' : ''}${key}` as VerificationSort;
        const sign = descending ? -1 : 1;
        const expected = [...rows]
          .sort((x, y) => {
            const a = keyOf[key](x);
            const b = keyOf[key](y);
            return sign * (a < b ? -1 : a > b ? 1 : x.id - y.id);
          })
          .map((r) => r.id);
        expect(await ids(owner, `o=${o}`), o).toEqual(expected);
      }
    }
    const newestFirst = await ids(owner, 'o=-created');
    expect(await ids(owner, 'o=bogus')).toEqual(newestFirst);
    expect(await ids(owner)).toEqual(newestFirst);
  });

  it('pages of a tied sort neither overlap nor skip', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const at = new Date('2026-05-01T12:00:00Z');
    const made = [];
    for (let i = 0; i < 7; i++) made.push((await insertVerification(t, form, { createdAt: at })).id);
    for (const o of ['-created', 'created', 'verifyFormName', '-verifyFormCategory']) {
      const seen: number[] = [];
      for (let page = 1; page <= 3; page++) {
        const response = await owner.c.get(
          `/api/verifications?account=${owner.accountId}&o=${o}&pageSize=3&pageNumber=${page}`,
        );
        seen.push(...response.json<VerificationList>().results.map((v) => v.id));
      }
      expect(sorted(seen), o).toEqual(sorted(made));
    }
  });

  it('pages read as one query near the top and by a deferred join deeper agree with one sorted list', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    // 125 rows, four to a minute (ties broken by id): pages 1–10 of 10 are read plainly, 11–13 by the deferred join.
    const values = Array.from({ length: 125 }, (_, i) => ({
      accountId: owner.accountId,
      verifyFormId: form.id,
      cellPhone: `+1202555${String(1000 + ((i * 37) % 125)).padStart(4, '0')}`,
      verifyFormName: form.name,
      verifyFormCategory: form.category,
      verificationMethod: 'sms' as const,
      createdAt: new Date(Date.UTC(2026, 4, 1, 12, Math.floor(i / 4))),
    }));
    const rows = await t.db.db.insert(schema.verifications).values(values).returning();
    const byCreated = [...rows]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
      .map((r) => r.id);
    const byPhone = [...rows]
      .sort((a, b) => a.cellPhone.localeCompare(b.cellPhone) || a.id - b.id)
      .map((r) => r.id);
    for (const [o, expected] of [
      ['-created', byCreated],
      ['cellPhone', byPhone],
    ] as const) {
      const walked: number[] = [];
      for (let page = 1; page <= 13; page++) {
        const response = await owner.c.get(
          `/api/verifications?account=${owner.accountId}&o=${o}&pageSize=10&pageNumber=${page}`,
        );
        const body = response.json<VerificationList>();
        expect(body.count).toBe(125);
        walked.push(...body.results.map((v) => v.id));
      }
      expect(walked, o).toEqual(expected);
    }
  });
});

describe('search q', () => {
  async function world() {
    const owner = await newOwner(t.app);
    const loans = await createForm(owner, { name: 'Loan application', category: 'Lending' });
    const cards = await createForm(owner, { name: 'Store card', category: 'Retail' });
    const rows = {
      sf: await insertVerification(t, cards, { cellPhone: '+14155550142', externalRefId: 'CRM-123' }),
      sfNeighbour: await insertVerification(t, cards, {
        cellPhone: '+14155550143',
        externalRefId: 'crm-124',
      }),
      ny: await insertVerification(t, cards, { cellPhone: '+12125550142', externalRefId: 'ORDER_9' }),
      madrid: await insertVerification(t, cards, { cellPhone: '+34612345678', externalRefId: 'ORDERX9' }),
      loan: await insertVerification(t, loans, { cellPhone: '+13055550199', externalRefId: '' }),
    };
    const nameOf = new Map(Object.entries(rows).map(([name, row]) => [row.id, name]));
    const search = async (q: string) =>
      (await list(owner, `q=${encodeURIComponent(q)}`)).results.map((v) => nameOf.get(v.id)).sort();
    return { owner, loans, cards, search };
  }

  it('a phone number in any common format finds exactly that number', async () => {
    const { search } = await world();
    for (const q of [
      '+14155550142',
      '(415) 555-0142',
      '415-555-0142',
      '415.555.0142',
      '1 415 555 0142',
      '4155550142',
    ])
      expect(await search(q), q).toEqual(['sf']);
    expect(await search('+34 612 34 56 78')).toEqual(['madrid']);
  });

  it('partial digits: the beginning of the national number, or the end of the number', async () => {
    const { search } = await world();
    expect(await search('0142')).toEqual(['ny', 'sf']);
    expect(await search('555-0142')).toEqual(['ny', 'sf']);
    expect(await search('415555')).toEqual(['sf', 'sfNeighbour']);
    expect(await search('(415) 555')).toEqual(['sf', 'sfNeighbour']);
    expect(await search('3461')).toEqual(['madrid']);
    // Fewer than four digits is not a phone search (and no reference or form starts with it).
    expect(await search('142')).toEqual([]);
  });

  it('external reference: case-insensitive, exact or prefix; LIKE wildcards are literal', async () => {
    const { search } = await world();
    expect(await search('CRM-123')).toEqual(['sf']);
    expect(await search('crm-12')).toEqual(['sf', 'sfNeighbour']);
    expect(await search('CRM')).toEqual(['sf', 'sfNeighbour']);
    expect(await search('order_')).toEqual(['ny']);
    expect(await search('RM-123')).toEqual([]);
  });

  it('form name: any part of the form’s current name, case-insensitive; only this account’s forms', async () => {
    const { owner, loans, search } = await world();
    expect(await search('loan')).toEqual(['loan']);
    expect(await search('APPLIC')).toEqual(['loan']);
    expect(await search('card')).toEqual(['madrid', 'ny', 'sf', 'sfNeighbour']);
    // Renamed: the current name finds its verifications.
    const renamed = await owner.c.patch(`/api/verify-forms/${loans.id}`, { name: 'Mortgage' });
    expect(renamed.statusCode).toBe(200);
    expect(await search('mortgage')).toEqual(['loan']);
    // Another account's form name means nothing here.
    const stranger = await newOwner(t.app, 'Stranger');
    await createForm(stranger, { name: 'Zebra crossing' });
    expect(await search('zebra')).toEqual([]);
    // Blank q is no search.
    expect(await search('   ')).toHaveLength(5);
  });

  it('q combines with the other filters', async () => {
    const { cards, owner } = await world();
    const result = await list(owner, `q=0142&verifyFormId__in=${cards.id}&verificationMethod__in=sms`);
    expect(result.count).toBe(2);
    expect((await list(owner, 'q=0142&verificationMethod__in=email')).count).toBe(0);
  });
});

describe('paging', () => {
  it('bad values fall back to page 1 and size 10; the size is at most 100; count is exact', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const base = Date.parse('2026-05-01T12:00:00Z');
    for (let i = 0; i < 12; i++) await insertVerification(t, form, { createdAt: new Date(base + i * 1000) });
    const page = async (query: string) => {
      const response = await owner.c.get(`/api/verifications?account=${owner.accountId}&${query}`);
      expect(response.statusCode).toBe(200);
      const body = response.json<VerificationList>();
      return {
        count: body.count,
        pageNumber: body.pageNumber,
        pageSize: body.pageSize,
        n: body.results.length,
      };
    };
    expect(await page('')).toEqual({ count: 12, pageNumber: 1, pageSize: 10, n: 10 });
    expect(await page('pageNumber=2')).toEqual({ count: 12, pageNumber: 2, pageSize: 10, n: 2 });
    expect(await page('pageNumber=-1&pageSize=abc')).toEqual({
      count: 12,
      pageNumber: 1,
      pageSize: 10,
      n: 10,
    });
    expect(await page('pageNumber=0&pageSize=0')).toEqual({ count: 12, pageNumber: 1, pageSize: 10, n: 10 });
    expect(await page('pageNumber=1.5&pageSize=1000')).toEqual({
      count: 12,
      pageNumber: 1,
      pageSize: 10,
      n: 10,
    });
    expect(await page('pageSize=100')).toEqual({ count: 12, pageNumber: 1, pageSize: 100, n: 12 });
    expect(await page('pageNumber=9&pageSize=5')).toEqual({ count: 12, pageNumber: 9, pageSize: 5, n: 0 });
  });
});

describe('permissions and scoping', () => {
  it('canSearchData: 403 with the spec text without it; another account 404; its data never shows', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    await insertVerification(t, form);
    const plain = await join(t.app, owner, { canViewReports: true });
    const denied = await plain.c.get(`/api/verifications?account=${owner.accountId}&q=0142`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ detail: errorTexts.permissionDenied, MainCode_: 'permission_denied' });
    const searcher = await join(t.app, owner, { canSearchData: true });
    expect((await list({ c: searcher.c, accountId: owner.accountId })).count).toBe(1);

    const stranger = await newOwner(t.app, 'Stranger');
    const other = await stranger.c.get(`/api/verifications?account=${owner.accountId}`);
    expect(other.statusCode).toBe(404);
    expect((await list(stranger)).count).toBe(0);
    expect((await list(stranger, `verifyFormId__in=${form.id}`)).count).toBe(0);
  });
});
