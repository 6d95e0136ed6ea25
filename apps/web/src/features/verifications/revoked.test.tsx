import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  type Revocation,
  type Verification,
  type VerificationDetail,
  verificationSearchSchema,
} from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';
import { verificationExportUrl, verificationListParams } from './api';

/**
 * Issue #35 in the activity log: a "Revoked" mark with its date on the rows, the Revoked filter in the filter bar, and
 * on the detail the revocation with its channel and date, a link to Activity Log › Revocations, and "Record
 * revocation" with the number filled in.
 */

const ada = makeUser();
const owner = makeMembership();
const signedIn = () => makeInitialData({ user: ada, memberships: [owner], currentMembership: owner });

const REVOKED_AT = '2026-03-04T15:30:00Z';
const dayOf = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(iso));

function makeVerification(id: number, over: Partial<Verification> = {}): Verification {
  return {
    id,
    cellPhone: `+1201555${String(id).padStart(4, '0')}`,
    externalRefId: `CRM-${id}`,
    verifyFormId: 7,
    verifyFormName: 'Onboarding check',
    verifyFormCategory: 'Onboarding',
    verificationMethod: 'sms',
    isTest: false,
    source: 'hosted',
    created: '2026-01-05T10:00:00Z',
    revokedAt: null,
    revocationId: null,
    ...over,
  };
}

const revoked = makeVerification(1, { revokedAt: REVOKED_AT, revocationId: 'rev_1' });
const kept = makeVerification(2);

function listServer() {
  return createFakeServer({
    'GET /api/verifications': ({ url }) => {
      const filter = url.searchParams.get('revoked');
      const results = [revoked, kept].filter(
        (v) => filter === null || (filter === 'true') === (v.revokedAt !== null),
      );
      return [200, { count: results.length, pageNumber: 1, pageSize: 10, results }];
    },
    'GET /api/verify-forms': [200, { count: 0, pageNumber: 1, pageSize: 100, results: [] }],
    'GET /api/verify-forms/categories': [200, { results: ['Onboarding'] }],
  });
}

const lastListParams = (fake: ReturnType<typeof listServer>) =>
  Object.fromEntries(fake.calls('GET /api/verifications').at(-1)?.url.searchParams ?? []);

describe('the activity log’s revoked mark and filter', { timeout: 20_000 }, () => {
  it('marks a revoked row with its date, in words; a row not revoked has no mark', async () => {
    renderApp('/activity-log/', { initialData: signedIn(), server: listServer() });
    const table = await screen.findByRole('table', { name: 'Verifications' });
    const rows = within(table).getAllByRole('row').slice(1);
    const [first, second] = rows as [HTMLElement, HTMLElement];
    const mark = within(first).getByText(`Revoked ${dayOf(REVOKED_AT)}`);
    expect(mark.closest('time')).toHaveAttribute('dateTime', REVOKED_AT);
    expect(within(second).queryByText(/^Revoked/)).toBeNull();
  });

  it('Revoked: any, revoked or not revoked, in the URL and the API; a shared link opens filtered; Clear drops it', async () => {
    const user = userEvent.setup();
    const fake = listServer();
    const { router } = renderApp('/activity-log/', { initialData: signedIn(), server: fake });
    await screen.findByRole('table', { name: 'Verifications' });
    const filters = screen.getByRole('search', { name: 'Filter verifications' });
    const select = within(filters).getByRole('combobox', { name: 'Revoked' });
    expect(select).toHaveValue('Any');
    expect(lastListParams(fake).revoked).toBeUndefined();

    await user.click(select);
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'Any',
      'Revoked',
      'Not revoked',
    ]);
    await user.click(screen.getByRole('option', { name: 'Revoked' }));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ revoked: true }));
    await waitFor(() => expect(lastListParams(fake).revoked).toBe('true'));
    await waitFor(() => expect(screen.queryByText('CRM-2')).toBeNull());
    expect(screen.getByText('CRM-1')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Revoked' }));
    await user.click(await screen.findByRole('option', { name: 'Not revoked' }));
    await waitFor(() => expect(lastListParams(fake).revoked).toBe('false'));
    expect(await screen.findByText('CRM-2')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Revoked' }));
    await user.click(await screen.findByRole('option', { name: 'Any' }));
    await waitFor(() => expect(router.state.location.search).not.toHaveProperty('revoked'));
    // Both again (the first page's answer, still cached).
    expect(await screen.findByText('CRM-1')).toBeInTheDocument();
    expect(screen.getByText('CRM-2')).toBeInTheDocument();
  });

  it('a link with revoked=true opens filtered, and nothing matching offers Clear filters', async () => {
    const user = userEvent.setup();
    const fake = createFakeServer({
      'GET /api/verifications': [200, { count: 0, pageNumber: 1, pageSize: 10, results: [] }],
      'GET /api/verify-forms': [200, { count: 0, pageNumber: 1, pageSize: 100, results: [] }],
      'GET /api/verify-forms/categories': [200, { results: [] }],
    });
    const { router } = renderApp('/activity-log/?revoked=true', { initialData: signedIn(), server: fake });
    // Filtered: "none match", not "no verifications yet".
    expect(await screen.findByText('No verifications match these filters')).toBeInTheDocument();
    expect(lastListParams(fake).revoked).toBe('true');
    expect(screen.getByRole('combobox', { name: 'Revoked' })).toHaveValue('Revoked');
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.searchStr).toBe(''));
  });
});

