import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ContactabilityCheck } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';

const ada = makeUser();
const owner = makeMembership();
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });

function makeCheck(id: string, over: Partial<ContactabilityCheck> = {}): ContactabilityCheck {
  return {
    id,
    phone: '+12015550101',
    channel: 'sms',
    purpose: 'marketing',
    at: '2026-11-25T15:00:00Z',
    allowed: false,
    reasons: [
      { code: 'no_consent', text: 'No verification of this number in this account before that time.' },
    ],
    consent: null,
    revokedAt: null,
    revocationId: null,
    timeZone: 'America/New_York',
    localTime: '2026-11-25T10:00:00-05:00',
    state: 'NJ',
    withinCallingWindow: true,
    nextAllowedAt: null,
    reassignment: null,
    reassignmentCheck: null,
    rulesVersion: '2026-11-01',
    checkedAt: '2026-11-25T15:00:00Z',
    livemode: true,
    askedBy: 'ada@example.com',
    consentLogId: null,
    ...over,
  };
}

const page = (results: ContactabilityCheck[]) => ({
  count: results.length,
  pageNumber: 1,
  pageSize: 25,
  results,
});

/** A server keeping the verdicts: it lists them (by digits and verdict), and a question adds one first. */
function server(
  initial: ContactabilityCheck[],
  answer: (body: unknown) => ContactabilityCheck = () => makeCheck('new'),
) {
  let rows = [...initial];
  return createFakeServer({
    'GET /api/contactability/checks': ({ url }) => {
      const digits = (url.searchParams.get('phone') ?? '').replace(/\D/g, '');
      const allowed = url.searchParams.get('allowed');
      const results = rows.filter(
        (c) => c.phone.includes(digits) && (allowed === null || String(c.allowed) === allowed),
      );
      return [200, page(results)];
    },
    'POST /api/contactability': ({ body }) => {
      const made = answer(body);
      rows = [made, ...rows];
      return [200, made];
    },
  });
}

const lastListParams = (fake: ReturnType<typeof server>) =>
  Object.fromEntries(fake.calls('GET /api/contactability/checks').at(-1)?.url.searchParams ?? []);

