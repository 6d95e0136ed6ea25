import { errorTexts } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { csvTextCell } from '../../lib/csv.ts';
import { useTestApp } from '../../test-support/app.ts';
import { MINUTE } from '../../test-support/clock.ts';
import { parseCsv } from '../../test-support/csv.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import { exportTuning } from '../verifications/export.ts';
import { createForm, insertVerification, setClock } from '../verifications/test-helpers.ts';
import { attemptExportHeader } from './export.ts';
import { addAttempt, deliver, enterCodes, listAttempts } from './test-helpers.ts';

/** GET /api/verification-attempts/export-csv (issue #18 item 6): the attempts view as a CSV, one line per attempt. */

const t = useTestApp();
const BOM = '\uFEFF';
const HEADER = attemptExportHeader.join(',');
const column = (name: (typeof attemptExportHeader)[number]) => attemptExportHeader.indexOf(name);

afterEach(() => {
  exportTuning.batchSize = 2000;
  exportTuning.onBatch = undefined;
});

async function exportCsv(owner: Pick<Owner, 'c' | 'accountId'>, query = '') {
  const response = await owner.c.get(
    `/api/verification-attempts/export-csv?account=${owner.accountId}&${query}`,
  );
  expect(response.statusCode, response.body).toBe(200);
  expect(response.body.startsWith(BOM)).toBe(true);
  const rows = parseCsv(response.body.slice(BOM.length));
  expect(rows[0]?.join(',')).toBe(HEADER);
  return { response, rows: rows.slice(1) };
}

