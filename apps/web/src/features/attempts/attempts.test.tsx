import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { VerificationAttempt } from '@veriform/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';

const ada = makeUser();
const owner = makeMembership();
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });

const unreachable = {
  reason: 'Unreachable: the phone may be off or out of coverage.',
  nextStep: 'Ask the person to try again later or use e-mail.',
};

function makeAttempt(n: number, over: Partial<VerificationAttempt> = {}): VerificationAttempt {
  return {
    id: `att${String(n).padStart(4, '0')}`,
    created: '2026-01-05T10:00:00Z',
    cellPhone: `+1201555${String(n).padStart(4, '0')}`,
    email: null,
    externalRefId: `CRM-${n}`,
    verifyFormId: 7,
    verifyFormName: 'Onboarding check',
    channel: 'sms',
    source: 'hosted',
    isTest: false,
    status: 'pending',
    deliveryStatus: 'delivered',
    deliveryErrorCode: null,
    deliveryReason: null,
    providerMessageId: `SM${n}`,
    events: [],
    codesEntered: 0,
    verified: false,
    verificationId: null,
    ...over,
  };
}

/** Three attempts: one verified, one undelivered (30003), one e-mail still queued. */
const three = [
  makeAttempt(1, { status: 'verified', verified: true, verificationId: 501, codesEntered: 2 }),
  makeAttempt(2, {
    deliveryStatus: 'undelivered',
    deliveryErrorCode: '30003',
    deliveryReason: unreachable,
    status: 'expired',
    isTest: true,
  }),
  makeAttempt(3, { channel: 'email', email: 'ada@example.com', deliveryStatus: 'queued' }),
];

function server(results: VerificationAttempt[] = three, count = results.length) {
  return createFakeServer({
    'GET /api/verification-attempts': ({ url }) => [
      200,
      {
        count,
        pageNumber: Number(url.searchParams.get('pageNumber') ?? 1),
        pageSize: Number(url.searchParams.get('pageSize') ?? 25),
        results,
      },
    ],
    'GET /api/verify-forms': [200, { count: 0, pageNumber: 1, pageSize: 100, results: [] }],
    'GET /api/verify-forms/categories': [200, { results: ['Onboarding'] }],
  });
}

function lastListParams(fake: ReturnType<typeof server>) {
  return Object.fromEntries(fake.calls('GET /api/verification-attempts').at(-1)?.url.searchParams ?? []);
}

