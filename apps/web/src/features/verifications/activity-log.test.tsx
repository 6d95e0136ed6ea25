import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Verification, VerificationDetail } from '@veriform/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';

const ada = makeUser();
const owner = makeMembership();
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });

function makeVerification(id: number, over: Partial<Verification> = {}): Verification {
  return {
    id,
    cellPhone: `+1201555${String(id).padStart(4, '0')}`,
    externalRefId: `CRM-${id}`,
    verifyFormId: 7,
    verifyFormName: 'Onboarding check',
    verifyFormCategory: 'Onboarding',
    verificationMethod: id % 2 ? 'sms' : 'email',
    isTest: id === 1,
    // Every third one came through API v1.
    source: id % 3 === 0 ? 'api' : 'hosted',
    created: '2026-01-05T10:00:00Z',
    revokedAt: null,
    revocationId: null,
    ...over,
  };
}

/** A log of `count` verifications, paged as the server pages them. */
function server(count = 1234, extra: Parameters<typeof createFakeServer>[0] = {}) {
  return createFakeServer({
    'GET /api/verifications': ({ url }) => {
      const pageNumber = Number(url.searchParams.get('pageNumber') ?? 1);
      const pageSize = Number(url.searchParams.get('pageSize') ?? 10);
      const first = (pageNumber - 1) * pageSize + 1;
      const last = Math.min(count, first + pageSize - 1);
      const results = [];
      for (let id = first; id <= last; id++) results.push(makeVerification(id));
      return [200, { count, pageNumber, pageSize, results }];
    },
    'GET /api/verify-forms': [200, { count: 0, pageNumber: 1, pageSize: 100, results: [] }],
    'GET /api/verify-forms/categories': [200, { results: ['Onboarding'] }],
    ...extra,
  });
}

