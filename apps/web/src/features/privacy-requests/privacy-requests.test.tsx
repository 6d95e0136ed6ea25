import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PrivacyRequest, PrivacyRequestAnswer } from '@veriform/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';
import { localToday, toFileRequestBody, validateFileRequest } from './components/FileRequestModal';
import { privacyRequestReceipt } from './receipt';

const ada = makeUser();
const owner = makeMembership();
const member = makeMembership({ role: 'member' });
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });

const noMatches = { verifications: 0, attempts: 0, revocations: 0, webhookEvents: 0, deliveries: 0 };

function makeRequest(id: string, over: Partial<PrivacyRequest> = {}): PrivacyRequest {
  return {
    id,
    type: 'erasure',
    law: 'ccpa',
    status: 'open',
    overdue: false,
    phones: ['+12015550123'],
    emails: [],
    identifiersMasked: false,
    requester: { name: 'Jane Roe', email: 'jane@example.com' },
    receivedAt: '2026-11-20T15:00:00Z',
    dueAt: '2027-01-04T15:00:00Z',
    extendedAt: null,
    extensionReason: null,
    extendable: true,
    filedBy: ada.email,
    matches: { ...noMatches, verifications: 3, attempts: 4, deliveries: 2 },
    answer: null,
    answeredAt: null,
    createdAt: '2026-11-20T15:00:00Z',
    ...over,
  };
}

const page = (results: PrivacyRequest[]) => ({ count: results.length, pageNumber: 1, pageSize: 25, results });

