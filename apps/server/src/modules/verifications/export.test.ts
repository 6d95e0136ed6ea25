import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorTexts, type VerifyForm } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { parseCsv } from '../../test-support/csv.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import {
  accountSlug,
  createLocalTimeFormatter,
  exportFilename,
  exportHeader,
  exportTuning,
} from './export.ts';
import { verifyOnHostedPage, verifyThroughApi } from './test-helpers.ts';

const t = useTestApp();
const BOM = '\uFEFF';
const HEADER = exportHeader.join(',');

afterEach(() => {
  exportTuning.batchSize = 2000;
  exportTuning.onBatch = undefined;
});

async function createForm(owner: Owner, name: string, category = 'Retail'): Promise<VerifyForm> {
  const response = await owner.c.post('/api/verify-forms', { account: owner.accountId, name, category });
  if (response.statusCode !== 201) throw new Error(`create form: ${response.statusCode} ${response.body}`);
  return response.json<VerifyForm>();
}

let phoneCounter = 0;
async function insertVerification(
  form: VerifyForm,
  values: Partial<typeof schema.verifications.$inferInsert> = {},
) {
  phoneCounter += 1;
  const [row] = await t.db.db
    .insert(schema.verifications)
    .values({
      accountId: form.account,
      verifyFormId: form.id,
      cellPhone: `+1201555${String(phoneCounter).padStart(4, '0')}`,
      verifyFormName: form.name,
      verifyFormCategory: form.category,
      verificationMethod: 'sms',
      createdAt: t.clock.now(),
      ...values,
    })
    .returning();
  if (!row) throw new Error('verification insert returned no row');
  return row;
}