describe('/activity-log/contactability: the verdicts kept', { timeout: 20_000 }, () => {
  it('lists who asked, the number, purpose, verdict and reasons; the tab is current', async () => {
    const fake = server([
      makeCheck('c1'),
      makeCheck('c2', {
        phone: '+13055550182',
        allowed: true,
        reasons: [],
        purpose: 'informational',
        channel: 'voice',
        askedBy: 'vf_live_ab12',
      }),
    ]);
    renderApp('/activity-log/contactability', { initialData: signedIn(), server: fake });
    const table = await screen.findByRole('table', { name: 'Verdicts' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Checked', 'Number', 'Purpose', 'Verdict', 'Reasons', 'Asked by', 'Details']);
    const refused = within(table).getByText('+1 (201) 555-0101').closest('tr') as HTMLElement;
    expect(within(refused).getByText('Not now')).toBeInTheDocument();
    expect(within(refused).getByText('No consent')).toBeInTheDocument();
    expect(within(refused).getByText('Marketing · Text message')).toBeInTheDocument();
    expect(within(refused).getByText('ada@example.com')).toBeInTheDocument();
    const allowed = within(table).getByText('+1 (305) 555-0182').closest('tr') as HTMLElement;
    expect(within(allowed).getByText('Allowed')).toBeInTheDocument();
    expect(within(allowed).getByText('vf_live_ab12')).toBeInTheDocument();
    expect(within(allowed).getByText('Informational · Voice call')).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Activity log views' });
    expect(within(tabs).getByRole('link', { name: 'Contactability' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(lastListParams(fake)).toEqual({ account: '21', pageNumber: '1', pageSize: '25' });
  });

  it('nothing yet: says what will be listed, without filters', async () => {
    renderApp('/activity-log/contactability', { initialData: signedIn(), server: server([]) });
    expect(await screen.findByText('No numbers checked yet')).toBeInTheDocument();
    expect(screen.queryByRole('search', { name: 'Filter verdicts' })).toBeNull();
    // The form is there from the start.
    expect(screen.getByRole('form', { name: 'Check a number' })).toBeInTheDocument();
  });

  it('a failed read says so and tries again', async () => {
    const user = userEvent.setup();
    const fake = createFakeServer({
      'GET /api/contactability/checks': [500, { detail: 'Server error.' }],
    });
    renderApp('/activity-log/contactability', { initialData: signedIn(), server: fake });
    expect(await screen.findByText('The verdicts could not be loaded')).toBeInTheDocument();
    fake.on('GET /api/contactability/checks', [200, page([makeCheck('c1')])]);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Verdicts' })).toBeInTheDocument();
  });

  it('filters by any digits of the number (debounced) and by verdict; nothing matching offers Clear filters', async () => {
    const user = userEvent.setup();
    const fake = server([
      makeCheck('c1'),
      makeCheck('c2', { phone: '+13055550182', allowed: true, reasons: [] }),
    ]);
    const { router } = renderApp('/activity-log/contactability', { initialData: signedIn(), server: fake });
    const filters = await screen.findByRole('search', { name: 'Filter verdicts' });
    await user.type(within(filters).getByRole('searchbox', { name: 'Number' }), '555-0182');
    await waitFor(() => expect(lastListParams(fake)).toMatchObject({ phone: '555-0182', pageNumber: '1' }));
    expect(router.state.location.search).toEqual({ phone: '555-0182' });
    await waitFor(() => expect(screen.queryByText('+1 (201) 555-0101')).toBeNull());

    await user.selectOptions(within(filters).getByLabelText('Verdict'), 'false');
    await waitFor(() => expect(lastListParams(fake)).toMatchObject({ phone: '555-0182', allowed: 'false' }));
    expect(await screen.findByText('No matching verdicts')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(await screen.findByText('+1 (201) 555-0101')).toBeInTheDocument();
  });

  it('Details shows a kept verdict in full', async () => {
    const user = userEvent.setup();
    renderApp('/activity-log/contactability', { initialData: signedIn(), server: server([makeCheck('c1')]) });
    await user.click(
      await screen.findByRole('button', { name: /^Details of the check of \+1 \(201\) 555-0101/ }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Verdict' });
    expect(within(dialog).getByRole('heading', { name: 'Not now' })).toBeInTheDocument();
    expect(
      within(dialog).getByText('No verification of this number in this account before that time.'),
    ).toBeInTheDocument();
  });

  it('a member without canSearchData gets the permission screen and nothing is read', async () => {
    const fake = server([]);
    const plain = makeMembership({ role: 'member', canSearchData: false, canViewReports: false });
    renderApp('/activity-log/contactability', { initialData: signedIn(plain), server: fake });
    expect(await screen.findByRole('heading', { name: /permission|access/i })).toBeInTheDocument();
    expect(fake.calls('GET /api/contactability/checks')).toHaveLength(0);
  });
});

describe('/activity-log/contactability: Check a number', { timeout: 20_000 }, () => {
  it('asks for the number first; then posts it and shows the verdict, its reasons, local time and zone; the list reads again', async () => {
    const user = userEvent.setup();
    const fake = server([]);
    renderApp('/activity-log/contactability', { initialData: signedIn(), server: fake });
    const form = await screen.findByRole('form', { name: 'Check a number' });
    await screen.findByText('No numbers checked yet');
    await user.click(within(form).getByRole('button', { name: 'Check' }));
    expect(await within(form).findByText('Enter the number to check.')).toBeInTheDocument();
    expect(within(form).getByLabelText(/^Phone number/)).toHaveFocus();
    expect(fake.calls('POST /api/contactability')).toHaveLength(0);

    const reads = fake.calls('GET /api/contactability/checks').length;
    await user.type(within(form).getByLabelText(/^Phone number/), '(201) 555-0101');
    await user.click(within(form).getByRole('button', { name: 'Check' }));
    await waitFor(() => expect(fake.calls('POST /api/contactability')).toHaveLength(1));
    const [posted] = fake.calls('POST /api/contactability');
    expect(posted?.body).toEqual({ phone: '(201) 555-0101', channel: 'sms', purpose: 'marketing' });
    expect(posted?.url.searchParams.get('account')).toBe('21');

    const verdict = await screen.findByRole('region', { name: 'Verdict for +1 (201) 555-0101' });
    expect(within(verdict).getByRole('heading', { name: 'Not now' })).toBeInTheDocument();
    expect(
      within(verdict).getByText('No verification of this number in this account before that time.'),
    ).toBeInTheDocument();
    expect(within(verdict).getByText('None on record')).toBeInTheDocument();
    expect(within(verdict).getByText(/America\/New_York, NJ/)).toBeInTheDocument();
    expect(within(verdict).getByText(/EST/)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Not now: +1 (201) 555-0101');
    // Kept: the list reads again and shows it.
    await waitFor(() => expect(fake.calls('GET /api/contactability/checks').length).toBeGreaterThan(reads));
    expect(await screen.findByRole('table', { name: 'Verdicts' })).toBeInTheDocument();
  });

  it('an allowed verdict links its consent to the verification; revoked and next-allowed times show when given', async () => {
    const user = userEvent.setup();
    const allowed = makeCheck('a1', {
      allowed: true,
      reasons: [],
      consent: { verificationId: 'va_1', verifiedAt: '2026-10-01T12:00:00Z', certificateId: null },
      consentLogId: 77,
    });
    const quiet = makeCheck('q1', {
      reasons: [{ code: 'quiet_hours', text: 'Outside 8:00–21:00 at the number’s local time.' }],
      consent: { verificationId: 'va_1', verifiedAt: '2026-10-01T12:00:00Z', certificateId: null },
      consentLogId: 77,
      withinCallingWindow: false,
      nextAllowedAt: '2026-11-26T13:00:00Z',
    });
    const revoked = makeCheck('r1', {
      reasons: [{ code: 'revoked', text: 'Consent was revoked after the newest verification.' }],
      consent: { verificationId: 'va_1', verifiedAt: '2026-10-01T12:00:00Z', certificateId: null },
      revokedAt: '2026-10-02T12:00:00Z',
      revocationId: 'rev1',
    });
    const answers = [allowed, quiet, revoked];
    const fake = server([], () => answers.shift() ?? allowed);
    renderApp('/activity-log/contactability', { initialData: signedIn(), server: fake });
    const form = await screen.findByRole('form', { name: 'Check a number' });
    await user.type(within(form).getByLabelText(/^Phone number/), '+12015550101');
    await user.selectOptions(within(form).getByLabelText(/^Purpose/), 'informational');
    await user.selectOptions(within(form).getByLabelText(/^How/), 'voice');
    await user.type(within(form).getByLabelText(/^When/), '2026-11-26T09:30');
    await user.click(within(form).getByRole('button', { name: 'Check' }));

    let verdict = await screen.findByRole('region', { name: 'Verdict for +1 (201) 555-0101' });
    expect(fake.calls('POST /api/contactability')[0]?.body).toEqual({
      phone: '+12015550101',
      channel: 'voice',
      purpose: 'informational',
      at: new Date('2026-11-26T09:30').toISOString(),
    });
    expect(within(verdict).getByRole('heading', { name: 'Allowed' })).toBeInTheDocument();
    expect(within(verdict).getByText(/^Verified on/)).toBeInTheDocument();
    expect(
      within(verdict).getByRole('link', { name: 'Open the verification of +1 (201) 555-0101' }),
    ).toHaveAttribute('href', expect.stringMatching(/^\/activity-log\/77(\?|$)/));

    await user.click(within(form).getByRole('button', { name: 'Check' }));
    await waitFor(() => expect(screen.getByText(/^Outside 8:00–21:00/)).toBeInTheDocument());
    verdict = screen.getByRole('region', { name: 'Verdict for +1 (201) 555-0101' });
    expect(within(verdict).getByText('Next allowed at')).toBeInTheDocument();
    expect(within(verdict).getByText('Closed')).toBeInTheDocument();

    await user.click(within(form).getByRole('button', { name: 'Check' }));
    await waitFor(() => expect(screen.getByText('Revoked on')).toBeInTheDocument());
    verdict = screen.getByRole('region', { name: 'Verdict for +1 (201) 555-0101' });
    expect(
      within(verdict).getByText('Consent was revoked after the newest verification.'),
    ).toBeInTheDocument();
    // No verification to link to (no Activity Log id): the date alone.
    expect(within(verdict).queryByRole('link')).toBeNull();
  });

  it("shows the server's refusal beside the field and no verdict", async () => {
    const user = userEvent.setup();
    const fake = server([]);
    fake.on('POST /api/contactability', [
      400,
      {
        phone: ['Enter a valid phone number, with its country code if it is not a US number.'],
        MainCode_: 'validation_error',
      },
    ]);
    renderApp('/activity-log/contactability', { initialData: signedIn(), server: fake });
    const form = await screen.findByRole('form', { name: 'Check a number' });
    await user.type(within(form).getByLabelText(/^Phone number/), '12');
    await user.click(within(form).getByRole('button', { name: 'Check' }));
    expect(
      await within(form).findByText(
        'Enter a valid phone number, with its country code if it is not a US number.',
      ),
    ).toBeInTheDocument();
    expect(within(form).getByLabelText(/^Phone number/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('region', { name: /^Verdict for/ })).toBeNull();
  });
});