/** A server holding the requests: listed by status (`overdue` too), one read by id, a filed one goes first. */
function server(initial: PrivacyRequest[]) {
  let rows = [...initial];
  const fake = createFakeServer({
    'GET /api/privacy-requests': ({ url }) => {
      const status = url.searchParams.get('status');
      return [
        200,
        page(rows.filter((r) => !status || (status === 'overdue' ? r.overdue : r.status === status))),
      ];
    },
    'POST /api/privacy-requests': ({ body }) => {
      const b = body as { type: PrivacyRequest['type']; phones: string[]; requester: { name: string } };
      const made = makeRequest('dsr_new', {
        type: b.type,
        phones: b.phones,
        requester: { name: b.requester.name, email: null },
      });
      rows = [made, ...rows];
      return [201, made];
    },
  });
  for (const r of initial)
    fake.on(`GET /api/privacy-requests/${r.id}`, () => [200, rows.find((x) => x.id === r.id)]);
  fake.on('GET /api/privacy-requests/dsr_new', () => [200, rows.find((x) => x.id === 'dsr_new')]);
  const replace = (next: PrivacyRequest) => {
    rows = rows.map((r) => (r.id === next.id ? next : r));
  };
  return { fake, replace };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Settings › Privacy requests', { timeout: 20_000 }, () => {
  it('lists requests with type, law, requester, received, due and status; overdue is said in words', async () => {
    const { fake } = server([
      makeRequest('dsr_a'),
      makeRequest('dsr_b', {
        type: 'access',
        law: 'gdpr',
        overdue: true,
        requester: { name: 'Max Mustermann', email: null },
      }),
    ]);
    renderApp('/settings/privacy-requests', { initialData: signedIn(), server: fake });
    const table = await screen.findByRole('table', { name: 'Privacy requests' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Request', 'Law', 'Requester', 'Received', 'Due', 'Status']);
    const erasure = within(table).getByRole('link', { name: 'Erasure request of Jane Roe' });
    expect(erasure).toHaveAttribute('href', '/settings/privacy-requests/dsr_a');
    const row = erasure.closest('tr') as HTMLElement;
    expect(within(row).getByText('CCPA')).toBeInTheDocument();
    expect(within(row).getByText('jane@example.com')).toBeInTheDocument();
    expect(within(row).getByText('Open')).toBeInTheDocument();
    expect(within(row).queryByText('Overdue')).toBeNull();
    const late = within(table).getByText('Max Mustermann').closest('tr') as HTMLElement;
    expect(within(late).getByText('GDPR')).toBeInTheDocument();
    expect(within(late).getByText('Overdue')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Privacy requests' })).toHaveAttribute('aria-selected', 'true');
  });

  it('the status filter is in the URL and asks the server; nothing matching offers Clear filters', async () => {
    const { fake } = server([makeRequest('dsr_a')]);
    const { router } = renderApp('/settings/privacy-requests', { initialData: signedIn(), server: fake });
    await screen.findByRole('table', { name: 'Privacy requests' });
    const filters = screen.getByRole('search', { name: 'Filter privacy requests' });
    await userEvent.selectOptions(within(filters).getByLabelText('Status'), 'answered');
    await waitFor(() => expect(router.state.location.search).toEqual({ status: 'answered' }));
    expect(fake.calls('GET /api/privacy-requests').at(-1)?.url.searchParams.get('status')).toBe('answered');
    expect(await screen.findByText('No requests with this status')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(await screen.findByRole('link', { name: 'Erasure request of Jane Roe' })).toBeInTheDocument();
  });

  it('says when there are none yet, and when they could not be loaded (Try again reads again)', async () => {
    const { fake } = server([]);
    renderApp('/settings/privacy-requests', { initialData: signedIn(), server: fake });
    expect(await screen.findByText('No privacy requests yet')).toBeInTheDocument();
    expect(screen.queryByRole('search', { name: 'Filter privacy requests' })).toBeNull();

    const failing = createFakeServer({ 'GET /api/privacy-requests': [500, { detail: 'boom' }] });
    renderApp('/settings/privacy-requests', { initialData: signedIn(), server: failing });
    expect(
      await screen.findByText('The privacy requests could not be loaded', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    failing.on('GET /api/privacy-requests', [200, page([makeRequest('dsr_a')])]);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Erasure request of Jane Roe' })).toBeInTheDocument();
  });

  it('is the owners’: members see no tab, and the address shows the permission screen without asking', async () => {
    const { fake } = server([makeRequest('dsr_a')]);
    renderApp('/settings/my-account', { initialData: signedIn(member), server: fake });
    expect(await screen.findByRole('tab', { name: 'My Account' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Privacy requests' })).toBeNull();
    renderApp('/settings/privacy-requests', { initialData: signedIn(member), server: fake });
    expect(await screen.findByText('Sorry, you do not have access to this page.')).toBeInTheDocument();
    expect(fake.requests.filter((r) => r.path.startsWith('/api/privacy-requests'))).toHaveLength(0);
  });
});

describe('File a request', { timeout: 20_000 }, () => {
  it('asks for a number or an address and the requester first; then posts what was filled and opens the request', async () => {
    const { fake } = server([]);
    const { router } = renderApp('/settings/privacy-requests', { initialData: signedIn(), server: fake });
    await userEvent.click(await screen.findByRole('button', { name: 'File a request' }));
    const dialog = await screen.findByRole('dialog', { name: 'File a privacy request' });
    // Each type says what it does; each law its due period.
    expect(within(dialog).getByText(/restricted instead/)).toBeInTheDocument();
    expect(
      within(dialog).getByRole('option', { name: 'GDPR (30 days, extendable once by 60)' }),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Received on')).toHaveValue(localToday());

    await userEvent.click(within(dialog).getByRole('button', { name: 'File request' }));
    expect(
      await within(dialog).findByText(
        'Name at least one phone number or e-mail address the request is about.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Phone number 1')).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText(/Requester’s name/)).toHaveAttribute('aria-invalid', 'true');
    expect(fake.calls('POST /api/privacy-requests')).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('radio', { name: /Erasure/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add another number' }));
    await userEvent.type(within(dialog).getByLabelText('Phone number 2'), '(201) 555-0123');
    expect(
      within(dialog).queryByText('Name at least one phone number or e-mail address the request is about.'),
    ).toBeNull();
    await userEvent.type(within(dialog).getByLabelText(/Requester’s name/), 'Jane Roe');
    await userEvent.click(within(dialog).getByRole('button', { name: 'File request' }));
    await waitFor(() => expect(fake.calls('POST /api/privacy-requests')).toHaveLength(1));
    const call = fake.calls('POST /api/privacy-requests')[0];
    expect(call?.url.searchParams.get('account')).toBe(String(owner.account.id));
    // Blank inputs are left out; today is left out too (the server's now).
    expect(call?.body).toEqual({
      type: 'erasure',
      law: 'ccpa',
      phones: ['(201) 555-0123'],
      emails: [],
      requester: { name: 'Jane Roe' },
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/privacy-requests/dsr_new'));
    expect(await screen.findByRole('heading', { name: 'Erasure request of Jane Roe' })).toBeInTheDocument();
  });

  it('puts the server’s field errors beside their inputs', async () => {
    const { fake } = server([]);
    fake.on('POST /api/privacy-requests', [
      400,
      { 'phones.1': ['Enter a valid phone number, with its country code if it is not a US number.'] },
    ]);
    renderApp('/settings/privacy-requests', { initialData: signedIn(), server: fake });
    await userEvent.click(await screen.findByRole('button', { name: 'File a request' }));
    const dialog = await screen.findByRole('dialog', { name: 'File a privacy request' });
    await userEvent.type(within(dialog).getByLabelText('Phone number 1'), '2015550123');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add another number' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add another number' }));
    // The second input stays blank: it is dropped, so the server's phones.1 is the third typed here.
    await userEvent.type(within(dialog).getByLabelText('Phone number 3'), '12');
    await userEvent.type(within(dialog).getByLabelText(/Requester’s name/), 'Jane Roe');
    await userEvent.click(within(dialog).getByRole('button', { name: 'File request' }));
    const second = await within(dialog).findByLabelText('Phone number 2');
    await waitFor(() => expect(second).toHaveAttribute('aria-invalid', 'true'));
    expect(second).toHaveValue('12');
    expect(within(dialog).queryByLabelText('Phone number 3')).toBeNull();
    expect(
      within(dialog).getByText('Enter a valid phone number, with its country code if it is not a US number.'),
    ).toBeInTheDocument();
  });
});

describe('the form’s rules', () => {
  const base = {
    type: 'access' as const,
    law: 'gdpr' as const,
    phones: ['', '+12015550123'],
    emails: ['', 'Not an address'],
    requester: { name: 'Jane', email: '' },
    receivedAt: '2026-11-30',
  };

  it('a day in the future, before 2000 or malformed is refused; errors land on the input they came from', () => {
    const today = '2026-11-30';
    expect(validateFileRequest({ ...base, receivedAt: '2026-12-01' }, today).receivedAt).toMatch(
      /not in the future/,
    );
    expect(validateFileRequest({ ...base, receivedAt: '1999-12-31' }, today).receivedAt).toMatch(/2000/);
    expect(validateFileRequest({ ...base, receivedAt: '0000-01-01' }, today).receivedAt).toMatch(/2000/);
    expect(validateFileRequest({ ...base, receivedAt: '' }, today).receivedAt).toBeDefined();
    const errors = validateFileRequest(base, today);
    expect(Object.keys(errors)).toEqual(['emails.1']);
  });

  it('the body: blank inputs left out, today as the server’s now, an earlier day from its local start', () => {
    expect(toFileRequestBody(base, '2026-11-30')).toEqual({
      type: 'access',
      law: 'gdpr',
      phones: ['+12015550123'],
      emails: ['Not an address'],
      requester: { name: 'Jane', email: undefined },
      receivedAt: undefined,
    });
    const earlier = toFileRequestBody({ ...base, receivedAt: '2026-11-02' }, '2026-11-30');
    expect(earlier.receivedAt).toBe(new Date(2026, 10, 2).toISOString());
  });
});

const erasureAnswer: PrivacyRequestAnswer = {
  counts: { ...noMatches, verifications: 3, attempts: 4, deliveries: 2 },
  bundleReady: false,
  erased: 2,
  revocationsKept: 0,
  restricted: 1,
  holds: [{ id: 'hold_1', reason: 'Smith v. Acme litigation', verifications: 1 }],
  attemptsErased: 3,
  verdictsErased: 5,
  lookupsErased: 0,
  message: 'Erased 2 verifications; 1 is kept under a legal hold and restricted instead.',
};

describe('A request’s page', { timeout: 20_000 }, () => {
  it('shows the due date and how it was computed, and what it matches', async () => {
    const { fake } = server([makeRequest('dsr_a')]);
    renderApp('/settings/privacy-requests/dsr_a', { initialData: signedIn(), server: fake });
    expect(await screen.findByRole('heading', { name: 'Erasure request of Jane Roe' })).toBeInTheDocument();
    expect(screen.getByText(/45 days from its receipt on Nov 20, 2026 under the CCPA/)).toBeInTheDocument();
    const matches = screen.getByRole('region', { name: 'What it matches' });
    expect(within(matches).getByText('Verifications').nextSibling).toHaveTextContent('3');
    expect(within(matches).getByText('Deliveries').nextSibling).toHaveTextContent('2');
    expect(screen.getByText('+1 (201) 555-0123')).toBeInTheDocument();
  });

  it('carrying out an erasure says it cannot be undone, runs, and shows the answer with the hold; the receipt downloads', async () => {
    const { fake, replace } = server([makeRequest('dsr_a')]);
    fake.on('POST /api/privacy-requests/dsr_a/carry-out', () => {
      const running = makeRequest('dsr_a', { status: 'running', extendable: false });
      replace(running);
      return [202, running];
    });
    renderApp('/settings/privacy-requests/dsr_a', { initialData: signedIn(), server: fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Carry out' }));
    const dialog = await screen.findByRole('dialog', { name: 'Carry out the erasure request?' });
    expect(within(dialog).getByText('This cannot be undone.')).toBeInTheDocument();
    expect(within(dialog).getByText(/3 matching verifications/)).toBeInTheDocument();
    expect(within(dialog).getByText(/restricted instead/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Erase' }));
    await waitFor(() => expect(fake.calls('POST /api/privacy-requests/dsr_a/carry-out')).toHaveLength(1));
    expect(await screen.findByText('Being carried out')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Carry out' })).toBeNull();
    // Its button gone, the keyboard is back at the request.
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Erasure request of Jane Roe' })).toHaveFocus(),
    );

    // The job answers; the page reads it again while it runs.
    replace(
      makeRequest('dsr_a', {
        status: 'answered',
        extendable: false,
        phones: ['+1******0123'],
        identifiersMasked: true,
        answer: erasureAnswer,
        answeredAt: '2026-11-30T10:00:00Z',
      }),
    );
    const answer = await screen.findByRole('region', { name: 'Answer' }, { timeout: 8000 });
    expect(within(answer).getByText(erasureAnswer.message)).toBeInTheDocument();
    expect(within(answer).getByText('Verifications erased').nextSibling).toHaveTextContent('2');
    expect(within(answer).getByText('Restricted under a legal hold').nextSibling).toHaveTextContent('1');
    // The copies beyond the verifications: the codes no verification names, the verdicts, the lookups.
    expect(within(answer).getByText('Other codes sent, erased').nextSibling).toHaveTextContent('3');
    expect(within(answer).getByText('Contactability checks erased').nextSibling).toHaveTextContent('5');
    expect(within(answer).getByText('Carrier lookups erased').nextSibling).toHaveTextContent('0');
    expect(within(answer).getByText(/Smith v\. Acme litigation/)).toBeInTheDocument();
    expect(screen.getByText(/Masked since it was answered/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download bundle' })).toBeNull();
    // No longer extendable: the due date's words offer no extension.
    expect(screen.getByText('45 days from its receipt on Nov 20, 2026 under the CCPA.')).toBeInTheDocument();

    const saved: { blob?: Blob; filename?: string } = {};
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved.blob = blob as Blob;
      return 'blob:receipt';
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.filename = this.download;
    });
    await userEvent.click(screen.getByRole('button', { name: 'Download receipt' }));
    expect(saved.filename).toBe('privacy-request-dsr_a-receipt.json');
    const receipt = JSON.parse((await saved.blob?.text()) ?? '{}');
    expect(receipt).toMatchObject({
      requestId: 'dsr_a',
      type: 'erasure',
      phones: ['+1******0123'],
      answer: { erased: 2, restricted: 1, holds: [{ id: 'hold_1', reason: 'Smith v. Acme litigation' }] },
    });
  });

  it('an answered access request offers its bundle as a download link', async () => {
    const { fake } = server([
      makeRequest('dsr_x', {
        type: 'access',
        status: 'answered',
        extendable: false,
        answer: { ...erasureAnswer, bundleReady: true, erased: 0, restricted: 0, holds: [], message: '' },
        answeredAt: '2026-11-30T10:00:00Z',
      }),
    ]);
    renderApp('/settings/privacy-requests/dsr_x', { initialData: signedIn(), server: fake });
    const bundle = await screen.findByRole('link', { name: 'Download bundle' });
    expect(bundle).toHaveAttribute('href', '/api/privacy-requests/dsr_x/bundle');
    expect(bundle).toHaveAttribute('download');
    expect(screen.queryByRole('button', { name: 'Carry out' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Extend' })).toBeNull();
  });

  it('extends once, with a reason; the button goes and the new due date shows', async () => {
    const { fake, replace } = server([makeRequest('dsr_a')]);
    fake.on('POST /api/privacy-requests/dsr_a/extend', ({ body }) => {
      const extended = makeRequest('dsr_a', {
        dueAt: '2027-02-18T15:00:00Z',
        extendedAt: '2026-11-30T10:00:00Z',
        extensionReason: (body as { reason: string }).reason,
        extendable: false,
      });
      replace(extended);
      return [200, extended];
    });
    renderApp('/settings/privacy-requests/dsr_a', { initialData: signedIn(), server: fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Extend' }));
    const dialog = await screen.findByRole('dialog', { name: 'Extend the due date' });
    expect(within(dialog).getByText(/moves once by 45 days/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Extend' }));
    expect(within(dialog).getByLabelText(/Reason/)).toHaveAttribute('aria-invalid', 'true');
    expect(fake.calls('POST /api/privacy-requests/dsr_a/extend')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText(/Reason/), 'Many records to gather');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Extend' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Extend the due date' })).toBeNull());
    expect(fake.calls('POST /api/privacy-requests/dsr_a/extend')[0]?.body).toEqual({
      reason: 'Many records to gather',
    });
    expect(screen.queryByRole('button', { name: 'Extend' })).toBeNull();
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Erasure request of Jane Roe' })).toHaveFocus(),
    );
    expect(await screen.findByText('Many records to gather')).toBeInTheDocument();
    expect(screen.getByText(/plus the 45-day extension made on Nov 30, 2026/)).toBeInTheDocument();
  });

  it('an unknown id says so; a failed read offers Try again', async () => {
    const fake = createFakeServer({
      'GET /api/privacy-requests/dsr_gone': [404, { detail: 'Not found.' }],
      'GET /api/privacy-requests/dsr_err': [500, { detail: 'boom' }],
    });
    renderApp('/settings/privacy-requests/dsr_gone', { initialData: signedIn(), server: fake });
    expect(await screen.findByText('No such privacy request')).toBeInTheDocument();
    renderApp('/settings/privacy-requests/dsr_err', { initialData: signedIn(), server: fake });
    expect(
      await screen.findByText('The privacy request could not be loaded', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });
});

describe('the receipt', () => {
  it('is nothing until answered', () => {
    expect(privacyRequestReceipt(makeRequest('dsr_a'))).toBeNull();
  });
});