async function exportCsv(owner: Pick<Owner, 'c'>, query: string) {
  const response = await owner.c.get(`/api/verifications/export-csv?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.body.startsWith(BOM)).toBe(true);
  const rows = parseCsv(response.body.slice(BOM.length));
  expect(rows[0]?.join(',')).toBe(HEADER);
  return { response, rows: rows.slice(1) };
}

describe('GET /api/verifications/export-csv', () => {
  it('exports exactly the filtered rows in the chosen sort, across many small batches (ties and microseconds)', async () => {
    const owner = await newOwner(t.app);
    const formA = await createForm(owner, 'Alpha');
    const formB = await createForm(owner, 'Beta');
    const inA: number[] = [];
    // Rows a microsecond apart (the same JS millisecond) and exact ties: a batch boundary falls between them.
    const instants = [
      '2026-03-01 10:00:00.123001+00',
      '2026-03-01 10:00:00.123002+00',
      '2026-03-01 10:00:00.123002+00',
      '2026-03-01 10:00:00.123003+00',
      '2026-02-01 08:00:00+00',
      '2026-02-01 08:00:00+00',
      '2026-01-15 23:59:59.999999+00',
    ];
    for (const [i, instant] of instants.entries()) {
      const row = await insertVerification(formA, {
        // Three phones repeat, so the cellPhone sort has ties too.
        cellPhone: `+1201555000${i % 3}`,
        verificationMethod: i % 2 === 0 ? 'sms' : 'email',
      });
      await t.db.executeSql('UPDATE verifications SET created_at = $1::timestamptz WHERE id = $2', [
        instant,
        row.id,
      ]);
      inA.push(row.id);
    }
    for (let i = 0; i < 4; i++) await insertVerification(formB);
    const stranger = await newOwner(t.app, 'Stranger');
    await insertVerification(await createForm(stranger, 'Theirs'));

    const { rows: reference } = await t.db.executeSql(
      `SELECT id::int AS id, cell_phone, created_at FROM verifications WHERE verify_form_id = $1`,
      [formA.id],
    );
    const byId = new Map((reference as { id: number; cell_phone: string }[]).map((r) => [r.id, r]));

    let batches = 0;
    exportTuning.batchSize = 2;
    exportTuning.onBatch = () => {
      batches += 1;
    };
    const newest = await exportCsv(
      owner,
      `account=${owner.accountId}&verifyFormId__in=${formA.id}&o=-created`,
    );
    expect(newest.response.headers['x-total-count']).toBe('7');
    // Newest first; equal instants by id, descending.
    const [t1, t2, t3, t4, t5, t6, t7] = inA as [number, number, number, number, number, number, number];
    expect(newest.rows.map((r) => Number(r[0]))).toEqual([t4, t3, t2, t1, t6, t5, t7]);
    // PGlite: 7 rows by 2, four batches, the last one short (no extra empty query). PostgreSQL: one COPY, no batches.
    expect(batches).toBe(t.db.kind === 'pglite' ? 4 : 0);

    batches = 0;
    const oldest = await exportCsv(
      owner,
      `account=${owner.accountId}&verifyFormId__in=${formA.id}&o=created`,
    );
    expect(oldest.rows.map((r) => Number(r[0]))).toEqual([t7, t5, t6, t1, t2, t3, t4]);

    const phones = await exportCsv(
      owner,
      `account=${owner.accountId}&verifyFormId__in=${formA.id}&o=-cellPhone`,
    );
    const expectedPhones = [...inA].sort((a, b) => {
      const pa = byId.get(a)?.cell_phone ?? '';
      const pb = byId.get(b)?.cell_phone ?? '';
      return pa === pb ? b - a : pa < pb ? 1 : -1;
    });
    expect(phones.rows.map((r) => Number(r[0]))).toEqual(expectedPhones);

    // Another filter (method) with another sort (form id, then id), still in batches of 2.
    const emails = await exportCsv(
      owner,
      `account=${owner.accountId}&verificationMethod__in=email&o=verifyFormId`,
    );
    expect(emails.rows.map((r) => Number(r[0]))).toEqual([t2, t4, t6]);
    expect(emails.rows.every((r) => r[6] === 'E-mail')).toBe(true);

    // No filter: the whole account (both forms), nothing of the stranger's.
    const all = await exportCsv(owner, `account=${owner.accountId}`);
    expect(all.rows).toHaveLength(11);
    expect(all.response.headers['x-total-count']).toBe('11');
  });

  it('filters by hostile text (quotes, backslashes, SQL) as the list does: the same rows, nothing else', async () => {
    const owner = await newOwner(t.app, 'Hostile Filters');
    const refs = [`O'Brien`, 'back\\slash', `x'); DROP TABLE verifications; --`, '$$dollar$$', 'plain'];
    const form = await createForm(owner, `Form 'quoted' \\ name`, `Cat'egory \\ "x"`);
    for (const externalRefId of refs) await insertVerification(form, { externalRefId });
    const searches = [...refs, `'`, '\\', `%' OR '1'='1`];
    for (const q of searches) {
      const query = `account=${owner.accountId}&q=${encodeURIComponent(q)}`;
      const list = await owner.c.get(`/api/verifications?${query}&pageSize=100`);
      expect(list.statusCode).toBe(200);
      const listed = list.json<{ results: { id: number }[] }>().results.map((r) => r.id);
      const exported = await exportCsv(owner, query);
      expect(exported.rows.map((r) => Number(r[0])).sort()).toEqual([...listed].sort());
    }
    // A category with a quote and a backslash selects its form's rows.
    const byCategory = await exportCsv(
      owner,
      `account=${owner.accountId}&verifyFormCategory__in=${encodeURIComponent(`Cat'egory \\ "x"`)}`,
    );
    expect(byCategory.rows).toHaveLength(refs.length);
    // The table is still there.
    expect((await exportCsv(owner, `account=${owner.accountId}`)).rows).toHaveLength(refs.length);
  });

  it('a date range narrows the export to the same rows as the list, in the local days of tz', async () => {
    const owner = await newOwner(t.app, 'Date Range');
    const form = await createForm(owner, 'Dated');
    // Around the edges of 2026-03-10..2026-03-11 in Los Angeles (UTC-7 after the DST change of 2026-03-08).
    const instants = [
      '2026-03-10 06:59:59+00', // 2026-03-09 23:59:59 local: out
      '2026-03-10 07:00:00+00', // 2026-03-10 00:00 local: in
      '2026-03-11 12:00:00+00', // in
      '2026-03-12 06:59:59+00', // 2026-03-11 23:59:59 local: in
      '2026-03-12 07:00:00+00', // 2026-03-12 00:00 local: out
    ];
    for (const instant of instants) {
      const row = await insertVerification(form);
      await t.db.executeSql('UPDATE verifications SET created_at = $1::timestamptz WHERE id = $2', [
        instant,
        row.id,
      ]);
    }
    const range = `created__date__preset=custom&created__date__gte=2026-03-10&created__date__lte=2026-03-11&tz=${encodeURIComponent('America/Los_Angeles')}`;
    const query = `account=${owner.accountId}&${range}`;
    const list = await owner.c.get(`/api/verifications?${query}&pageSize=100`);
    const listed = list.json<{ count: number; results: { id: number }[] }>();
    expect(listed.count).toBe(3);
    const exported = await exportCsv(owner, `${query}&o=created`);
    expect(exported.rows.map((r) => Number(r[0]))).toEqual(listed.results.map((r) => r.id).reverse());
    expect(exported.response.headers['x-total-count']).toBe('3');
    expect(exported.rows.map((r) => r[8])).toEqual([
      '2026-03-10 00:00:00 -07:00',
      '2026-03-11 05:00:00 -07:00',
      '2026-03-11 23:59:59 -07:00',
    ]);
  });

  it('writes the columns, quotes commas, quotes and newlines, and neutralises formula cells', async () => {
    const owner = await newOwner(t.app);
    // Names with line breaks are refused now (issue 13 item 10f); forms and verifications stored before keep theirs.
    const name = 'Loan, "big"\nsecond line';
    const created = await createForm(owner, 'Loan', 'Lending');
    await t.db.db.update(schema.verifyForms).set({ name }).where(eq(schema.verifyForms.id, created.id));
    const form = { ...created, name };
    const refs = [
      '=HYPERLINK("http://evil.example","x")',
      '+1+1',
      '-2+3',
      '@SUM(A1)',
      '\tTAB',
      '\rCR',
      'CRM-1',
      'plain,comma',
    ];
    const inserted = [];
    for (const [i, ref] of refs.entries()) {
      inserted.push(
        await insertVerification(form, {
          externalRefId: ref,
          cellPhone: `+1201555010${i}`,
          // Live (issue #33: the export shows live data unless mode=test).
          isTest: false,
          createdAt: new Date(Date.UTC(2026, 10, 22, 11, 8, 12) + i * 1000),
        }),
      );
    }
    const { response, rows } = await exportCsv(
      owner,
      `account=${owner.accountId}&o=created&tz=America/New_York`,
    );
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const first = inserted[0];
    if (!first) throw new Error('no row');
    expect(rows[0]).toEqual([
      String(first.id),
      // A phone starts with "+": prefixed too, which keeps its plus and every digit visible in a spreadsheet.
      "'+12015550100",
      `'=HYPERLINK("http://evil.example","x")`,
      String(form.id),
      'Loan, "big"\nsecond line',
      'Lending',
      'SMS',
      'No',
      '2026-11-22 06:08:12 -05:00',
      'Hosted page',
      // No consent text was shown (issue #18): version and hash empty.
      '',
      '',
      // Not redacted (issue #19).
      '',
      // Not revoked (issue #35).
      '',
      // Never checked for reassignment (issue #36).
      '',
    ]);
    expect(rows.map((r) => r[2])).toEqual([
      `'=HYPERLINK("http://evil.example","x")`,
      "'+1+1",
      "'-2+3",
      "'@SUM(A1)",
      "'\tTAB",
      "'\rCR",
      'CRM-1',
      'plain,comma',
    ]);
    expect(rows[1]?.[7]).toBe('No');
    // The raw text: fields with a comma, a quote or a newline are quoted, quotes doubled.
    expect(response.body).toContain(`,"Loan, ""big""\nsecond line",Lending,SMS,No,`);
    expect(response.body).toContain(',"plain,comma",');
  });

  it('writes the latest reassigned-number check: Yes, No, No data (never No), empty when never checked; batches and COPY alike', async () => {
    const owner = await newOwner(t.app, 'Reassigned');
    const form = await createForm(owner, 'Checked');
    expect(exportHeader.at(-1)).toBe('Reassigned');
    /** A verification, its approved code and its checks' answers, oldest first (the last is the latest). */
    async function checked(answers: ('yes' | 'no' | 'no_data' | null)[], withAttempt = true) {
      const verification = await insertVerification(form, { isTest: false });
      if (!withAttempt) return verification.id;
      const attemptId = randomBytes(16).toString('base64url');
      await t.db.db.insert(schema.verificationAttempts).values({
        id: attemptId,
        accountId: owner.accountId,
        verifyFormId: form.id,
        cellPhone: verification.cellPhone,
        method: 'sms',
        codeHash: 'not-a-real-hash',
        status: 'verified',
        verificationId: verification.id,
        verifiedAt: verification.createdAt,
        createdAt: verification.createdAt,
        expiresAt: new Date(verification.createdAt.getTime() + 600_000),
      });
      for (const [i, answer] of answers.entries()) {
        const at = new Date(Date.UTC(2026, 5, 1) + i * 86_400_000);
        const [lookup] = await t.db.db
          .insert(schema.lookups)
          .values({
            accountId: owner.accountId,
            kind: 'reassigned',
            phone: verification.cellPhone,
            lastVerifiedDate: '2026-05-01',
            status: 'answered',
            provider: 'twilio',
            answer: { reassigned_number: { is_number_reassigned: answer } },
            reassigned: answer,
            askedAt: at,
            answeredAt: at,
          })
          .returning({ id: schema.lookups.id });
        if (!lookup) throw new Error('no lookup');
        await t.db.db.insert(schema.reassignmentChecks).values({
          accountId: owner.accountId,
          isTest: false,
          attemptId,
          lookupId: lookup.id,
          checkedAt: at,
        });
      }
      return verification.id;
    }
    const expected = new Map<number, string>([
      [await checked(['no', 'yes']), 'Yes'],
      [await checked(['yes', 'no']), 'No'],
      [await checked(['no', 'no_data']), 'No data'],
      // An answer read as nothing is no data, never no.
      [await checked([null]), 'No data'],
      [await checked([]), ''],
      [await checked([], false), ''],
    ]);
    exportTuning.batchSize = 4;
    const { rows } = await exportCsv(owner, `account=${owner.accountId}&o=created`);
    expect(new Map(rows.map((r) => [Number(r[0]), r[exportHeader.length - 1]]))).toEqual(expected);
  });

  it('writes the source after the first columns (API or Hosted page) and filters by it as the list does', async () => {
    const owner = await newOwner(t.app, 'Sources');
    const form = await createPublicForm(owner, { name: 'Leads' });
    const hosted = await verifyOnHostedPage(t, form);
    const api = await verifyThroughApi(t, owner, form);
    // After the earlier columns, so positions read before issue #18 still hold.
    expect(exportHeader.slice(9, 12)).toEqual(['Source', 'Consent version', 'Consent hash']);
    const all = await exportCsv(owner, `account=${owner.accountId}&o=created`);
    expect(all.rows.map((r) => [Number(r[0]), r[7], r[9]])).toEqual([
      [hosted.id, 'No', 'Hosted page'],
      // A live key's (issue #33), so not a test.
      [api.id, 'No', 'API'],
    ]);
    for (const [source, id] of [
      ['api', api.id],
      ['hosted', hosted.id],
    ] as const) {
      const query = `account=${owner.accountId}&source=${source}`;
      const exported = await exportCsv(owner, query);
      expect(exported.rows.map((r) => Number(r[0]))).toEqual([id]);
      expect(exported.response.headers['x-total-count']).toBe('1');
      const list = await owner.c.get(`/api/verifications?${query}`);
      expect(list.json<{ results: { id: number }[] }>().results.map((r) => r.id)).toEqual([id]);
    }
  });

  it('writes Created as local time in tz with its offset (daylight saving included)', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner, 'Times');
    await insertVerification(form, { createdAt: new Date('2026-07-04T16:30:05.900Z') });
    const ny = await exportCsv(owner, `account=${owner.accountId}&tz=America/New_York`);
    expect(ny.rows[0]?.[8]).toBe('2026-07-04 12:30:05 -04:00');
    const kolkata = await exportCsv(owner, `account=${owner.accountId}&tz=Asia/Kolkata`);
    expect(kolkata.rows[0]?.[8]).toBe('2026-07-04 22:00:05 +05:30');
    // No tz: SPEC §9's fallback, America/New_York.
    const fallback = await exportCsv(owner, `account=${owner.accountId}`);
    expect(fallback.rows[0]?.[8]).toBe('2026-07-04 12:30:05 -04:00');
  });

  it("sets tz for its own queries only: every connection keeps the database's time zone", async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner, 'Zones');
    await insertVerification(form, { createdAt: new Date('2026-07-04T16:30:05Z') });
    // As many queries at once as the test pool has connections (4), so each of them answers one.
    const zones = async () => {
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          t.db.executeSql("SELECT current_setting('TimeZone') AS tz, pg_sleep(0.05)::text AS slept", []),
        ),
      );
      return answers.map(({ rows }) => (rows[0] as { tz: string }).tz);
    };
    const before = await zones();
    expect(new Set(before).size).toBe(1);
    const { rows } = await exportCsv(owner, `account=${owner.accountId}&tz=Asia/Kolkata`);
    expect(rows[0]?.[8]).toBe('2026-07-04 22:00:05 +05:30');
    expect(await zones()).toEqual(before);
  });

  it('builds cells in SQL exactly as the reference formatter and csv-stringify would (DST, odd offsets, unicode)', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner, 'Préstamo «rápido» 日本, "x"', 'Catégorie');
    const instants = [
      '2026-03-08T06:59:59.999Z', // New York: last second of EST
      '2026-03-08T07:00:00Z', // first of EDT
      '2026-11-01T05:59:59Z', // EDT, the repeated hour's first pass
      '2026-11-01T06:00:00Z', // EST, its second pass
      '2026-01-01T00:00:00Z',
      '2026-07-01T12:34:56.5Z',
    ];
    const refs = ['＝１＋１', '＋１', '－１', '＠x', '', 'naïve — ok'];
    for (const [i, iso] of instants.entries()) {
      await insertVerification(form, { createdAt: new Date(iso), externalRefId: refs[i] ?? '' });
    }
    for (const tz of ['America/New_York', 'America/St_Johns', 'Asia/Kathmandu', 'Pacific/Chatham', 'UTC']) {
      const expected = createLocalTimeFormatter(tz);
      const { rows } = await exportCsv(
        owner,
        `account=${owner.accountId}&o=created&tz=${encodeURIComponent(tz)}`,
      );
      expect(rows.map((r) => r[8])).toEqual(
        [...instants].sort((a, b) => Date.parse(a) - Date.parse(b)).map((iso) => expected(new Date(iso))),
      );
    }
    const { rows, response } = await exportCsv(
      owner,
      `account=${owner.accountId}&o=created&tz=America/St_Johns`,
    );
    expect(rows[0]?.[8]).toBe('2025-12-31 20:30:00 -03:30');
    expect(rows.map((r) => r[2]).sort()).toEqual(
      ["'＝１＋１", "'＋１", "'－１", "'＠x", '', 'naïve — ok'].sort(),
    );
    expect(rows[0]?.[4]).toBe('Préstamo «rápido» 日本, "x"');
    expect(response.body).toContain(',"Préstamo «rápido» 日本, ""x""",Catégorie,');
  });

  it('names the file after the account and the resolved local days', async () => {
    const owner = await newOwner(t.app, 'Acme Lending & Co. — Ñandú');
    const custom = await owner.c.get(
      `/api/verifications/export-csv?account=${owner.accountId}&created__date__preset=custom&created__date__gte=2026-01-01&created__date__lte=2026-03-31`,
    );
    expect(custom.headers['content-disposition']).toBe(
      'attachment; filename="acme-lending-co-nandu-verifications-2026-01-01-to-2026-03-31.csv"',
    );
    expect(custom.headers['x-total-count']).toBe('0');
    expect(custom.body).toBe(`${BOM}${HEADER}\n`);
    const all = await owner.c.get(`/api/verifications/export-csv?account=${owner.accountId}`);
    expect(all.headers['content-disposition']).toBe(
      'attachment; filename="acme-lending-co-nandu-verifications-all-time.csv"',
    );
    const now = t.clock.now();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(now);
    const thisMonth = await owner.c.get(
      `/api/verifications/export-csv?account=${owner.accountId}&created__date__preset=thisMonth&tz=Asia/Tokyo`,
    );
    expect(thisMonth.headers['content-disposition']).toBe(
      `attachment; filename="acme-lending-co-nandu-verifications-${today.slice(0, 8)}01-to-${today}.csv"`,
    );
  });

  it('needs canSearchData (403), and another account answers 404 with nothing of it', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner, 'Secret');
    await insertVerification(form, { externalRefId: 'SECRET-REF' });
    const plain = await join(t.app, owner);
    const denied = await plain.c.get(`/api/verifications/export-csv?account=${owner.accountId}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ detail: errorTexts.permissionDenied, MainCode_: 'permission_denied' });
    const searcher = await join(t.app, owner, { canSearchData: true });
    const allowed = await searcher.c.get(`/api/verifications/export-csv?account=${owner.accountId}`);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toContain('SECRET-REF');

    const stranger = await newOwner(t.app, 'Stranger');
    const other = await stranger.c.get(`/api/verifications/export-csv?account=${owner.accountId}`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ detail: 'Not found.', MainCode_: 'not_found' });
    expect(other.body).not.toContain('SECRET-REF');
    expect(other.headers['content-disposition']).toBeUndefined();
    const anonymous = await t.app.inject({ url: `/api/verifications/export-csv?account=${owner.accountId}` });
    expect(anonymous.statusCode).toBe(401);
  });

  describe('a large export over a real socket', () => {
    const ROWS = 20_000;
    let owner: Owner;
    let origin: string;

    beforeAll(async () => {
      owner = await newOwner(t.app, 'Big Export');
      const form = await createForm(owner, 'Bulk');
      // Set-based, like scripts/seed-verifications.ts.
      await t.db.executeSql(
        `INSERT INTO verifications (account_id, verify_form_id, cell_phone, external_ref_id, verify_form_name,
           verify_form_category, verification_method, created_at)
         SELECT $1, $2, '+1201' || lpad(g::text, 7, '0'), 'REF-' || g, 'Bulk', 'Retail', 'sms',
                now() - g * interval '1 minute'
         FROM generate_series(1, $3::int) AS g`,
        [owner.accountId, form.id, ROWS],
      );
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });

    function open(path: string): Promise<IncomingMessage> {
      return new Promise((resolve, reject) => {
        const req = httpRequest(`${origin}${path}`, { headers: { cookie: owner.c.cookieHeader() } }, resolve);
        req.on('error', reject);
        req.end();
      });
    }

    it('starts at once, streams every row, and other requests are answered while it runs', async () => {
      exportTuning.batchSize = 1000;
      const started = performance.now();
      const download = await open(`/api/verifications/export-csv?account=${owner.accountId}`);
      expect(download.statusCode).toBe(200);
      expect(download.headers['x-total-count']).toBe(String(ROWS));
      expect(download.headers['content-length']).toBeUndefined();
      const chunks: Buffer[] = [];
      let endedAt = 0;
      // On PostgreSQL, COPY can write all 20,000 rows before a warm process has answered the list: the download is
      // held after its first bytes until then (what is tested there is that the export does not block the pool).
      // On PGlite it runs free, so the list is answered only if the export leaves the event loop between batches.
      const hold = Boolean(process.env.TEST_DATABASE_URL);
      const ended = new Promise<void>((resolve, reject) => {
        download.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (hold && chunks.length === 1) download.pause();
        });
        download.on('end', () => {
          endedAt = performance.now();
          resolve();
        });
        download.on('error', reject);
      });
      // While the download runs, the same user opens the log over another connection: answered before the export
      // ends (with PGlite, only if the export leaves the event loop free between its batches).
      const list = await open(`/api/verifications?account=${owner.accountId}&pageSize=10`);
      const listBody = await new Promise<string>((resolve, reject) => {
        let body = '';
        list.on('data', (chunk: Buffer) => {
          body += chunk.toString('utf8');
        });
        list.on('end', () => resolve(body));
        list.on('error', reject);
      });
      const listDoneAt = performance.now();
      download.resume();
      // The download had started (its first bytes had arrived) and had not finished when the other answer came.
      const bytesAtListDone = chunks.reduce((n, c) => n + c.length, 0);
      expect(bytesAtListDone).toBeGreaterThan(0);
      expect(list.statusCode).toBe(200);
      expect(JSON.parse(listBody)).toMatchObject({ count: ROWS });
      expect(endedAt).toBe(0);
      await ended;
      expect(listDoneAt).toBeLessThan(endedAt);
      const text = Buffer.concat(chunks).toString('utf8');
      expect(bytesAtListDone).toBeLessThan(Buffer.byteLength(text));
      const lines = text.split('\n').filter((l) => l !== '');
      expect(lines).toHaveLength(ROWS + 1);
      // Newest first: REF-1 is the most recent row.
      expect(lines[1]).toContain(',REF-1,');
      expect(lines.at(-1)).toContain(`,REF-${ROWS},`);
      expect(listDoneAt - started).toBeLessThan(endedAt - started);
    });

    it('stops reading when the client goes away', async () => {
      exportTuning.batchSize = 500;
      let batches = 0;
      exportTuning.onBatch = () => {
        batches += 1;
      };
      const download = await open(`/api/verifications/export-csv?account=${owner.accountId}`);
      await new Promise<void>((resolve) => download.once('data', () => resolve()));
      // The reader stops and hangs up after the first bytes: back-pressure, then the close, stop the queries.
      download.pause();
      download.destroy();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const seen = batches;
      expect(seen).toBeLessThan(ROWS / 500);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(batches).toBe(seen);
      if (t.db.kind === 'postgres') {
        // One COPY instead of batches: its connection is closed with the download, no backend is left sending.
        const { rows } = await t.db.executeSql(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND state = 'active' AND query LIKE 'COPY (%'`,
          [],
        );
        expect(rows).toEqual([{ n: 0 }]);
      }
      // And the app goes on answering.
      expect((await owner.c.get(`/api/verifications?account=${owner.accountId}`)).statusCode).toBe(200);
    });
  });
});

