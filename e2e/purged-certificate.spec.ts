import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { createDb } from '@veriform/db';
import pg from 'pg';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { createAuditLog } from '../apps/server/src/modules/audit/index.ts';
import { purgeAccount } from '../apps/server/src/modules/retention/index.ts';
import { axeViolations } from './axe.ts';
import {
  clientAddress,
  createCompany,
  createLiveForm,
  createVerifications,
  expect,
  signUpVerified,
  test,
} from './fixtures.ts';
import { expectNoSidewaysScroll } from './layout';
import { postgresAppBaseURL } from './ports.ts';
import { e2eDatabaseUrl } from './postgres.ts';

/**
 * Issue #37 item 5: the public page of a certificate whose verification the retention purge removed. The running app
 * cannot age evidence past a policy, so this journey runs against the fourth app (playwright.config.ts), whose
 * PostgreSQL database it reaches: a controlled clock for data, as the server tests use. The evidence (the verification
 * and its attempts) is moved six years back, then the real purge (`purgeAccount`, as the daily job runs it, with the
 * system clock and the real audit log) removes it under the account's five-year policy. The certificate's own
 * `created_at` stays: its immutability trigger refuses the change, and the purge reaches it through its verification.
 */
test.use({ baseURL: postgresAppBaseURL });

const REMOVED_ON = /Authentic; its content was removed under the retention policy on \w{3} \d{1,2}, \d{4}\./;

/** Moves the account's verifications and attempts `years` back, in one transaction on the app's database. */
async function ageEvidence(accountId: number, years: number): Promise<void> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    await client.query('begin');
    const interval = `${years} years`;
    const moved = await client.query(
      'update verifications set created_at = created_at - $2::interval where account_id = $1',
      [accountId, interval],
    );
    expect(moved.rowCount).toBe(1);
    await client.query(
      'update verification_attempts set created_at = created_at - $2::interval where account_id = $1',
      [accountId, interval],
    );
    await client.query('commit');
  } finally {
    await client.end();
  }
}

/** How a US number (E.164) may be written: +14155550123, 4155550123, (415) 555-0123, 415-555-0123, 555-0123. */
function spellingsOf(e164: string): string[] {
  const national = e164.slice(-10);
  const [area, exchange, line] = [national.slice(0, 3), national.slice(3, 6), national.slice(6)];
  return [
    e164,
    national,
    `(${area}) ${exchange}-${line}`,
    `${area}-${exchange}-${line}`,
    `${exchange}-${line}`,
  ];
}

/** The certificate's page as it stands, checked at a width: what it says, what it no longer shows, axe, no overflow. */
async function checkPurgedPage(visitor: Page, company: string, number: string, width: number): Promise<void> {
  await visitor.setViewportSize({ width, height: 900 });
  const verdict = visitor.getByRole('region', { name: 'Verification certificate' });
  await expect(verdict.getByText('Purged', { exact: true })).toBeVisible();
  await expect(verdict).toContainText('Content removed under the retention policy');
  await expect(verdict).toContainText(REMOVED_ON);
  await expect(verdict).toContainText(company);
  // Nothing of the consumer is left to show or unlock: no number (masked or whole), no consent text.
  const text = await visitor.locator('body').innerText();
  for (const spelling of spellingsOf(number)) expect(text).not.toContain(spelling);
  expect(text).not.toContain('•••');
  await expect(visitor.getByRole('form', { name: 'Unlock the phone number' })).toHaveCount(0);
  await expect(visitor.getByRole('region', { name: 'Consent' })).toHaveCount(0);
  await expectNoSidewaysScroll(visitor);
  expect(await axeViolations(visitor)).toEqual([]);
}

test('a purged certificate: its public page says authentic, its content removed under the retention policy', async ({
  page,
  browser,
  user,
}, testInfo) => {
  await signUpVerified(page.request, user);
  const company = `Kept Briefly ${user.lastName}`;
  const { account } = await createCompany(page.request, company);
  const form = await createLiveForm(page.request, { account: account.id, name: 'Loan application' });
  const [made] = await createVerifications(page.request, {
    account: account.id,
    specs: [{ publicId: form.publicId }],
  });
  if (!made) throw new Error('no verification made');

  // The member downloads the certificate (the first download issues it), as signed JSON and as a PDF.
  const signed = await page.request.get(
    `/api/verifications/${made.verificationId}/certificate?account=${account.id}`,
  );
  expect(signed.status(), await signed.text()).toBe(200);
  const certId = ((await signed.json()) as { certificate: { id: string } }).certificate.id;
  const pdf = await page.request.get(
    `/api/verifications/${made.verificationId}/certificate.pdf?account=${account.id}`,
  );
  expect(pdf.status()).toBe(200);
  const pdfPath = testInfo.outputPath('certificate.pdf');
  writeFileSync(pdfPath, await pdf.body());

  // Six years pass for the evidence; the daily purge runs under the default five-year policy.
  await ageEvidence(account.id, 6);
  const database = createDb({ kind: 'postgres', url: e2eDatabaseUrl(), poolSize: 2 });
  try {
    const purged = await purgeAccount(
      { db: database.db, clock: systemClock, audit: createAuditLog({ clock: systemClock }) },
      { accountId: account.id, years: 5 },
    );
    expect(purged.removed.verifications).toBe(1);
    expect(purged.held).toBe(0);
  } finally {
    await database.close();
  }

  // The member: the verification is gone from the log.
  const detail = await page.request.get(`/api/verifications/${made.verificationId}?account=${account.id}`);
  expect(detail.status()).toBe(404);

  // Anyone, with no session: the check page's API answers the tombstone (no content), and unlocking has nothing left.
  const visitorContext = await browser.newContext({
    baseURL: postgresAppBaseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': clientAddress() },
  });
  try {
    const visitor = await visitorContext.newPage();
    const api = await visitor.request.get(`/api/public/certificates/${certId}`);
    expect(api.status(), await api.text()).toBe(200);
    const tombstone = (await api.json()) as { status: string; purgedAt: string | null; certificate: unknown };
    expect(tombstone.status).toBe('purged');
    expect(tombstone.purgedAt).not.toBeNull();
    expect(tombstone.certificate).toBeNull();
    for (const spelling of spellingsOf(made.cellPhone))
      expect(JSON.stringify(tombstone)).not.toContain(spelling);

    await visitor.goto(`/certificates/${certId}`);
    await checkPurgedPage(visitor, company, made.cellPhone, 1280);
    await checkPurgedPage(visitor, company, made.cellPhone, 390);

    // The PDF the member kept still checks as authentic, and says its content was removed.
    const [chooser] = await Promise.all([
      visitor.waitForEvent('filechooser'),
      visitor.getByRole('button', { name: 'Choose a file…' }).click(),
    ]);
    await chooser.setFiles(pdfPath);
    const result = visitor.getByRole('status');
    await expect(result).toContainText('Authentic — issued');
    await expect(result).toContainText(/its content was removed under the retention policy on/);
    expect(await axeViolations(visitor)).toEqual([]);
    await visitor.setViewportSize({ width: 1280, height: 900 });
    expect(await axeViolations(visitor)).toEqual([]);
  } finally {
    await visitorContext.close();
  }
});
