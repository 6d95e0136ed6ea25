import { useQuery } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiReassignmentCheck, VerificationDetail } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { useServices } from '../../../lib/services';
import { type Answer, createFakeServer } from '../../../test/fake-server';
import { renderWithRouter } from '../../../test/render';
import { verificationQueryOptions } from '../api';
import { NumberChecksCard } from './NumberChecksCard';

const DETAIL = 'GET /api/verifications/42';
const CHECK = 'POST /api/verifications/42/reassignment-checks';

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

const yes: ApiReassignmentCheck = {
  id: '9',
  verificationId: 'AbCdEfGhIjKlMnOpQrStUv',
  checkedAt: '2026-11-20T10:00:00Z',
  lastVerifiedDate: '2026-03-10',
  answer: 'yes',
  errorCode: null,
  provider: 'twilio',
  livemode: true,
};
const { id: _id, verificationId: _v, provider: _p, livemode: _l, ...latestYes } = yes;

/** The card as the detail page shows it: from the verification's query, so a check's refetch reaches it. */
function Card() {
  const { api } = useServices();
  const { data } = useQuery(verificationQueryOptions(api, 21, 42));
  return data ? <NumberChecksCard verification={data} accountId={21} /> : null;
}

function renderCard(initial: VerificationDetail, check?: Answer | (() => Promise<Answer>)) {
  let current = initial;
  const server = createFakeServer({
    [DETAIL]: () => [200, current],
    ...(check ? { [CHECK]: check } : {}),
  });
  const view = renderWithRouter(<Card />, { server });
  return { ...view, server, setDetail: (next: VerificationDetail) => (current = next) };
}

const section = () => screen.findByRole('region', { name: 'Number checks' });

describe('the verification’s number checks', () => {
  it('says when nothing was looked up or checked', async () => {
    renderCard(detail);
    const card = await section();
    expect(card).toHaveTextContent(
      'No carrier lookups or reassigned-number checks for this verification yet.',
    );
    expect(within(card).getByRole('button', { name: 'Check for reassignment' })).toBeEnabled();
  });

  it('shows the line type, the carrier, a SIM swap within the window as a warning naming it, and a yes with its reason and dates', async () => {
    renderCard({
      ...detail,
      carrier: { lineType: 'non_fixed_voip', name: 'Stand-in Wireless' },
      simSwap: { lastSwapAt: '2026-03-09T08:00:00Z', withinWindow: true, windowDays: 7 },
      reassignment: latestYes,
    });
    const card = await section();
    expect(card).toHaveTextContent('Line typeNon-fixed VoIP');
    expect(card).toHaveTextContent('CarrierStand-in Wireless');
    expect(within(card).getByText('SIM swapped within 7 days before the code')).toBeInTheDocument();
    expect(within(card).getByText('Reassigned since consent')).toBeInTheDocument();
    expect(card).toHaveTextContent('the consent does not cover whoever holds it now');
    expect(card.querySelector('time[datetime="2026-11-20T10:00:00Z"]')).not.toBeNull();
    expect(card.querySelector('time[datetime="2026-03-10"]')?.textContent).toBe(
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(
        new Date('2026-03-10T00:00:00Z'),
      ),
    );
  });

  it('shows no data as such, never as a no; a swap outside the window and without a date says so', async () => {
    renderCard({
      ...detail,
      simSwap: { lastSwapAt: null, withinWindow: false, windowDays: 3 },
      reassignment: { ...latestYes, answer: 'no_data', errorCode: 60607 },
    });
    const card = await section();
    expect(within(card).getByText('No data available')).toBeInTheDocument();
    expect(within(card).queryByText('Not reassigned since consent')).toBeNull();
    expect(card).toHaveTextContent('This is not a “no”');
    expect(card).toHaveTextContent('Provider code 60607');
    expect(card).toHaveTextContent('The carrier gave no date');
    expect(card).toHaveTextContent('Not within the account’s 3 days window');
    expect(within(card).queryByText(/SIM swapped within/)).toBeNull();
  });

  it('checks with the CSRF token, shows it is working, then reads the verification again (no stale screen)', async () => {
    const user = userEvent.setup();
    let answer: (value: Answer) => void = () => {};
    const view = renderCard(detail, () => new Promise<Answer>((resolve) => (answer = resolve)));
    const card = await section();
    await user.click(within(card).getByRole('button', { name: 'Check for reassignment' }));
    await waitFor(() =>
      expect(within(card).getByRole('button', { name: 'Check for reassignment' })).toHaveAttribute(
        'data-loading',
        'true',
      ),
    );
    const [posted] = view.server.calls(CHECK);
    // The session's token, as every unsafe call sends it.
    expect(posted?.headers['X-CSRFToken']).toBe('csrf-initial');
    expect(posted?.url.searchParams.get('account')).toBe('21');
    view.setDetail({ ...detail, reassignment: { ...latestYes, answer: 'no' } });
    answer([201, { ...yes, answer: 'no' }]);
    expect(await within(card).findByText('Not reassigned since consent')).toBeInTheDocument();
    expect(view.server.calls(DETAIL)).toHaveLength(2);
  });

  it.each([
    [
      400,
      {
        nonFieldErrors: ['The reassigned-numbers database covers US numbers only.'],
        MainCode_: 'validation_error',
      },
      'The reassigned-numbers database covers US numbers only.',
    ],
    [
      429,
      {
        detail: 'This month’s reassigned-number lookups reached the ceiling.',
        MainCode_: 'lookup_ceiling_reached',
      },
      'This month’s reassigned-number lookups reached the ceiling.',
    ],
    [
      503,
      {
        detail: 'The carrier lookup provider did not answer: nothing was recorded. Retry in a moment.',
        MainCode_: 'lookup_failed',
      },
      'The carrier lookup provider did not answer: nothing was recorded. Retry in a moment.',
    ],
  ] as const)('a %i answer says why, in the server’s words', async (status, body, text) => {
    const user = userEvent.setup();
    renderCard(detail, [status, body]);
    const card = await section();
    await user.click(within(card).getByRole('button', { name: 'Check for reassignment' }));
    const alert = await within(card).findByRole('alert');
    expect(alert).toHaveTextContent(text);
    expect(within(card).getByRole('button', { name: 'Check for reassignment' })).toBeEnabled();
  });

  it('offers no check for what cannot be checked: e-mail, test, redacted', async () => {
    for (const over of [
      { verificationMethod: 'email' as const },
      { isTest: true },
      { redactedAt: '2026-04-01T00:00:00Z' },
    ]) {
      const view = renderCard({ ...detail, ...over });
      const card = await section();
      expect(within(card).queryByRole('button', { name: 'Check for reassignment' })).toBeNull();
      view.unmount();
    }
  });
});