describe('export helpers', () => {
  it('formats local times across a daylight-saving change and at odd offsets', () => {
    const ny = createLocalTimeFormatter('America/New_York');
    expect(ny(new Date('2026-03-08T06:59:59Z'))).toBe('2026-03-08 01:59:59 -05:00');
    expect(ny(new Date('2026-03-08T07:00:00Z'))).toBe('2026-03-08 03:00:00 -04:00');
    expect(ny(new Date('2026-11-01T05:59:59Z'))).toBe('2026-11-01 01:59:59 -04:00');
    expect(ny(new Date('2026-11-01T06:00:00Z'))).toBe('2026-11-01 01:00:00 -05:00');
    expect(createLocalTimeFormatter('UTC')(new Date('2026-01-02T03:04:05.678Z'))).toBe(
      '2026-01-02 03:04:05 +00:00',
    );
    expect(createLocalTimeFormatter('Asia/Kathmandu')(new Date('2026-01-01T00:00:00Z'))).toBe(
      '2026-01-01 05:45:00 +05:45',
    );
    expect(createLocalTimeFormatter('Pacific/Chatham')(new Date('2026-01-01T00:00:00Z'))).toBe(
      '2026-01-01 13:45:00 +13:45',
    );
  });

  it('makes a header-safe slug and a file name for every kind of range', () => {
    expect(accountSlug('Acme Lending & Co.', 7)).toBe('acme-lending-co');
    expect(accountSlug('"; rm -rf /\r\n', 7)).toBe('rm-rf');
    expect(accountSlug('株式会社', 7)).toBe('account-7');
    expect(exportFilename('acme', { gte: '2026-01-01', lte: '2026-01-31' }, '2026-02-10')).toBe(
      'acme-verifications-2026-01-01-to-2026-01-31.csv',
    );
    expect(exportFilename('acme', { gte: '2026-01-01', lte: null }, '2026-02-10')).toBe(
      'acme-verifications-2026-01-01-to-2026-02-10.csv',
    );
    expect(exportFilename('acme', { gte: null, lte: '2026-01-31' }, '2026-02-10')).toBe(
      'acme-verifications-up-to-2026-01-31.csv',
    );
    expect(exportFilename('acme', { gte: null, lte: null }, '2026-02-10')).toBe(
      'acme-verifications-all-time.csv',
    );
  });

  it('keeps random bytes out of the file name', () => {
    const name = randomBytes(16).toString('latin1');
    expect(accountSlug(name, 3)).toMatch(/^[a-z0-9-]+$/);
  });
});
