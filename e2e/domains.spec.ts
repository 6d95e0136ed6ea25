import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext } from '@playwright/test';
import {
  createCompany,
  createLiveForm,
  createVerifications,
  expect,
  signUpVerified,
  test,
} from './fixtures.ts';
import { expectNoSidewaysScroll } from './layout';

/**
 * Issue #33 item 10: who issued a certificate. An owner adds the company's domain in Company Info, publishes the proof
 * file on its web server (here a server the test starts on 127.0.0.1: the app runs with DOMAIN_PROOF_ALLOW_HTTP, as in
 * development), checks it and sees it verified; a certificate issued afterwards names the verified domain on its public
 * page, and the public verification page shows it beside the company. A company that verified nothing gets "name not
 * verified". The certificate page shows no IP address or browser before it is unlocked. At desktop and phone width.
 */

const PROOF_PATH = '/.well-known/veriform-domain-verification.txt';

/** The owner's web server: answers the proof file with whatever token the test gives it. */
async function startProofServer(): Promise<{ host: string; setToken(token: string): void; server: Server }> {
  let token = '';
  const server = createServer((request, response) => {
    if (request.url === PROOF_PATH && token) {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(`${token}\n`);
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    setToken: (value) => {
      token = value;
    },
    server,
  };
}

/** One real verification of the account, its certificate issued by the owner's download; answers the certificate id. */
async function certificateOf(request: APIRequestContext, accountId: number) {
  const form = await createLiveForm(request, { account: accountId, name: 'Loan application' });
  const [made] = await createVerifications(request, {
    account: accountId,
    specs: [{ publicId: form.publicId }],
  });
  if (!made) throw new Error('no verification');
  const issued = await request.get(
    `/api/verifications/${made.verificationId}/certificate?account=${accountId}`,
  );
  expect(issued.status(), await issued.text()).toBe(200);
  const file = (await issued.json()) as {
    certificate: { id: string; evidence: { ip: string | null; userAgent: string | null } };
  };
  return { certId: file.certificate.id, evidence: file.certificate.evidence, form };
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('an owner verifies the company’s domain; its certificates and public page name it', async ({
      page,
      browser,
      user,
    }) => {
      const proof = await startProofServer();
      try {
        await signUpVerified(page.request, user);
        const company = `Verified ${user.lastName}`;
        const { account } = await createCompany(page.request, company);

        await page.goto('/settings/company-info');
        const card = page.getByRole('region', { name: 'Domains' });
        await expect(card.getByText(/No domains yet/)).toBeVisible();
        await card.getByRole('button', { name: 'Add domain' }).click();
        const dialog = page.getByRole('dialog', { name: 'Add domain' });
        await dialog.getByRole('textbox', { name: /^Domain/ }).fill('https://example.com');
        await dialog.getByRole('button', { name: 'Add domain' }).click();
        await expect(dialog.getByText('Enter the domain alone, without http:// or https://.')).toBeVisible();
        await dialog.getByRole('textbox', { name: /^Domain/ }).fill(proof.host);
        await dialog.getByRole('button', { name: 'Add domain' }).click();
        await expect(dialog).toBeHidden();

        const item = card.getByRole('article', { name: proof.host });
        await expect(item.getByText('Not verified')).toBeVisible();
        await expect(item.getByRole('textbox', { name: 'File address' })).toHaveValue(
          `http://${proof.host}${PROOF_PATH}`,
        );
        const token = await item.getByRole('textbox', { name: 'Value' }).inputValue();
        expect(token).toMatch(/^veriform-domain-verification=[0-9A-Za-z]{32}$/);
        await expectNoSidewaysScroll(page);

        // Checked before the file is there: what was found, inline.
        await item.getByRole('button', { name: `Check now: ${proof.host}` }).click();
        await expect(item.getByRole('alert')).toContainText(
          `http://${proof.host}${PROOF_PATH} answered 404.`,
        );

        // The file published: verified.
        proof.setToken(token);
        await item.getByRole('button', { name: `Check now: ${proof.host}` }).click();
        await expect(item.getByText('Verified', { exact: true })).toBeVisible();
        await expect(item.getByText(/by the file\./)).toBeVisible();
        await expect(item.getByRole('button', { name: /^Check/ })).toHaveCount(0);

        // A certificate issued now names the domain; its page shows no IP address or browser until unlocked.
        const { certId, evidence, form } = await certificateOf(page.request, account.id);
        expect(evidence.ip).toBeTruthy();
        expect(evidence.userAgent).toBeTruthy();
        const visitorContext = await browser.newContext({ viewport });
        const visitor = await visitorContext.newPage();
        await visitor.goto(`/certificates/${certId}`);
        const verdict = visitor.getByRole('region', { name: 'Verification certificate' });
        await expect(verdict).toContainText(`by ${company} — verified domain ${proof.host}`);
        await expect(visitor.getByText('Place in the company’s chain')).toBeVisible();
        const text = (await visitor.locator('body').innerText()) ?? '';
        expect(text).not.toContain(evidence.ip ?? 'no ip');
        expect(text).not.toContain(evidence.userAgent ?? 'no agent');
        await expectNoSidewaysScroll(visitor);

        // The public verification page names it beside the company.
        await visitor.goto(form.publicUrl);
        await expect(visitor.getByText(company, { exact: true })).toBeVisible();
        await expect(visitor.getByText(`Verified domain: ${proof.host}`)).toBeVisible();
        await visitorContext.close();
      } finally {
        await new Promise<void>((resolve) => proof.server.close(() => resolve()));
      }
    });

    test('a company that verified no domain: its certificate says “name not verified”', async ({
      page,
      browser,
      user,
    }) => {
      await signUpVerified(page.request, user);
      const company = `Unproven ${user.lastName}`;
      const { account } = await createCompany(page.request, company);
      const { certId, form } = await certificateOf(page.request, account.id);

      const visitorContext = await browser.newContext({ viewport });
      const visitor = await visitorContext.newPage();
      await visitor.goto(`/certificates/${certId}`);
      const verdict = visitor.getByRole('region', { name: 'Verification certificate' });
      await expect(verdict).toContainText(`by ${company} — name not verified`);
      await expect(verdict.getByText(/the name is what its Veriform account calls itself/)).toBeVisible();
      await expectNoSidewaysScroll(visitor);

      await visitor.goto(form.publicUrl);
      await expect(visitor.getByText(company, { exact: true })).toBeVisible();
      await expect(visitor.getByText(/Verified domain/)).toHaveCount(0);
      await visitorContext.close();
    });
  });
}