function lastListParams(fake: ReturnType<typeof server>) {
  return Object.fromEntries(fake.calls('GET /api/verifications').at(-1)?.url.searchParams ?? []);
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/activity-log/', { timeout: 20_000 }, () => {
  it('asks for live data by default; "View test data" asks for test data, keeps it in the link and says so', async () => {
    const fake = server(3);
    const { router } = renderApp('/activity-log/', { initialData: signedIn(), server: fake });
    await screen.findByText('CRM-2');
    // Live is the server's default: the list call names no mode, and no banner shows.
    expect(lastListParams(fake).mode).toBeUndefined();
    expect(screen.queryByText('Viewing test data')).toBeNull();

    await userEvent.click(screen.getByRole('switch', { name: 'View test data' }));
    await waitFor(() => expect(lastListParams(fake).mode).toBe('test'));
    expect(router.state.location.search).toMatchObject({ mode: 'test' });
    expect(await screen.findByText('Viewing test data')).toBeVisible();
    expect(screen.getByRole('switch', { name: 'View test data' })).toBeChecked();

    // Back to live data (its page is still cached: no new call), the link without the mode.
    await userEvent.click(screen.getByRole('switch', { name: 'View test data' }));
    await waitFor(() => expect(screen.queryByText('Viewing test data')).toBeNull());
    expect(router.state.location.href).not.toContain('mode=');
    expect(screen.getByRole('switch', { name: 'View test data' })).not.toBeChecked();
  });

  it('lists verifications with the spec’s columns, rows linking to the detail with the same search', async () => {
    const fake = server();
    renderApp('/activity-log/?q=CRM&pageNumber=2', { initialData: signedIn(), server: fake });
    const table = await screen.findByRole('table', { name: 'Verifications' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headers).toEqual([
      'Cell phone',
      'External ref',
      'Form ID',
      'Form',
      'Category',
      'Method',
      'Source',
      'Created',
    ]);
    expect(screen.getByText('Showing 11–20 of 1,234')).toBeInTheDocument();
    const cells = (name: string) =>
      within(within(table).getByRole('link', { name }).closest('tr') as HTMLElement)
        .getAllByRole('cell')
        .map((td) => td.textContent);
    expect(cells('+1 (201) 555-0012')).toContain('API');
    expect(cells('+1 (201) 555-0011')).toContain('Hosted page');
    const link = within(table).getByRole('link', { name: '+1 (201) 555-0011' });
    expect(link.getAttribute('href')).toMatch(/^\/activity-log\/11\?/);
    expect(new URLSearchParams(link.getAttribute('href')?.split('?')[1]).get('pageNumber')).toBe('2');
    expect(within(table).getByText('CRM-11')).toBeInTheDocument();
    expect(lastListParams(fake)).toMatchObject({
      account: '21',
      q: 'CRM',
      o: '-created',
      pageNumber: '2',
      pageSize: '10',
      created__date__preset: 'all',
    });
    // "All time" needs no zone; the test badge marks test numbers (row 1 is on page 1).
    expect(lastListParams(fake).tz).toBeUndefined();
  });

  it('headers sort: aria-sort on the th, a click toggles ascending/descending in `o`', async () => {
    const user = userEvent.setup();
    const fake = server();
    const { router } = renderApp('/activity-log/', { initialData: signedIn(), server: fake });
    const table = await screen.findByRole('table', { name: 'Verifications' });
    const th = (name: string) =>
      within(table)
        .getAllByRole('columnheader')
        .find((h) => h.textContent === name);
    expect(th('Created')).toHaveAttribute('aria-sort', 'descending');
    expect(th('Cell phone')).not.toHaveAttribute('aria-sort');
    expect(within(th('Method') as HTMLElement).queryByRole('button')).toBeNull();

    await user.click(within(table).getByRole('button', { name: 'Cell phone' }));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ o: 'cellPhone' }));
    await waitFor(() => expect(th('Cell phone')).toHaveAttribute('aria-sort', 'ascending'));
    expect(th('Created')).not.toHaveAttribute('aria-sort');
    await waitFor(() => expect(lastListParams(fake).o).toBe('cellPhone'));

    await user.click(within(table).getByRole('button', { name: 'Cell phone' }));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ o: '-cellPhone' }));
    await waitFor(() => expect(th('Cell phone')).toHaveAttribute('aria-sort', 'descending'));

    await user.click(within(table).getByRole('button', { name: 'Form ID' }));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ o: 'verifyFormId' }));
    await waitFor(() => expect(lastListParams(fake).o).toBe('verifyFormId'));

    await user.click(within(table).getByRole('button', { name: 'Created' }));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ o: 'created' }));
  });

  it('pages and page size go to the URL and the API', async () => {
    const user = userEvent.setup();
    const fake = server(45);
    const { router } = renderApp('/activity-log/', { initialData: signedIn(), server: fake });
    expect(await screen.findByText('Showing 1–10 of 45')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ pageNumber: 2 }));
    expect(await screen.findByText('Showing 11–20 of 45')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Showing 21–30 of 45')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Rows per page' }));
    await user.click(await screen.findByRole('option', { name: '25' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ pageSize: 25 }));
    expect(await screen.findByText('Showing 1–25 of 45')).toBeInTheDocument();
    expect(lastListParams(fake)).toMatchObject({ pageSize: '25', pageNumber: '1' });
  });

  it('keeps the previous page on screen while the next one loads', async () => {
    const user = userEvent.setup();
    const fake = server(45);
    renderApp('/activity-log/', { initialData: signedIn(), server: fake });
    await screen.findByText('Showing 1–10 of 45');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    fake.on('GET /api/verifications', async () => {
      await held;
      return [200, { count: 45, pageNumber: 2, pageSize: 10, results: [makeVerification(11)] }];
    });
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() =>
      expect(screen.getByRole('table', { name: 'Verifications' })).toHaveAttribute('aria-busy'),
    );
    expect(screen.getByText('CRM-1')).toBeInTheDocument();
    release();
    expect(await screen.findByText('CRM-11')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Verifications' })).not.toHaveAttribute('aria-busy');
  });

  it('keeps its heading, filters and Export (disabled) in place while the rows load', async () => {
    let release: () => void = () => undefined;
    const fake = server(3);
    const answer = fake.fetch;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    renderApp('/activity-log/', {
      initialData: signedIn(),
      server: {
        ...fake,
        fetch: async (input, init) => {
          if (String(input).startsWith('/api/verifications?')) await held;
          return answer(input, init);
        },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Activity Log', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('search', { name: 'Filter verifications' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    expect(screen.getByRole('table', { name: 'Loading verifications' })).toBeInTheDocument();
    release();
    expect(await screen.findByRole('table', { name: 'Verifications' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
  });

  it('on a small screen: a card per verification with every field, and a Sort by control', async () => {
    const user = userEvent.setup();
    vi.stubGlobal('matchMedia', (query: string) => ({
      // Only the compact-layout query matches (below Mantine's md breakpoint).
      matches: query.startsWith('not all and (min-width'),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }));
    const fake = server(3);
    const { router } = renderApp('/activity-log/', { initialData: signedIn(), server: fake });
    const list = await screen.findByRole('list', { name: 'Verifications' });
    expect(screen.queryByRole('table', { name: 'Verifications' })).toBeNull();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    const first = cards[0] as HTMLElement;
    expect(within(first).getByRole('link', { name: '+1 (201) 555-0001' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/activity-log\/1(\?|$)/),
    );
    for (const text of ['Test', 'CRM-1', 'Onboarding check', 'ID 7', 'Onboarding', 'SMS', 'Hosted page'])
      expect(within(first).getByText(text)).toBeInTheDocument();
    for (const label of ['External ref', 'Method', 'Form', 'Category', 'Source'])
      expect(within(first).getByText(label).tagName).toBe('DT');
    expect(within(first).getByText('Source').nextElementSibling?.textContent).toBe('Hosted page');
    expect(within(cards[2] as HTMLElement).getByText('Source').nextElementSibling?.textContent).toBe('API');

    await user.click(screen.getByRole('combobox', { name: 'Sort by' }));
    await user.click(await screen.findByRole('option', { name: 'Cell phone, ascending' }));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ o: 'cellPhone' }));
    await waitFor(() => expect(lastListParams(fake).o).toBe('cellPhone'));
  });

  it('a new account sees what the log is for, without filters or export', async () => {
    renderApp('/activity-log/', { initialData: signedIn(), server: server(0) });
    expect(await screen.findByText('No verifications yet')).toBeInTheDocument();
    expect(screen.queryByRole('search')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
  });

  it('filters that match nothing offer Clear filters, which empties the URL', async () => {
    const user = userEvent.setup();
    const fake = server(0);
    const { router } = renderApp(
      '/activity-log/?q=zzz&verificationMethod__in=sms&created__date__preset=today',
      {
        initialData: signedIn(),
        server: fake,
      },
    );
    expect(await screen.findByText('No verifications match these filters')).toBeInTheDocument();
    expect(lastListParams(fake)).toMatchObject({
      q: 'zzz',
      verificationMethod__in: 'sms',
      created__date__preset: 'today',
    });
    // A preset means local days: the browser's zone goes along.
    expect(lastListParams(fake).tz).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.searchStr).toBe(''));
  });

  it('the Source filter goes to the URL and the API, and a link with a source opens filtered', async () => {
    const user = userEvent.setup();
    const fake = server(3);
    const { router } = renderApp('/activity-log/?source=api', { initialData: signedIn(), server: fake });
    await screen.findByRole('table', { name: 'Verifications' });
    expect(lastListParams(fake).source).toBe('api');
    const select = screen.getByRole('combobox', { name: 'Source' });
    expect(select).toHaveValue('API');

    await user.click(select);
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'All',
      'API',
      'Hosted page',
    ]);
    await user.click(screen.getByRole('option', { name: 'Hosted page' }));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ source: 'hosted' }));
    await waitFor(() => expect(lastListParams(fake).source).toBe('hosted'));

    await user.click(screen.getByRole('combobox', { name: 'Source' }));
    await user.click(await screen.findByRole('option', { name: 'All' }));
    await waitFor(() => expect(router.state.location.search).not.toHaveProperty('source'));
    await waitFor(() => expect(lastListParams(fake).source).toBeUndefined());
  });

  it('a source that matches nothing counts as a filter: Clear filters drops it', async () => {
    const user = userEvent.setup();
    const fake = server(0);
    const { router } = renderApp('/activity-log/?source=api', { initialData: signedIn(), server: fake });
    expect(await screen.findByText('No verifications match these filters')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.searchStr).toBe(''));
  });

  it('a hand-written link with a form id filters by it (numbers in the URL are read as text first)', async () => {
    const fake = server(3);
    renderApp('/activity-log/?verifyFormId__in=7', { initialData: signedIn(), server: fake });
    await screen.findByRole('table', { name: 'Verifications' });
    expect(lastListParams(fake).verifyFormId__in).toBe('7');
  });

  it('bad params fall back to defaults (SPEC §5)', async () => {
    const fake = server(3);
    renderApp('/activity-log/?o=bogus&pageNumber=-2&pageSize=abc&source=fax', {
      initialData: signedIn(),
      server: fake,
    });
    await screen.findByRole('table', { name: 'Verifications' });
    expect(lastListParams(fake)).toMatchObject({ o: '-created', pageNumber: '1', pageSize: '10' });
    expect(lastListParams(fake).source).toBeUndefined();
    expect(screen.getByRole('combobox', { name: 'Source' })).toHaveValue('All');
  });

  it('an error offers Try again', async () => {
    const user = userEvent.setup();
    let fail = true;
    const fake = server(3, {
      'GET /api/verifications': () =>
        // 418: not retried (5xx are, with back-off), so the test does not wait for the retries.
        fail
          ? [418, { detail: 'Boom' }]
          : [200, { count: 1, pageNumber: 1, pageSize: 10, results: [makeVerification(5)] }],
    });
    renderApp('/activity-log/', { initialData: signedIn(), server: fake });
    // The loader's failed read is tried once more by the page (retry on mount) before the error shows.
    expect(
      await screen.findByText('The verifications could not be loaded', {}, { timeout: 4000 }),
    ).toBeInTheDocument();
    expect(screen.getByText(/Unexpected 418 response from server/)).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('CRM-5')).toBeInTheDocument();
  });

  it('without canSearchData: the 403 screen and no call', async () => {
    const fake = server();
    renderApp('/activity-log/', {
      initialData: signedIn(makeMembership({ role: 'member', canSearchData: false })),
      server: fake,
    });
    expect(await screen.findByText('Sorry, you do not have access to this page.')).toBeInTheDocument();
    expect(fake.calls('GET /api/verifications')).toHaveLength(0);
  });

  it('without a membership: No membership found', async () => {
    const { services } = renderApp('/activity-log/', { initialData: signedIn(), server: server() });
    await screen.findByRole('table', { name: 'Verifications' });
    act(() => services.session.set({ user: ada, memberships: [], currentMembership: null }));
    expect(await screen.findByText('No membership found')).toBeInTheDocument();
  });
});

