import { screen, within } from '@testing-library/react';
import type { PublicCertificate } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { renderWithRouter } from '../../test/render';
import { CertificateVerdict } from './components/CertificateVerdict';
import { formatDate, formatIsoDate, reassignmentSentence } from './standing';

/** Issue #36: the standing's latest reassigned-number check, beside the certificate on its public page. */

const CHECKED_AT = '2026-11-27T14:00:00Z';
const check = (answer: 'yes' | 'no' | 'no_data') => ({
  checkedAt: CHECKED_AT,
  lastVerifiedDate: '2026-03-10',
  answer,
  errorCode: null,
});

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

describe('a certificate’s reassigned-number check', () => {
  it('is one sentence with its dates; no data is said as such, never as a no; nothing when never checked', () => {
    const asked = `checked on ${formatDate(CHECKED_AT)} for the consent date ${formatIsoDate('2026-03-10')}`;
    expect(reassignmentSentence({ reassignment: null })).toBeNull();
    expect(reassignmentSentence({ reassignment: check('yes') })).toBe(
      `Reassigned since consent — ${asked}: the number was disconnected since, so this consent does not cover whoever holds it now.`,
    );
    expect(reassignmentSentence({ reassignment: check('no') })).toBe(
      `Not reassigned since consent — ${asked}.`,
    );
    expect(reassignmentSentence({ reassignment: check('no_data') })).toBe(
      `No data available — ${asked}: the database had no data for this number and date, which is not a “no”.`,
    );
  });

  it('the public page says it beside a certificate that stays Valid', async () => {
    renderWithRouter(<CertificateVerdict certificate={page({ reassignment: check('yes') })} />);
    const heading = await screen.findByRole('heading', { name: 'Verification certificate' });
    const section = (heading.closest('section') ?? document.body) as HTMLElement;
    expect(within(section).getByText('Valid')).toBeInTheDocument();
    const alert = within(section).getByRole('alert');
    expect(alert).toHaveTextContent('Reassigned-number check');
    expect(alert).toHaveTextContent('Reassigned since consent');
  });

  it('says nothing of it when none was made', async () => {
    renderWithRouter(<CertificateVerdict certificate={page()} />);
    await screen.findByRole('heading', { name: 'Verification certificate' });
    expect(screen.queryByText(/Reassigned-number check/)).toBeNull();
  });
});
