import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createCompany, createLiveForm, expect, signUpVerified, test } from './fixtures.ts';
import { expectNoSidewaysScroll } from './layout';

/**
 * Issue #19: a consumer verifies on a phone through the public page; the member downloads the verification's
 * certificate as a PDF from its detail page; someone else, with no session, opens the certificate's public check page,
 * sees it is valid, checks the PDF (authentic) and a copy with one byte changed (altered), and, knowing the number,
 * unlocks it in full.
 */
test('a certificate: downloaded by the member, checked and unlocked by anyone', async ({
  page,
  browser,
  user,
}, testInfo) => {
  await signUpVerified(page.request, user);
  const company = `Certified ${user.lastName}`;
  const { account } = await createCompany(page.request, company);
  const form = await createLiveForm(page.request, { account: account.id, name: 'Loan application' });

  // A test number of the account (a fictional 555-01xx line): nothing is sent, its fixed code verifies.
  const line = `01${String(randomInt(100)).padStart(2, '0')}`;
  const code = String(100_000 + randomInt(900_000));
  const { csrfToken } = (await (await page.request.post('/api/auth/csrf')).json()) as { csrfToken: string };
  const added = await page.request.post('/api/test-phone-numbers', {
    headers: { 'X-CSRFToken': csrfToken },
    data: { account: account.id, cellPhone: `+1415555${line}`, code },
  });
  expect(added.status(), await added.text()).toBe(201);

  // The consumer, on a phone.
  const [a, b] = randomBytes(2);
  const consumer = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    extraHTTPHeaders: { 'X-Forwarded-For': `203.0.${a}.${b}` },
  });
  const phone = await consumer.newPage();
  await phone.goto(form.publicUrl);
  await phone.getByLabel('Cell phone number').fill(`(415) 555-${line}`);
  await phone.getByRole('button', { name: 'Send code' }).click();
  await phone.getByLabel('Verification code').fill(code);
  await phone.getByRole('button', { name: 'Verify' }).click();
  await expect(phone.getByRole('heading', { name: 'Your number is verified' })).toBeVisible();
  await consumer.close();

  // The member: the verification's detail page, Certificate → Download certificate (PDF).
  // A test number's verification: test data (issue #33).
  const list = await page.request.get(`/api/verifications?account=${account.id}&mode=test`);
  const [verification] = ((await list.json()) as { results: { id: number }[] }).results;
  if (!verification) throw new Error('the verification is not in the log');
  await page.goto(`/activity-log/${verification.id}`);
  await page.getByRole('button', { name: 'Certificate' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Download certificate (PDF)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const pdfPath = testInfo.outputPath('certificate.pdf');
  await download.saveAs(pdfPath);
  const pdf = readFileSync(pdfPath);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // The download issued the certificate: the menu now links to its check page (as the PDF's link and QR code do).
  await page.reload();
  await page.getByRole('button', { name: 'Certificate' }).click();
  const href = await page.getByRole('menuitem', { name: 'Open its public check page' }).getAttribute('href');
  const certId = href?.match(/^\/certificates\/(cert_[\w-]+)$/)?.[1];
  if (!certId) throw new Error(`no check page link: ${href}`);

  // Anyone, with no session, on a phone.
  const [c, d] = randomBytes(2);
  const visitorContext = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    extraHTTPHeaders: { 'X-Forwarded-For': `198.18.${c}.${d}` },
  });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/certificates/${certId}`);
  const verdict = visitor.getByRole('region', { name: 'Verification certificate' });
  await expect(verdict.getByText('Valid', { exact: true })).toBeVisible();
  await expect(verdict).toContainText(`by ${company}`);
  await expect(visitor.getByText('+1 ••• ••• ', { exact: false })).toBeVisible();
  await expectNoSidewaysScroll(visitor);

  // The PDF, through the page's own button (as the keyboard would).
  const [chooser] = await Promise.all([
    visitor.waitForEvent('filechooser'),
    visitor.getByRole('button', { name: 'Choose a file…' }).click(),
  ]);
  await chooser.setFiles(pdfPath);
  await expect(visitor.getByRole('status')).toContainText(`Authentic — issued`);
  await expect(visitor.getByRole('status')).toContainText(`by ${company}`);

  // A copy with one byte changed, in the middle of the file.
  const altered = Buffer.from(pdf);
  const at = Math.floor(altered.length / 2);
  altered[at] = (altered[at] ?? 0) ^ 0x01;
  const alteredPath = testInfo.outputPath('certificate-altered.pdf');
  writeFileSync(alteredPath, altered);
  await visitor.getByLabel('Certificate file', { exact: true }).setInputFiles(alteredPath);
  await expect(visitor.getByRole('alert').filter({ hasText: 'Altered' })).toContainText('Altered —');

  // Knowing the number unlocks it in full.
  const unlock = visitor.getByRole('form', { name: 'Unlock the phone number' });
  await unlock.getByRole('textbox', { name: 'Phone number' }).fill(`415-555-${line}`);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(visitor.getByRole('status').filter({ hasText: 'The number is' })).toContainText(
    `+1 (415) 555-${line}`,
  );
  await visitorContext.close();
});