describe('/activity-log/{id}', { timeout: 20_000 }, () => {
  const detail: VerificationDetail = {
    ...makeVerification(42, { verificationMethod: 'email', isTest: true }),
    email: 'ada@example.com',
    codeSentAt: '2026-01-05T09:58:00Z',
    verifiedAt: '2026-01-05T09:59:05Z',
    attempts: 2,
    ip: '203.0.113.9',
    userAgent: 'Mozilla/5.0 (iPhone)',
    consent: { versionId: 'cv_1', version: 3, language: 'es', sha256: 'ab'.repeat(32) },
    redactedAt: null,
    revocation: null,
    // No carrier lookups or reassigned-number check (issue #36).
    carrier: null,
    simSwap: null,
    reassignment: null,
    refreshes: null,
    heldBy: [],
    holds: [],
  };

  it('shows the verification and its evidence, and goes back with the same search', async () => {
    const user = userEvent.setup();
    const fake = server(1234, { 'GET /api/verifications/42': [200, detail] });
    const { router } = renderApp('/activity-log/42?q=CRM&pageNumber=3&o=cellPhone', {
      initialData: signedIn(),
      server: fake,
    });
    expect(await screen.findByRole('heading', { name: '+1 (201) 555-0042' })).toBeInTheDocument();
    expect(Object.fromEntries(fake.calls('GET /api/verifications/42')[0]?.url.searchParams ?? [])).toEqual({
      account: '21',
    });
    const value = (label: string) => screen.getByText(label).nextElementSibling?.textContent;
    expect(value('Method')).toBe('E-mail (ada@example.com)');
    expect(value('Time to verify')).toBe('1 min 5 s');
    expect(value('Attempts')).toBe('2');
    expect(value('IP address')).toBe('203.0.113.9');
    expect(value('User agent')).toBe('Mozilla/5.0 (iPhone)');
    expect(value('Consent version')).toBe('Version 3 (Spanish)');
    expect(value('Consent hash')).toBe('ab'.repeat(32));
    expect(value('External ref')).toBe('CRM-42');
    expect(value('Source')).toBe('API');
    expect(screen.getByText('Test')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Onboarding check' })).toHaveAttribute('href', '/forms/7');

    await user.click(screen.getByRole('link', { name: 'Back to Activity Log' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/activity-log/'));
    expect(router.state.location.search).toMatchObject({ q: 'CRM', pageNumber: 3, o: 'cellPhone' });
    expect(await screen.findByText('Showing 21–30 of 1,234')).toBeInTheDocument();
  });

  it('a row opens the detail', async () => {
    const user = userEvent.setup();
    const fake = server(3, { 'GET /api/verifications/2': [200, { ...detail, ...makeVerification(2) }] });
    const { router } = renderApp('/activity-log/?q=CRM', { initialData: signedIn(), server: fake });
    await user.click(await screen.findByText('CRM-2'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/activity-log/2'));
    expect(router.state.location.search).toMatchObject({ q: 'CRM' });
    expect(await screen.findByRole('heading', { name: '+1 (201) 555-0002' })).toBeInTheDocument();
  });

  it('an unknown id (404) shows the not-found screen', async () => {
    renderApp('/activity-log/999', { initialData: signedIn(), server: server() });
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
  });

  it('a malformed id shows the not-found screen without a call', async () => {
    const fake = server();
    renderApp('/activity-log/abc', { initialData: signedIn(), server: fake });
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(fake.requests.filter((r) => r.path.startsWith('/api/verifications/'))).toHaveLength(0);
  });
});
