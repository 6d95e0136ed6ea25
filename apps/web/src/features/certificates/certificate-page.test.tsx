import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  CERTIFICATE_UPLOAD_MAX_BYTES,
  type Certificate,
  type CertificateCheck,
  type PublicCertificate,
} from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { createFakeServer } from '../../test/fake-server';
import { renderApp } from '../../test/render';
import { checkTexts } from './components/CertificateFileCheck';

const CERT_ID = 'cert_AbCdEfGhIjKlMnOpQrStUv';
const GET = `GET /api/public/certificates/${CERT_ID}`;
const VERIFY = 'POST /api/public/certificates/verify';
const UNLOCK = `POST /api/public/certificates/${CERT_ID}/unlock`;

function makeCertificate(): Certificate {
  return {
    id: CERT_ID,
    version: 1,
    issued: '2026-11-20T15:04:00Z',
    account: { id: 21, name: 'Acme Lending' },
    form: { id: 7, name: 'Loan application', publicId: 'f_abc' },
    verification: {
      id: 42,
      created: '2026-11-20T15:00:00Z',
      codeSent: '2026-11-20T15:00:05Z',
      verified: '2026-11-20T15:01:10Z',
      channel: 'sms',
      cellPhone: '+1 ••• ••• 0106',
      cellPhoneSha256: 'c'.repeat(64),
      email: null,
      emailSha256: null,
      externalRefId: 'LN-0001',
      isTest: false,
      source: 'hosted',
    },
    consent: {
      versionId: 'cv_1',
      version: 2,
      language: 'en',
      sha256: 'ab'.repeat(32),
      text: 'By entering your number you agree to receive one text message from Acme Lending.',
    },
    page: { url: 'https://veriform.example/f/f_abc?ref=LN-0001', reference: 'LN-0001' },
    timeline: [
      {
        kind: 'page_opened',
        at: '2026-11-20T14:59:50Z',
        attemptId: null,
        correct: null,
        errorCode: null,
        detail: null,
      },
      {
        kind: 'verified',
        at: '2026-11-20T15:01:10Z',
        attemptId: 'att_1',
        correct: null,
        errorCode: null,
        detail: null,
      },
    ],
    attempts: { count: 2, codesEntered: 2, wrongCodes: 1 },
    evidence: { ip: '203.0.113.9', userAgent: 'Mozilla/5.0 (iPhone)' },
    record: { sha256: 'd'.repeat(64) },
    chain: { seq: 3, prevHash: 'e'.repeat(64) },
  };
}

/** As the server answers it before an unlock: without the IP address and user agent. */
function locked(certificate: Certificate): PublicCertificate['certificate'] {
  const { evidence: _evidence, ...rest } = certificate;
  return rest;
}

const EVIDENCE = { ip: '203.0.113.9', userAgent: 'Mozilla/5.0 (iPhone)' };

function makePublic(over: Partial<PublicCertificate> = {}): PublicCertificate {
  return {
    id: CERT_ID,
    issuedAt: '2026-11-20T15:04:00Z',
    company: 'Acme Lending',
    companyDomains: [],
    status: 'valid',
    revokedAt: null,
    revocationReason: null,
    redactedAt: null,
    purgedAt: null,
    consentRevokedAt: null,
    reassignment: null,
    certificate: locked(makeCertificate()),
    signature: { alg: 'Ed25519', keyId: 'vfk_0123456789abcdef', value: 'c2lnbmF0dXJl' },
    ...over,
  };
}

function check(over: Partial<CertificateCheck>): CertificateCheck {
  return {
    verdict: 'authentic',
    certificateId: CERT_ID,
    issuedAt: '2026-11-20T15:04:00Z',
    company: 'Acme Lending',
    format: 'pdf',
    reason: null,
    standing: {
      status: 'valid',
      revokedAt: null,
      revocationReason: null,
      redactedAt: null,
      purgedAt: null,
      consentRevokedAt: null,
      reassignment: null,
    },
    ...over,
  };
}

