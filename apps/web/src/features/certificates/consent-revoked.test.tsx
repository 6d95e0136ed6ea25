import { screen, within } from '@testing-library/react';
import type { PublicCertificate } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { renderWithRouter } from '../../test/render';
import { CertificateVerdict } from './components/CertificateVerdict';
import { consentRevokedSentence, formatDate } from './standing';

/** Issue #35: a certificate whose consumer revoked consent since stays valid, and says "consent revoked on …". */

const CONSENT_REVOKED_AT = '2026-11-27T14:00:00Z';

const page = (over: Partial<PublicCertificate> = {}): PublicCertificate => ({
  id: 'cert_AbCdEfGhIjKlMnOpQrStUv',
  issuedAt: '2026-11-20T15:04:00Z',
  company: 'Acme Lending',
  companyDomains: ['acme-lending.example'],
  status: 'valid',
  revokedAt: null,
  revocationReason: null,
  redactedAt: null,
  purgedAt: null,
  consentRevokedAt: null,
  reassignment: null,
  certificate: null,
  signature: { alg: 'Ed25519', keyId: 'vfk_0123456789abcdef', value: 'c2lnbmF0dXJl' },
  ...over,
});

describe('consent revoked, beside a certificate', () => {
  it('is said in one sentence with its date; nothing when consent stands', () => {
    expect(consentRevokedSentence({ consentRevokedAt: null })).toBeNull();
    expect(consentRevokedSentence({ consentRevokedAt: CONSENT_REVOKED_AT })).toBe(
      `Consent revoked on ${formatDate(CONSENT_REVOKED_AT)} — the consumer revoked consent after this verification; the certificate remains evidence of consent at its moment.`,
    );
  });

  it('the public page keeps the certificate Valid and adds the consent’s revocation', async () => {
    renderWithRouter(<CertificateVerdict certificate={page({ consentRevokedAt: CONSENT_REVOKED_AT })} />);
    const verdict = await screen.findByRole('heading', { name: 'Verification certificate' });
    const section = verdict.closest('section') ?? document.body;
    expect(within(section as HTMLElement).getByText('Valid')).toBeInTheDocument();
    const alert = within(section as HTMLElement).getByRole('alert');
    expect(alert).toHaveTextContent('Consent revoked');
    expect(alert).toHaveTextContent(`Consent revoked on ${formatDate(CONSENT_REVOKED_AT)}`);
  });

  it('says nothing of consent while it stands', async () => {
    renderWithRouter(<CertificateVerdict certificate={page()} />);
    await screen.findByRole('heading', { name: 'Verification certificate' });
    expect(screen.queryByText(/Consent revoked/)).toBeNull();
  });
});
