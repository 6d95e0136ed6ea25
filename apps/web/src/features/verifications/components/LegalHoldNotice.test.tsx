import { screen, within } from '@testing-library/react';
import type { VerificationDetail } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { createFakeServer } from '../../../test/fake-server';
import { renderWithRouter } from '../../../test/render';
import { VerificationDetailView } from './VerificationDetailView';

const detail: VerificationDetail = {
  id: 42,
  cellPhone: '+12015550101',
  externalRefId: 'CRM-42',
  verifyFormId: 7,
  verifyFormName: 'Sign-up',
  verifyFormCategory: 'Retail',
  verificationMethod: 'sms',
  isTest: false,
  source: 'hosted',
  created: '2026-03-10T15:30:00Z',
  revokedAt: null,
  revocationId: null,
  email: null,
  codeSentAt: '2026-03-10T15:29:00Z',
  verifiedAt: '2026-03-10T15:30:00Z',
  attempts: 1,
  ip: '203.0.113.9',
  userAgent: 'Mozilla/5.0 (iPhone)',
  consent: null,
  redactedAt: null,
  revocation: null,
  carrier: null,
  simSwap: null,
  reassignment: null,
  refreshes: null,
  heldBy: [],
  holds: [],
};

const render = (verification: VerificationDetail) =>
  renderWithRouter(<VerificationDetailView verification={verification} accountId={21} />, {
    server: createFakeServer({ 'GET /api/verifications/42/timeline': [200, { events: [] }] }),
  });

describe('a verification under legal hold (issue #37)', () => {
  it('says so with the hold’s reason and links to Settings › Legal holds', async () => {
    const hold = {
      id: 'lh_a',
      scope: 'identifier' as const,
      reason: 'Smith v. Acme',
      placedAt: '2026-11-20T15:00:00Z',
    };
    render({ ...detail, heldBy: ['lh_a'], holds: [hold] });
    const notice = (await screen.findByText('Under legal hold: Smith v. Acme')).closest('[role="alert"]');
    expect(notice).not.toBeNull();
    const alert = notice as HTMLElement;
    expect(alert).toHaveTextContent(/cannot be redacted, until the hold is released/);
    expect(
      within(alert).getByRole('link', { name: 'See Settings › Legal holds' }).getAttribute('href'),
    ).toMatch(/^\/settings\/legal-holds(\?|$)/);
  });

  it('lists each reason when several holds reach it', async () => {
    const holds = [
      {
        id: 'lh_a',
        scope: 'account' as const,
        reason: 'Regulator inquiry',
        placedAt: '2026-11-20T15:00:00Z',
      },
      { id: 'lh_b', scope: 'form' as const, reason: 'Class action', placedAt: '2026-11-21T15:00:00Z' },
    ];
    render({ ...detail, heldBy: ['lh_a', 'lh_b'], holds });
    expect(await screen.findByText('Under 2 legal holds')).toBeInTheDocument();
    expect(screen.getByText('Regulator inquiry (whole account)')).toBeInTheDocument();
    expect(screen.getByText('Class action (a form)')).toBeInTheDocument();
  });

  it('shows nothing when no hold reaches it', async () => {
    render(detail);
    await screen.findByText('CRM-42');
    expect(screen.queryByText(/legal hold/)).toBeNull();
  });
});