describe('GET /api/verification-attempts/export-csv', () => {
  it('writes every attempt as the list shows it: columns, words, local time, reasons', async () => {
    setClock(t, '2026-06-10T12:00:00Z');
    const owner = await newOwner(t.app, 'Acme Lending');
    const form = await createForm(owner, { name: 'Loans, personal', category: 'Lending' });
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
    await deliver(t, verified, [{ status: 'delivered', at: new Date('2026-06-10T11:00:04Z') }]);
    await enterCodes(t, verified, [false, false, true]);
    const failed = await addAttempt(t, form, {
      createdAt: new Date('2026-06-10T11:30:00Z'),
      cellPhone: '+12015550222',
      sentAt: new Date('2026-06-10T11:30:01Z'),
    });
    // 30008's next step holds a comma: quoted.
    await deliver(t, failed, [
      { status: 'undelivered', at: new Date('2026-06-10T11:30:09Z'), errorCode: '30008' },
    ]);
    await addAttempt(t, form, {
      createdAt: new Date('2026-06-10T11:45:00Z'),
      method: 'email',
      email: 'ana@example.com',
      source: 'api',
      // Live (issue #33: the export shows live data unless mode=test).
      isTest: false,
      deliveryStatus: 'sent',
      sentAt: new Date('2026-06-10T11:45:01Z'),
      expiresAt: new Date('2026-06-10T12:30:00Z'),
    });

    const { response, rows } = await exportCsv(owner, 'tz=America/New_York');
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="acme-lending-attempts-all-time.csv"',
    );
    expect(response.headers['x-total-count']).toBe('3');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(rows).toEqual([
      [
        '2026-06-10 07:45:00 -04:00',
        expect.stringMatching(/^'\+1201555/),
        'ana@example.com',
        '',
        String(form.id),
        'Loans, personal',
        'E-mail',
        'API',
        'No',
        'Pending',
        'Sent',
        '',
        '',
        '',
        '',
        '0',
        'No',
        '',
      ],
      [
        '2026-06-10 07:30:00 -04:00',
        "'+12015550222",
        '',
        '',
        String(form.id),
        'Loans, personal',
        'SMS',
        'Hosted page',
        'No',
        'Expired',
        'Undelivered',
        '30008',
        'Not delivered for an unknown reason (the carrier gave none).',
        'Send a new code, or try e-mail.',
        '',
        '0',
        'No',
        '',
      ],
      [
        '2026-06-10 07:00:00 -04:00',
        "'+12015550111",
        '',
        'lead-1',
        String(form.id),
        'Loans, personal',
        'SMS',
        'Hosted page',
        'No',
        'Verified',
        'Delivered',
        '',
        '',
        '',
        'SM111',
        '3',
        'Yes',
        String(verification.id),
      ],
    ]);
    // The comma-holding cells arrive quoted, as RFC 4180 wants.
    expect(response.body).toContain('"Loans, personal"');
    expect(response.body).toContain('"Send a new code, or try e-mail."');
  });

  it('has the same rows, in the same order, as the list for the same filters, across small batches', async () => {
    setClock(t, '2026-06-10T12:00:00Z');
    const owner = await newOwner(t.app);
    const loans = await createForm(owner, { name: 'Loans', category: 'Lending' });
    const cards = await createForm(owner, { name: 'Cards', category: 'Retail' });
    const now = t.clock.now().getTime();
    let n = 0;
    for (const form of [loans, cards])
      for (let i = 0; i < 6; i++) {
        n += 1;
        // Pairs at the same instant, so batch boundaries fall between ties.
        const createdAt = new Date(now - Math.floor(i / 2) * 3 * 60 * MINUTE);
        await addAttempt(t, form, {
          createdAt,
          externalRefId: `ref-${n}`,
          method: i % 3 === 0 ? 'email' : 'sms',
          email: i % 3 === 0 ? `p${n}@example.com` : null,
          source: i % 2 === 0 ? 'hosted' : 'api',
          deliveryStatus: i % 4 === 0 ? 'delivered' : 'sent',
          sentAt: new Date(createdAt.getTime() + 1000),
        });
      }
    const stranger = await newOwner(t.app, 'Stranger');
    await addAttempt(t, await createForm(stranger, { name: 'Theirs' }), { externalRefId: 'not-ours' });

    const batches: number[] = [];
    exportTuning.batchSize = 5;
    exportTuning.onBatch = (rows) => batches.push(rows);
    const refColumn = column('Reference');
    for (const query of [
      '',
      `verifyFormId__in=${loans.id}`,
      'verifyFormCategory__in=Retail',
      'verificationMethod__in=sms',
      'source=api',
      'deliveryStatus=unknown',
      'deliveryStatus=sent,delivered',
      'created__date__preset=today&tz=UTC',
      'q=ref-1',
      'q=Cards&deliveryStatus=sent',
    ]) {
      const list = await listAttempts(owner, query);
      const { response, rows } = await exportCsv(owner, query);
      expect(
        rows.map((row) => row[refColumn]),
        query,
      ).toEqual(list.results.map((r) => r.externalRefId));
      expect(response.headers['x-total-count'], query).toBe(String(list.count));
    }
    // All 12 in batches of 5: 5, 5, 2.
    batches.length = 0;
    await exportCsv(owner);
    expect(batches).toEqual([5, 5, 2]);
    // A multiple of the batch size ends with an empty read.
    batches.length = 0;
    exportTuning.batchSize = 6;
    expect((await exportCsv(owner)).rows).toHaveLength(12);
    expect(batches).toEqual([6, 6, 0]);
  });

  it('guards against formulas: a reference like =cmd is written as text', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner, { name: '@Evil form' });
    await addAttempt(t, form, {
      externalRefId: "=cmd|' /C calc'!A0",
      email: '-2+3@example.com',
      providerMessageId: '＝FULLWIDTH',
    });
    await addAttempt(t, form, {
      externalRefId: '+SUM(A1:A2)',
      email: 'say "hi"@example.com',
      createdAt: new Date(t.clock.now().getTime() + 1000),
    });
    const { rows, response } = await exportCsv(owner);
    const ref = column('Reference');
    expect(rows.map((row) => row[ref])).toEqual(["'+SUM(A1:A2)", "'=cmd|' /C calc'!A0"]);
    expect(rows[1]?.[column('E-mail')]).toBe("'-2+3@example.com");
    expect(rows[1]?.[column('Provider message ID')]).toBe("'＝FULLWIDTH");
    expect(rows[1]?.[column('Form')]).toBe("'@Evil form");
    expect(rows[0]?.[column('E-mail')]).toBe('say "hi"@example.com');
    expect(response.body).toContain('"say ""hi""@example.com"');
    // No cell of the file starts with a formula character.
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@＝＋－＠\t\r]/);
  });

  it('writes a text cell byte for byte as the log’s export writes it in SQL (csvTextCell)', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const values = [
      '=1+2',
      '＋full',
      '\tTab',
      '\rCR',
      'a,b',
      'say "hi"',
      'two\nlines',
      '-5',
      '@x',
      'plain é',
    ];
    for (const [i, value] of values.entries())
      await insertVerification(t, form, { externalRefId: value, cellPhone: `+1201555${String(9000 + i)}` });
    const response = await owner.c.get(`/api/verifications/export-csv?account=${owner.accountId}`);
    expect(response.statusCode).toBe(200);
    for (const [i, value] of values.entries())
      expect(response.body, JSON.stringify(value)).toContain(`'+1201555${9000 + i},${csvTextCell(value)},`);
  });

  it('is on the audit record, as the log’s export, with the view, the filters and the row count', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    await addAttempt(t, form, { deliveryStatus: 'failed' });
    await exportCsv(owner, 'deliveryStatus=failed&verificationMethod__in=sms');
    const events = await t.db.db
      .select({ changes: schema.auditEvents.changes })
      .from(schema.auditEvents)
      .where(
        and(
          eq(schema.auditEvents.accountId, owner.accountId),
          eq(schema.auditEvents.action, 'verifications.exported'),
        ),
      );
    expect(events).toEqual([
      {
        changes: {
          view: 'attempts',
          filters: {
            mode: 'live',
            deliveryStatus: ['failed'],
            verificationMethod__in: ['sms'],
            created__date__preset: 'all',
          },
          rowCount: 1,
        },
      },
    ]);
  });

  it('needs canSearchData (403); another account answers 404 with nothing of it', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    await addAttempt(t, form, { externalRefId: 'SECRET-REF' });
    const plain = await join(t.app, owner);
    const denied = await plain.c.get(`/api/verification-attempts/export-csv?account=${owner.accountId}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ detail: errorTexts.permissionDenied, MainCode_: 'permission_denied' });
    const searcher = await join(t.app, owner, { canSearchData: true });
    expect((await exportCsv({ c: searcher.c, accountId: owner.accountId })).response.body).toContain(
      'SECRET-REF',
    );

    const stranger = await newOwner(t.app, 'Stranger');
    const other = await stranger.c.get(`/api/verification-attempts/export-csv?account=${owner.accountId}`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ detail: 'Not found.', MainCode_: 'not_found' });
    expect(other.headers['content-disposition']).toBeUndefined();
    expect((await exportCsv(stranger, 'q=SECRET')).rows).toEqual([]);
    const anonymous = await t.app.inject({
      url: `/api/verification-attempts/export-csv?account=${owner.accountId}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