function pdf(name = 'certificate.pdf', size = 40_000): File {
  const file = new File(['%PDF-1.7'], name, { type: 'application/pdf' });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

async function drop(files: File[]) {
  fireEvent.change(await screen.findByLabelText('Certificate file'), { target: { files } });
}

function open(server: ReturnType<typeof createFakeServer>, path = `/certificates/${CERT_ID}`) {
  return renderApp(path, { server });
}

describe('/certificates/{certId} (the public check page)', { timeout: 20_000 }, () => {
  it('shows the verdict and the masked certificate, with no login', async () => {
    const server = createFakeServer({ [GET]: [200, makePublic()] });
    open(server);
    const verdict = await screen.findByRole('region', { name: 'Verification certificate' });
    expect(within(verdict).getByText('Valid')).toBeInTheDocument();
    expect(verdict).toHaveTextContent(/Issued .+ by Acme Lending — name not verified/);
    expect(
      within(verdict).getByText(/the name is what its Veriform account calls itself/),
    ).toBeInTheDocument();
    const value = (label: string) =>
      screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(value('Phone number')).toBe('+1 ••• ••• 0106');
    expect(value('Company')).toBe('Acme Lending — name not verified');
    expect(value('Form')).toBe('Loan application');
    expect(value('Channel')).toBe('SMS');
    expect(value('Version')).toBe('Version 2');
    expect(value('Language')).toBe('English');
    expect(value('Hash (SHA-256)')).toBe('ab'.repeat(32));
    expect(value('Record hash (SHA-256)')).toBe('d'.repeat(64));
    expect(value('Place in the company’s chain')).toContain('No. 3');
    expect(value('Signing key')).toBe('vfk_0123456789abcdef (Ed25519)');
    expect(value('Address')).toBe('https://veriform.example/f/f_abc?ref=LN-0001');
    expect(value('Attempts')).toBe('2');
    expect(value('Wrong codes')).toBe('1');
    expect(screen.getByText(/agree to receive one text message/).closest('blockquote')).toHaveAttribute(
      'lang',
      'en',
    );
    expect(screen.getByRole('list', { name: 'Timeline' })).toBeInTheDocument();
    // The address and browser are in the signed file, not on the locked page.
    expect(screen.queryByText('IP address')).toBeNull();
    expect(document.body).not.toHaveTextContent(EVIDENCE.ip);
    expect(document.title).toBe('Verification certificate · Veriform');
    expect(server.calls('POST /api/auth/csrf')).toHaveLength(0);
  });

  it('links to the form’s revocation page, in the consent’s language (issue #35)', async () => {
    const server = createFakeServer({ [GET]: [200, makePublic()] });
    const { unmount } = open(server);
    const link = await screen.findByRole('link', { name: 'Changed your mind? Revoke consent' });
    expect(link).toHaveAttribute('href', '/f/f_abc/revoke');
    expect(link.closest('[lang]')).toHaveAttribute('lang', 'en');
    unmount();
    const spanish = makeCertificate();
    if (spanish.consent) spanish.consent.language = 'es';
    open(createFakeServer({ [GET]: [200, makePublic({ certificate: locked(spanish) })] }));
    expect(
      await screen.findByRole('link', { name: '¿Cambió de opinión? Revoque su consentimiento' }),
    ).toHaveAttribute('href', '/f/f_abc/revoke');
  });

  it('shows what the carrier said and the verification it refreshes, as signed (issue #36)', async () => {
    const certificate = makeCertificate();
    certificate.carrier = { lineType: 'mobile', name: 'Stand-in Wireless' };
    certificate.simSwap = { lastSwapAt: null, withinWindow: true, windowDays: 7 };
    certificate.refreshes = {
      verificationId: 41,
      apiVerificationId: 'AbCdEfGhIjKlMnOpQrStUv',
      certificateId: 'cert_Older00000000000000',
    };
    open(createFakeServer({ [GET]: [200, makePublic({ certificate: locked(certificate) })] }));
    const value = async (label: string) =>
      (await screen.findByText(label, { selector: 'dt' })).nextElementSibling;
    expect(await value('Line type')).toHaveTextContent('Mobile (Stand-in Wireless)');
    expect(await value('Last SIM swap')).toHaveTextContent(
      'No date given by the carrier — within the 7-day window before the code',
    );
    const refreshes = await value('Refreshes');
    expect(refreshes).toHaveTextContent(
      'Verification AbCdEfGhIjKlMnOpQrStUv, certificate cert_Older00000000000000',
    );
    expect(
      within(refreshes as HTMLElement).getByRole('link', { name: 'cert_Older00000000000000' }),
    ).toHaveAttribute('href', '/certificates/cert_Older00000000000000');
  });

  it('names no earlier certificate of a refreshed verification that had none', async () => {
    const certificate = makeCertificate();
    certificate.refreshes = {
      verificationId: null,
      apiVerificationId: 'AbCdEfGhIjKlMnOpQrStUv',
      certificateId: null,
    };
    open(createFakeServer({ [GET]: [200, makePublic({ certificate: locked(certificate) })] }));
    const refreshes = (await screen.findByText('Refreshes', { selector: 'dt' })).nextElementSibling;
    expect(refreshes).toHaveTextContent(
      'Verification AbCdEfGhIjKlMnOpQrStUv (no certificate was issued for it)',
    );
    expect(screen.queryByText('Line type', { selector: 'dt' })).toBeNull();
  });

  it('names the company’s verified domain as signed, beside its name', async () => {
    const certificate = makeCertificate();
    certificate.account.verifiedDomains = ['acme-lending.example'];
    const server = createFakeServer({
      [GET]: [
        200,
        makePublic({ companyDomains: ['acme-lending.example'], certificate: locked(certificate) }),
      ],
    });
    open(server);
    const verdict = await screen.findByRole('region', { name: 'Verification certificate' });
    expect(verdict).toHaveTextContent(/Issued .+ by Acme Lending — verified domain acme-lending\.example/);
    expect(verdict).not.toHaveTextContent('not verified');
    const company = screen.getByText('Company', { selector: 'dt' }).nextElementSibling;
    expect(company).toHaveTextContent('Acme Lending — verified domain acme-lending.example');
  });

  it('a file that checks out: "Authentic — issued … by …", announced as a status', async () => {
    const server = createFakeServer({ [GET]: [200, makePublic()], [VERIFY]: [200, check({})] });
    open(server);
    await drop([pdf()]);
    const result = await screen.findByRole('status');
    expect(result).toHaveTextContent(/Authentic — issued .+ by Acme Lending/);
    const [request] = server.calls(VERIFY);
    if (!request) throw new Error('no check was sent');
    expect((request.body as FormData).get('file')).toBeInstanceOf(File);
    expect(screen.getByText('certificate.pdf')).toBeInTheDocument();
  });

  it('the file can be chosen with a real button, so the keyboard reaches it', async () => {
    const server = createFakeServer({ [GET]: [200, makePublic()] });
    open(server);
    const button = await screen.findByRole('button', { name: 'Choose a file…' });
    button.focus();
    expect(button).toHaveFocus();
  });

  it('a changed file: "Altered — <reason>" in an alert', async () => {
    const server = createFakeServer({
      [GET]: [200, makePublic()],
      [VERIFY]: [
        200,
        check({
          verdict: 'altered',
          issuedAt: null,
          company: null,
          standing: null,
          reason: 'the signature does not match the content.',
        }),
      ],
    });
    open(server);
    await drop([pdf('changed.pdf')]);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Altered — the signature does not match the content. Do not rely on what it says.',
    );
  });

  it('something else: "Not a Veriform certificate"', async () => {
    const server = createFakeServer({
      [GET]: [200, makePublic()],
      [VERIFY]: [
        200,
        check({
          verdict: 'unknown',
          certificateId: null,
          issuedAt: null,
          company: null,
          format: null,
          standing: null,
        }),
      ],
    });
    open(server);
    await drop([pdf('invoice.pdf')]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Not a Veriform certificate');
  });

  it('refuses other types and files over the limit before sending anything', async () => {
    const server = createFakeServer({ [GET]: [200, makePublic()] });
    open(server);
    await drop([new File(['x'], 'notes.txt', { type: 'text/plain' })]);
    expect(await screen.findByText(checkTexts.wrongType)).toBeInTheDocument();
    await drop([pdf('huge.pdf', CERTIFICATE_UPLOAD_MAX_BYTES + 1)]);
    expect(await screen.findByText(checkTexts.tooLarge)).toBeInTheDocument();
    expect(server.calls(VERIFY)).toHaveLength(0);
  });

  it('the right number unlocks it: shown in full, with the IP address and browser', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      [GET]: [200, makePublic()],
      [UNLOCK]: [200, { cellPhone: '+14155550106', email: null, salt: 'salty', evidence: EVIDENCE }],
    });
    open(server);
    const form = await screen.findByRole('form', { name: 'Unlock the phone number' });
    await user.type(within(form).getByRole('textbox', { name: 'Phone number' }), '(415) 555-0106');
    await user.click(within(form).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByRole('status')).toHaveTextContent('The number is +1 (415) 555-0106.');
    expect(server.calls(UNLOCK)[0]?.body).toEqual({ cellPhone: '(415) 555-0106' });
    const phone = screen.getByText('Phone number', { selector: 'dt' }).nextElementSibling;
    expect(phone).toHaveTextContent('+1 (415) 555-0106 (unlocked)');
    const value = (label: string) =>
      screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(value('IP address')).toBe(EVIDENCE.ip);
    expect(value('Browser (user agent)')).toBe(EVIDENCE.userAgent);
  });

  it('a wrong number: the server’s message beside the field, nothing unlocked', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      [GET]: [200, makePublic()],
      [UNLOCK]: [400, { cellPhone: ['That is not the number of this certificate.'] }],
    });
    open(server);
    const input = await screen.findByRole('textbox', { name: 'Phone number' });
    await user.type(input, '4155550199');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('That is not the number of this certificate.')).toBeInTheDocument();
    await waitFor(() => expect(input).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('Phone number', { selector: 'dt' }).nextElementSibling).toHaveTextContent(
      '+1 ••• ••• 0106',
    );
  });

  it('an empty number is refused without a call', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({ [GET]: [200, makePublic()] });
    open(server);
    await user.click(await screen.findByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('Required')).toBeInTheDocument();
    expect(server.calls(UNLOCK)).toHaveLength(0);
  });

  it('too many tries (429): says when to try again', async () => {
    const user = userEvent.setup();
    const detail = 'Too many tries. Try again in 15 minutes.';
    const server = createFakeServer({ [GET]: [200, makePublic()], [UNLOCK]: [429, { detail }] });
    open(server);
    await user.type(await screen.findByRole('textbox', { name: 'Phone number' }), '4155550106');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(detail);
  });

  it('a revoked certificate says so, with the date and the reason', async () => {
    const server = createFakeServer({
      [GET]: [
        200,
        makePublic({
          status: 'revoked',
          revokedAt: '2026-11-22T10:00:00Z',
          revocationReason: 'Issued for the wrong customer',
        }),
      ],
    });
    open(server);
    const verdict = await screen.findByRole('region', { name: 'Verification certificate' });
    expect(within(verdict).getByText('Revoked')).toBeInTheDocument();
    expect(verdict).toHaveTextContent(/Revoked on Nov 22, 2026 — Issued for the wrong customer/);
  });

  it('a revoked certificate whose file is authentic: the check says both', async () => {
    const standing = {
      status: 'revoked' as const,
      revokedAt: '2026-11-22T10:00:00Z',
      revocationReason: 'Duplicate',
      redactedAt: null,
      purgedAt: null,
      consentRevokedAt: null,
      reassignment: null,
    };
    const server = createFakeServer({
      [GET]: [200, makePublic(standing)],
      [VERIFY]: [200, check({ standing })],
    });
    open(server);
    await drop([pdf()]);
    const result = await screen.findByRole('status');
    expect(result).toHaveTextContent(/Authentic — issued/);
    expect(result).toHaveTextContent('Revoked on Nov 22, 2026 — Duplicate');
  });

  it('a redacted certificate: the date, what it means, its seal, and nothing to unlock', async () => {
    const server = createFakeServer({
      [GET]: [200, makePublic({ status: 'redacted', redactedAt: '2026-11-23T08:00:00Z', certificate: null })],
    });
    open(server);
    const verdict = await screen.findByRole('region', { name: 'Verification certificate' });
    expect(within(verdict).getByText('Redacted')).toBeInTheDocument();
    expect(verdict).toHaveTextContent(
      'Redacted on Nov 23, 2026 — the personal data was removed at the company’s request; its seal and place in the chain remain.',
    );
    expect(screen.getByRole('region', { name: 'Seal' })).toHaveTextContent('vfk_0123456789abcdef');
    expect(screen.queryByRole('form', { name: 'Unlock the phone number' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Consent' })).toBeNull();
    // The form is no longer named: no revocation link to offer.
    expect(screen.queryByRole('link', { name: /Revoke consent/ })).toBeNull();
  });

  it('a purged certificate (issue #37): authentic, its content removed under the retention policy, its seal kept', async () => {
    const standing = {
      status: 'purged' as const,
      revokedAt: null,
      revocationReason: null,
      redactedAt: null,
      purgedAt: '2031-11-24T04:23:00Z',
      consentRevokedAt: null,
      reassignment: null,
    };
    const server = createFakeServer({
      [GET]: [200, makePublic({ ...standing, certificate: null })],
      [VERIFY]: [200, check({ standing })],
    });
    open(server);
    const verdict = await screen.findByRole('region', { name: 'Verification certificate' });
    expect(within(verdict).getByText('Purged')).toBeInTheDocument();
    expect(verdict).toHaveTextContent('Content removed under the retention policy');
    expect(verdict).toHaveTextContent(
      'Authentic; its content was removed under the retention policy on Nov 24, 2031.',
    );
    expect(screen.getByRole('region', { name: 'Seal' })).toHaveTextContent('vfk_0123456789abcdef');
    expect(screen.queryByRole('form', { name: 'Unlock the phone number' })).toBeNull();
    await drop([pdf()]);
    const result = await screen.findByRole('status');
    expect(result).toHaveTextContent(/Authentic — issued/);
    expect(result).toHaveTextContent('its content was removed under the retention policy on Nov 24, 2031');
  });

  it('an unknown id: a clear not-found state, and the file check still there', async () => {
    const server = createFakeServer();
    open(server, '/certificates/cert_nosuchthing');
    expect(await screen.findByRole('heading', { name: 'Certificate not found' })).toBeInTheDocument();
    expect(screen.getByText('cert_nosuchthing')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Choose a file…' })).toBeInTheDocument();
    expect(server.calls('GET /api/public/certificates/cert_nosuchthing')).toHaveLength(1);
  });

  it('an id that cannot be one is not found without a call', async () => {
    const server = createFakeServer();
    open(server, '/certificates/not-a-certificate');
    expect(await screen.findByRole('heading', { name: 'Certificate not found' })).toBeInTheDocument();
    expect(server.requests.filter((r) => r.path.startsWith('/api/public/certificates'))).toHaveLength(0);
  });
});