describe('the revoked filter’s calls', () => {
  it('the list call and the CSV link carry it; left out when any', () => {
    const only = verificationSearchSchema.parse({ revoked: 'true' });
    expect(verificationListParams(only).revoked).toBe(true);
    expect(verificationExportUrl(21, only)).toContain('revoked=true');
    const others = verificationSearchSchema.parse({ revoked: false });
    expect(verificationExportUrl(21, others)).toContain('revoked=false');
    const any = verificationSearchSchema.parse({ revoked: 'maybe' });
    expect(any.revoked).toBeUndefined();
    expect(verificationExportUrl(21, any)).not.toContain('revoked');
  });
});

describe('the verification detail’s revocation', { timeout: 20_000 }, () => {
  const detail: VerificationDetail = {
    ...makeVerification(42, { revokedAt: REVOKED_AT, revocationId: 'rev_42' }),
    email: null,
    codeSentAt: '2026-01-05T09:58:00Z',
    verifiedAt: '2026-01-05T09:59:05Z',
    attempts: 1,
    ip: '203.0.113.9',
    userAgent: 'Mozilla/5.0 (iPhone)',
    consent: null,
    redactedAt: null,
    revocation: {
      id: 'rev_42',
      channel: 'sms_reply',
      receivedAt: REVOKED_AT,
      phone: '+12015550042',
      email: null,
    },
    // No carrier lookups or reassigned-number check (issue #36).
    carrier: null,
    simSwap: null,
    reassignment: null,
    refreshes: null,
    heldBy: [],
    holds: [],
  };

  function detailServer(answer: VerificationDetail) {
    return createFakeServer({
      'GET /api/verifications/42': [200, answer],
      'GET /api/verifications/42/timeline': [200, { events: [] }],
      'GET /api/verifications/42/certificate/standing': [
        200,
        {
          status: 'valid',
          revokedAt: null,
          revocationReason: null,
          redactedAt: null,
          consentRevokedAt: REVOKED_AT,
          certificateId: null,
          issuedAt: null,
        },
      ],
    });
  }

  it('shows when and how consent was revoked, marks the number, and links to the revocation in the log', async () => {
    renderApp('/activity-log/42', { initialData: signedIn(), server: detailServer(detail) });
    expect(await screen.findByRole('heading', { name: '+1 (201) 555-0042' })).toBeInTheDocument();
    const notice = screen.getByRole('alert');
    expect(within(notice).getByText(`Consent revoked on ${dayOf(REVOKED_AT)}`)).toBeInTheDocument();
    expect(notice).toHaveTextContent('Reply to a code text, received');
    expect(notice).toHaveTextContent('for +1 (201) 555-0042');
    expect(
      within(notice).getByRole('link', { name: 'See it in Activity Log › Revocations' }),
    ).toHaveAttribute('href', '/activity-log/revocations?q=%2B12015550042');
    expect(screen.getAllByText(`Revoked ${dayOf(REVOKED_AT)}`)).toHaveLength(1);
  });

  it('a verification not revoked shows no revocation', async () => {
    renderApp('/activity-log/42', {
      initialData: signedIn(),
      server: detailServer({ ...detail, revokedAt: null, revocationId: null, revocation: null }),
    });
    expect(await screen.findByRole('heading', { name: '+1 (201) 555-0042' })).toBeInTheDocument();
    expect(screen.queryByText(/Consent revoked/)).toBeNull();
    expect(screen.queryByText(/^Revoked/)).toBeNull();
  });

  it('Record revocation opens the revocations dialog with the number filled in; once recorded the detail reads again', async () => {
    const user = userEvent.setup();
    let current: VerificationDetail = { ...detail, revokedAt: null, revocationId: null, revocation: null };
    const fake = createFakeServer({
      'GET /api/verifications/42': () => [200, current],
      'GET /api/verifications/42/timeline': [200, { events: [] }],
      'GET /api/verifications/42/certificate/standing': [
        200,
        {
          status: 'valid',
          revokedAt: null,
          revocationReason: null,
          redactedAt: null,
          consentRevokedAt: null,
          certificateId: null,
          issuedAt: null,
        },
      ],
      'POST /api/revocations': ({ body }) => {
        const recorded: Revocation = {
          id: 'rev_new',
          channel: 'member',
          via: 'phone_call',
          note: '',
          recordedBy: ada.email,
          phone: '+12015550042',
          email: null,
          words: '',
          perSeWords: [],
          status: 'open',
          receivedAt: REVOKED_AT,
          deadline: '2026-03-18',
          acknowledgedAt: null,
          verificationIds: [42],
          ...(body as Partial<Revocation>),
        };
        current = detail;
        return [201, recorded];
      },
    });
    renderApp('/activity-log/42', { initialData: signedIn(), server: fake });
    await screen.findByRole('heading', { name: '+1 (201) 555-0042' });
    await user.click(screen.getByRole('button', { name: 'Record revocation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record a revocation' });
    expect(within(dialog).getByLabelText('Phone number')).toHaveValue('+12015550042');
    await user.type(within(dialog).getByLabelText('Note'), 'Called us');
    await user.click(within(dialog).getByRole('button', { name: 'Record revocation' }));
    await waitFor(() => expect(fake.calls('POST /api/revocations')).toHaveLength(1));
    expect(fake.calls('POST /api/revocations')[0]?.body).toEqual({
      phone: '+12015550042',
      via: 'phone_call',
      note: 'Called us',
    });
    expect(await screen.findByText(`Consent revoked on ${dayOf(REVOKED_AT)}`)).toBeInTheDocument();
  });

  it('a redacted verification offers no Record revocation (its number is masked)', async () => {
    renderApp('/activity-log/42', {
      initialData: signedIn(),
      server: detailServer({
        ...detail,
        cellPhone: '+1 ••• ••• 0042',
        redactedAt: '2026-02-01T00:00:00Z',
        revokedAt: null,
        revocationId: null,
        revocation: null,
      }),
    });
    expect(await screen.findByText(/Personal data redacted/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Record revocation' })).toBeNull();
  });
});