function rowOf(table: HTMLElement, text: string): HTMLElement {
  return within(table).getByText(text).closest('tr') as HTMLElement;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/activity-log/attempts', { timeout: 20_000 }, () => {
  it('lists every code sent with its delivery status, reason, channel and verification', async () => {
    const fake = server();
    renderApp('/activity-log/attempts', { initialData: signedIn(), server: fake });
    const table = await screen.findByRole('table', { name: 'Codes sent' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
      'Created',
      'Cell phone',
      'Form',
      'Channel',
      'Delivery status',
      'Reason',
      'Codes entered',
      'Verified',
    ]);
    expect(within(table).getAllByRole('row')).toHaveLength(4);

    const verified = rowOf(table, '+1 (201) 555-0001');
    expect(within(verified).getByText('Delivered')).toBeInTheDocument();
    expect(within(verified).getByText('2')).toBeInTheDocument();
    const link = within(verified).getByRole('link', { name: /Verified/ });
    expect(link.getAttribute('href')).toMatch(/^\/activity-log\/501(\?|$)/);

    const undelivered = rowOf(table, '+1 (201) 555-0002');
    expect(within(undelivered).getByText('Undelivered')).toBeInTheDocument();
    expect(within(undelivered).getByText(unreachable.reason)).toBeInTheDocument();
    expect(within(undelivered).getByText(`${unreachable.nextStep} (error 30003)`)).toBeInTheDocument();
    expect(within(undelivered).getByText('Test')).toBeInTheDocument();
    expect(within(undelivered).getByText('No: expired')).toBeInTheDocument();
    expect(within(undelivered).queryByRole('link')).toBeNull();

    const email = rowOf(table, '+1 (201) 555-0003');
    expect(within(email).getByText('Queued')).toBeInTheDocument();
    expect(within(email).getByText('E-mail')).toBeInTheDocument();
    expect(within(email).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(email).getByText('Not yet')).toBeInTheDocument();

    expect(screen.getByText('Showing 1–3 of 3')).toBeInTheDocument();
    expect(lastListParams(fake)).toMatchObject({ account: '21', pageNumber: '1', pageSize: '25' });
  });

  it('the tabs: Attempts is the current view, Verifications links back with the shared filters', async () => {
    const user = userEvent.setup();
    const fake = server();
    const { router } = renderApp('/activity-log/attempts?q=CRM&deliveryStatus=failed&pageNumber=2', {
      initialData: signedIn(),
      server: fake,
    });
    await screen.findByRole('table', { name: 'Codes sent' });
    const nav = screen.getByRole('navigation', { name: 'Activity log views' });
    expect(within(nav).getByRole('link', { name: 'Attempts' })).toHaveAttribute('aria-current', 'page');
    const back = within(nav).getByRole('link', { name: 'Verifications' });
    expect(back).not.toHaveAttribute('aria-current');
    // The search text is the log's too; the delivery status and the page are the attempts' own.
    expect(back.getAttribute('href')).toBe('/activity-log/?q=CRM');

    await user.click(back);
    await waitFor(() => expect(router.state.location.pathname).toBe('/activity-log/'));
    await waitFor(() => expect(router.state.location.search).toEqual({ q: 'CRM' }));
    const tabs = screen.getByRole('navigation', { name: 'Activity log views' });
    expect(within(tabs).getByRole('link', { name: 'Verifications' })).toHaveAttribute('aria-current', 'page');
    expect(within(tabs).getByRole('link', { name: 'Attempts' })).not.toHaveAttribute('aria-current');
  });

  it('the Delivery status filter goes to the URL and the API, and back to page 1', async () => {
    const user = userEvent.setup();
    const fake = server();
    const { router } = renderApp('/activity-log/attempts?pageNumber=3', {
      initialData: signedIn(),
      server: fake,
    });
    await screen.findByRole('table', { name: 'Codes sent' });
    expect(lastListParams(fake).deliveryStatus).toBeUndefined();
    const search = screen.getByRole('search', { name: 'Filter codes sent' });
    const status = within(search).getByRole('combobox', { name: 'Delivery status' });

    await user.click(status);
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'Queued',
      'Sent',
      'Delivered',
      'Undelivered',
      'Failed',
      'Unknown',
    ]);
    await user.click(screen.getByRole('option', { name: 'Undelivered' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ deliveryStatus: ['undelivered'] }));
    await waitFor(() =>
      expect(lastListParams(fake)).toMatchObject({ deliveryStatus: 'undelivered', pageNumber: '1' }),
    );

    await user.click(screen.getByRole('option', { name: 'Failed' }));
    await waitFor(() => expect(lastListParams(fake).deliveryStatus).toBe('undelivered,failed'));

    // The log's own filters still work here (the shared bar).
    await user.type(within(search).getByRole('searchbox', { name: 'Search' }), '0002');
    await waitFor(() => expect(lastListParams(fake)).toMatchObject({ q: '0002' }));
  });

  it('a shared link with statuses opens filtered (comma list or the router’s list, junk dropped)', async () => {
    const fake = server();
    renderApp('/activity-log/attempts?deliveryStatus=failed,bogus,undelivered', {
      initialData: signedIn(),
      server: fake,
    });
    await screen.findByRole('table', { name: 'Codes sent' });
    // In the order a message goes through them.
    expect(lastListParams(fake).deliveryStatus).toBe('undelivered,failed');
  });

  it('filters that match nothing say so and offer Clear filters, which empties the URL', async () => {
    const user = userEvent.setup();
    const fake = server([]);
    const { router } = renderApp('/activity-log/attempts?deliveryStatus=failed&source=api', {
      initialData: signedIn(),
      server: fake,
    });
    expect(await screen.findByText('No codes sent match these filters')).toBeInTheDocument();
    expect(screen.getByRole('search', { name: 'Filter codes sent' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.searchStr).toBe(''));
    await waitFor(() => expect(lastListParams(fake).deliveryStatus).toBeUndefined());
  });

  it('an account that never sent a code sees what the view is for, without filters or export', async () => {
    renderApp('/activity-log/attempts', { initialData: signedIn(), server: server([]) });
    expect(await screen.findByText('No codes sent yet')).toBeInTheDocument();
    expect(screen.queryByRole('search')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
    // The tabs stay: the verifications may be there.
    expect(screen.getByRole('link', { name: 'Verifications' })).toBeInTheDocument();
  });

  it('an error offers Try again', async () => {
    const user = userEvent.setup();
    let fail = true;
    const fake = server();
    fake.on('GET /api/verification-attempts', () =>
      // 418: not retried, so the test does not wait for back-off.
      fail
        ? [418, { detail: 'Boom' }]
        : [200, { count: 1, pageNumber: 1, pageSize: 25, results: [three[1]] }],
    );
    renderApp('/activity-log/attempts', { initialData: signedIn(), server: fake });
    expect(
      await screen.findByText('The codes sent could not be loaded', {}, { timeout: 4000 }),
    ).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(unreachable.reason)).toBeInTheDocument();
  });

  it('pages go to the URL and the API', async () => {
    const user = userEvent.setup();
    const fake = server(three, 60);
    const { router } = renderApp('/activity-log/attempts', { initialData: signedIn(), server: fake });
    await screen.findByRole('table', { name: 'Codes sent' });
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ pageNumber: 2 }));
    await waitFor(() => expect(lastListParams(fake).pageNumber).toBe('2'));
  });

  it('on a small screen: a card per code sent with every field', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.startsWith('not all and (min-width'),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }));
    renderApp('/activity-log/attempts', { initialData: signedIn(), server: server() });
    const list = await screen.findByRole('list', { name: 'Codes sent' });
    expect(screen.queryByRole('table', { name: 'Codes sent' })).toBeNull();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    const card = cards[1] as HTMLElement;
    expect(within(card).getByText('+1 (201) 555-0002')).toBeInTheDocument();
    expect(within(card).getByText('Undelivered')).toBeInTheDocument();
    for (const label of ['Created', 'Channel', 'Form', 'Codes entered', 'Verified', 'Reason'])
      expect(within(card).getByText(label).tagName).toBe('DT');
    expect(within(card).getByText(unreachable.reason)).toBeInTheDocument();
    expect(within(cards[0] as HTMLElement).getByRole('link', { name: /Verified/ })).toBeInTheDocument();
  });

  it('without canSearchData: the 403 screen and no call', async () => {
    const fake = server();
    renderApp('/activity-log/attempts', {
      initialData: signedIn(makeMembership({ role: 'member', canSearchData: false })),
      server: fake,
    });
    expect(await screen.findByText('Sorry, you do not have access to this page.')).toBeInTheDocument();
    expect(fake.calls('GET /api/verification-attempts')).toHaveLength(0);
  });
});

