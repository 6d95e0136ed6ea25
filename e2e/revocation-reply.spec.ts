import { randomInt } from 'node:crypto';
import { publicRevokeTexts } from '@veriform/contracts/public-revoke-texts';
import { clientAddress, createCompany, createLiveForm, expect, signUpVerified, test } from './fixtures.ts';
import { expectNoSidewaysScroll } from './layout';
import { twilioAppBaseURL, twilioStandInControlURL } from './ports.ts';
import { codeTextedTo } from './twilio-texts.ts';

/**
 * Issue #35, end to end through Twilio's side: a consumer on a phone verifies a number on a Spanish form (the code
 * texted through the Twilio stand-in), replies "ALTO" to the code text, is answered with the one confirmation text in
 * Spanish, and a member finds the revocation in Activity Log › Revocations, with its deadline, and acknowledges it.
 * Runs against the app whose text messages go to the stand-in (playwright.config.ts, e2e/twilio-stand-in.ts).
 */
test.use({ baseURL: twilioAppBaseURL, viewport: { width: 390, height: 844 } });

/** The consumer's reply, as Twilio posts it to the app's inbound webhook; answers the app's TwiML. */
async function replyFrom(from: string, body: string): Promise<{ status: number; body: string }> {
  const answer = await fetch(`${twilioStandInControlURL}/reply`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from, body }),
  });
  return (await answer.json()) as { status: number; body: string };
}

test('a consumer replies ALTO to a Spanish code text; a member sees the revocation with its deadline and acknowledges it', async ({
  browser,
  page,
  user,
}) => {
  await signUpVerified(page.request, user);
  const company = `Alto ${user.lastName}`;
  const membership = await createCompany(page.request, company);
  const form = await createLiveForm(page.request, {
    account: membership.account.id,
    name: 'Solicitud de préstamo',
    language: 'es',
  });

  // The consumer verifies the number on a phone, in Spanish.
  const exchange = 200 + randomInt(700);
  const line = String(randomInt(10_000)).padStart(4, '0');
  const number = { typed: `(415) ${exchange}-${line}`, e164: `+1415${exchange}${line}` };
  const consumer = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    extraHTTPHeaders: { 'X-Forwarded-For': clientAddress() },
  });
  try {
    const phone = await consumer.newPage();
    await phone.goto(`${twilioAppBaseURL}/f/${form.publicId}`);
    await phone.getByLabel('Número de celular').fill(number.typed);
    await phone.getByRole('button', { name: 'Enviar código' }).click();
    await phone.getByLabel('Código de verificación').fill(await codeTextedTo(number.e164));
    await phone.getByRole('button', { name: 'Verificar' }).click();
    await expect(phone.getByRole('heading', { name: 'Su número está verificado' })).toBeVisible();
  } finally {
    await consumer.close();
  }

  // "ALTO": a revocation per se, answered with the one confirmation, in Spanish; the same reply again is a new one.
  const answer = await replyFrom(number.e164, 'ALTO');
  expect(answer.status).toBe(200);
  expect(answer.body).toBe(
    `<?xml version="1.0" encoding="UTF-8"?><Response><Message>${publicRevokeTexts.es.confirmationSms(company)}</Message></Response>`,
  );

  // The member, at phone width too: the revocation, open, with the day it must be honoured by.
  await page.goto('/activity-log/revocations');
  const list = page.getByRole('list', { name: 'Revocations' });
  await expect(list.getByText(number.e164)).toBeVisible();
  await expect(list.getByText('Reply to a code text')).toBeVisible();
  await expect(list.getByText('ALTO', { exact: true })).toBeVisible();
  await expect(list.getByText('Open', { exact: true })).toBeVisible();
  await expect(list.getByText(/^\d{4}-\d{2}-\d{2}$/)).toBeVisible();
  await expectNoSidewaysScroll(page);

  await list.getByRole('button', { name: `Acknowledge the revocation of ${number.e164}` }).click();
  await expect(list.getByText('Acknowledged', { exact: true })).toBeVisible();
  await expect(list.getByRole('button', { name: /^Acknowledge/ })).toHaveCount(0);
});
