import { contactabilityTexts } from '@veriform/contracts';
import { invitationPages } from '@veriform/contracts/page-paths';
import {
  clientAddress,
  createCompany,
  createLiveForm,
  expect,
  latestEmailTo,
  linkIn,
  newUser,
  signUpVerified,
  test,
} from './fixtures.ts';
import { twilioAppBaseURL } from './ports.ts';
import { codeTextedTo, textsTo } from './twilio-texts.ts';

/**
 * Issue #36, end to end through Twilio's side: an owner turns reassigned-number checks on in Company Info › Carrier
 * lookups; a consumer verifies +1 201 555 0101 on the hosted page (the code texted through the Twilio stand-in, which
 * answers "reassigned: yes" for that number: ADR 42's table); on the verification, Check for reassignment says it was
 * reassigned since the consent; a teammate (a member who may search data) reads it with its reason on the verification,
 * Activity Log › Contactability refuses them the number (number reassigned) and Company Info tells them only owners
 * manage lookups; the dashboard and the card count the check. Runs against the app whose Twilio is the stand-in (playwright.config.ts).
 */
test.use({ baseURL: twilioAppBaseURL, viewport: { width: 1280, height: 800 } });

const REASSIGNED = { typed: '(201) 555-0101', e164: '+12015550101', shown: '+1 (201) 555-0101' };

test('an owner turns reassigned-number checks on; a consumer verifies a reassigned number; the check says yes and the verdict refuses it', async ({
  browser,
  page,
  user,
}) => {
  await signUpVerified(page.request, user);
  const membership = await createCompany(page.request, `Lookups ${user.lastName}`);
  const account = membership.account.id;
  const form = await createLiveForm(page.request, { account, name: 'Loan application' });

  // The owner: Company Info › Carrier lookups, reassigned-number checks on.
  await page.goto('/settings/company-info');
  const card = page.getByRole('region', { name: 'Carrier lookups' });
  const checks = card.getByRole('switch', { name: 'Check verified numbers for reassignment' });
  await expect(checks).not.toBeChecked();
  await expect(card.getByText(/^0 of 1,000 this month/).first()).toBeVisible();
  await checks.check();
  await card.getByRole('button', { name: 'Save carrier lookups' }).click();
  await expect(page.getByText('Carrier lookups saved')).toBeVisible();
  await page.reload();
  await expect(
    page
      .getByRole('region', { name: 'Carrier lookups' })
      .getByRole('switch', { name: 'Check verified numbers for reassignment' }),
  ).toBeChecked();

  // The consumer verifies the number on the hosted page, the code texted through the stand-in.
  const before = (await textsTo(REASSIGNED.e164)).length;
  const consumer = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': clientAddress() } });
  try {
    const phone = await consumer.newPage();
    await phone.goto(`${twilioAppBaseURL}/f/${form.publicId}`);
    await phone.getByLabel('Cell phone number').fill(REASSIGNED.typed);
    await phone.getByRole('button', { name: 'Send code' }).click();
    await phone.getByLabel('Verification code').fill(await codeTextedTo(REASSIGNED.e164, { after: before }));
    await phone.getByRole('button', { name: 'Verify' }).click();
    await expect(phone.getByRole('heading', { name: 'Your number is verified' })).toBeVisible();
  } finally {
    await consumer.close();
  }

  // The verification: Check for reassignment asks the stand-in, which says the number was reassigned.
  const list = await page.request.get(`/api/verifications?account=${account}`);
  const [verification] = ((await list.json()) as { results: { id: number }[] }).results;
  if (!verification) throw new Error('the verification is not in the log');
  await page.goto(`/activity-log/${verification.id}`);
  const numberChecks = page.getByRole('region', { name: 'Number checks' });
  await numberChecks.getByRole('button', { name: 'Check for reassignment' }).click();
  await expect(numberChecks.getByText('Reassigned since consent')).toBeVisible();
  await expect(
    numberChecks.getByText(
      'The number was disconnected since the consent date: the consent does not cover whoever holds it now.',
    ),
  ).toBeVisible();

  // A teammate who may search data joins from the e-mailed invitation.
  const mate = newUser();
  await page.goto('/settings/manage-team');
  await page.getByRole('button', { name: 'Invite teammate' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite a teammate' });
  await invite.getByLabel('Email').fill(mate.email);
  await invite.getByLabel('Can search data').check();
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText('Invitation sent')).toBeVisible();
  const mateContext = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': clientAddress() } });
  try {
    const matePage = await mateContext.newPage();
    await matePage.goto(linkIn((await latestEmailTo(page.request, mate.email)).text, invitationPages.follow));
    await matePage.getByRole('link', { name: 'Sign up to accept' }).click();
    await matePage.getByLabel('First name').fill(mate.firstName);
    await matePage.getByLabel('Last name').fill(mate.lastName);
    await matePage.getByLabel('Password', { exact: true }).fill(mate.password);
    await matePage.getByLabel('Confirm password').fill(mate.password);
    await matePage.getByRole('button', { name: 'Sign up' }).click();
    await expect(matePage.getByRole('navigation').getByRole('link', { name: 'Activity Log' })).toBeVisible();

    // The member reads the check and its reason on the verification.
    await matePage.goto(`/activity-log/${verification.id}`);
    const seen = matePage.getByRole('region', { name: 'Number checks' });
    await expect(seen.getByText('Reassigned since consent')).toBeVisible();
    await expect(seen.getByText(/^The number was disconnected since the consent date/)).toBeVisible();

    // Contactability: the verdict refuses the number, number reassigned.
    await matePage.goto('/activity-log/contactability');
    const ask = matePage.getByRole('form', { name: 'Check a number' });
    await ask.getByLabel('Phone number').fill(REASSIGNED.typed);
    await ask.getByLabel('Purpose').selectOption('informational');
    await ask.getByRole('button', { name: 'Check' }).click();
    const verdict = matePage.getByRole('region', { name: `Verdict for ${REASSIGNED.shown}` });
    await expect(verdict.getByRole('heading', { name: 'Not now' })).toBeVisible();
    await expect(verdict.getByText(contactabilityTexts.number_reassigned)).toBeVisible();
    const kept = matePage.getByRole('table', { name: 'Verdicts' });
    await expect(kept.getByText('Number reassigned', { exact: true })).toBeVisible();

    // Company Info: the member reads that only owners manage carrier lookups.
    await matePage.goto('/settings/company-info');
    await expect(
      matePage
        .getByRole('region', { name: 'Carrier lookups' })
        .getByText('Only owners manage carrier lookups: each one is billed to the account.'),
    ).toBeVisible();
  } finally {
    await mateContext.close();
  }

  // The dashboard counts the check and its answer; Company Info counts it against the month's ceiling.
  await page.goto('/dashboard/');
  const lookups = page.getByRole('region', { name: 'Carrier lookups' });
  const reassigned = lookups.getByRole('region', { name: 'Reassigned numbers lookups' });
  await expect(reassigned.getByText('1 lookup asked')).toBeVisible();
  await expect(reassigned.getByRole('listitem').filter({ hasText: /^Reassigned1$/ })).toBeVisible();
  await page.goto('/settings/company-info');
  await expect(
    page
      .getByRole('region', { name: 'Carrier lookups' })
      .getByRole('textbox', { name: 'Reassignment checks a month, at most' }),
  ).toHaveAccessibleDescription(/^1 of 1,000 this month\./);
});