describe('Export CSV of the attempts', { timeout: 20_000 }, () => {
  it('exports the current filters (not the page) from the attempts’ endpoint and saves the file', async () => {
    const user = userEvent.setup();
    const exportCalls: URL[] = [];
    vi.stubGlobal('fetch', async (input: string) => {
      exportCalls.push(new URL(input, 'http://localhost'));
      return new Response('Created,Cell phone\r\n2026-01-05,+12015550002\r\n', {
        status: 200,
        headers: {
          'Content-Type': 'text/csv',
          'Content-Disposition': 'attachment; filename="attempts.csv"',
          'X-Total-Count': '1',
        },
      });
    });
    const saved: { filename?: string } = {};
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:export');
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.filename = this.download;
    });
    renderApp('/activity-log/attempts?deliveryStatus=undelivered&pageNumber=2&q=555', {
      initialData: signedIn(),
      server: server(),
    });
    await screen.findByRole('table', { name: 'Codes sent' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved.filename).toBe('attempts.csv'));
    const url = exportCalls.at(-1);
    expect(url?.pathname).toBe('/api/verification-attempts/export-csv');
    expect(Object.fromEntries(url?.searchParams ?? [])).toMatchObject({
      account: '21',
      deliveryStatus: 'undelivered',
      q: '555',
    });
    expect(url?.searchParams.has('pageNumber')).toBe(false);
    expect(url?.searchParams.get('tz')).toBeTruthy();
  });
});
