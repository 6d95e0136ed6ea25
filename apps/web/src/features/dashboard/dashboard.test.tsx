import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LookupSummary, VerificationReport, VerifyForm } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';
import { chartName, chartTableName } from './components/PerDayChart';

const ada = makeUser();
const owner = makeMembership();
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });

type Funnel = VerificationReport['funnel'];

const noFunnel: Funnel = {
  pageOpened: 0,
  pageOpenedUnavailable: null,
  codeRequested: 0,
  delivered: 0,
  codeEntered: 0,
  verified: 0,
  codesSent: 0,
  conversionRate: null,
  byChannel: [
    { channel: 'sms', codeRequested: 0, delivered: 0, codeEntered: 0, verified: 0 },
    { channel: 'email', codeRequested: 0, delivered: 0, codeEntered: 0, verified: 0 },
  ],
  byForm: [],
  topFailureReasons: [],
};

function makeFunnel(over: Partial<Funnel> = {}): Funnel {
  return {
    pageOpened: 2500,
    pageOpenedUnavailable: null,
    codeRequested: 2000,
    delivered: 1800,
    codeEntered: 1500,
    verified: 1234,
    codesSent: 2000,
    conversionRate: 0.617,
    byChannel: [
      { channel: 'sms', codeRequested: 1600, delivered: 1450, codeEntered: 1200, verified: 1000 },
      { channel: 'email', codeRequested: 400, delivered: 350, codeEntered: 300, verified: 234 },
    ],
    byForm: [],
    topFailureReasons: [
      {
        errorCode: '30007',
        channel: 'sms',
        count: 120,
        reason: { reason: 'Blocked by the carrier’s filter.', nextStep: 'Try e-mail instead.' },
      },
      {
        errorCode: '550',
        channel: 'email',
        count: 30,
        reason: {
          reason: 'The mail server refused the address for good.',
          nextStep: 'Check the address, or use SMS.',
        },
      },
      { errorCode: null, channel: 'sms', count: 5, reason: null },
    ],
    ...over,
  };
}

function makeReport(over: Partial<VerificationReport> = {}): VerificationReport {
  return {
    range: { gte: '2026-11-16', lte: '2026-11-22', tz: 'America/New_York' },
    totals: { verifications: 1234, sms: 1000, email: 234 },
    perDay: [
      { date: '2026-11-20', sms: 3, email: 1 },
      { date: '2026-11-21', sms: 0, email: 0 },
      { date: '2026-11-22', sms: 5, email: 2 },
    ],
    byForm: [
      { verifyFormId: 7, verifyFormName: 'Loan application', verifications: 900 },
      { verifyFormId: 8, verifyFormName: 'Payments check', verifications: 334 },
    ],
    byCategory: [
      { category: 'Lending', verifications: 900 },
      { category: '', verifications: 334 },
    ],
    funnel: makeFunnel(),
    ...over,
  };
}

const emptyReport = makeReport({
  totals: { verifications: 0, sms: 0, email: 0 },
  perDay: [{ date: '2026-11-22', sms: 0, email: 0 }],
  byForm: [],
  byCategory: [],
  funnel: noFunnel,
});

function makeForm(over: Partial<VerifyForm> = {}): VerifyForm {
  return {
    id: 7,
    publicId: 'pub-7',
    name: 'Loan application',
    account: 21,
    isLive: true,
    language: 'en',
    category: 'Lending',
    created: '2026-01-05T10:00:00Z',
    bannerImage: null,
    publicUrl: '/f/pub-7',
    ...over,
  };
}

const list = <T,>(results: T[]) => ({ count: results.length, pageNumber: 1, pageSize: 100, results });

const noLookups: LookupSummary = {
  range: { gte: '2026-11-16', lte: '2026-11-22', tz: 'America/New_York' },
  lineType: { asked: 0, failed: 0, byType: [] },
  simSwap: { asked: 0, failed: 0, withinWindow: 0, outsideWindow: 0, noData: 0 },
  reassigned: { asked: 0, failed: 0, yes: 0, no: 0, noData: 0 },
};

function server(
  report: VerificationReport | ((url: URL) => VerificationReport) = makeReport(),
  lookups: LookupSummary = noLookups,
) {
  return createFakeServer({
    'GET /api/verifications/report': ({ url }) => [200, typeof report === 'function' ? report(url) : report],
    'GET /api/lookups/summary': [200, lookups],
    'GET /api/verify-forms': [200, list([makeForm()])],
    'GET /api/verify-forms/categories': [200, { results: ['Lending'] }],
    'GET /api/revocations/counts': [200, { open: 3, overdue: 1, possible: 2 }],
  });
}

// Several requests and a lazily loaded chart in a row: on a busy machine that takes longer than findBy's 1 s.
const SLOW = 5_000;

const findChart = () => screen.findByRole('img', { name: chartName }, { timeout: SLOW });

/** The value a description list gives a label ("Codes sent" → "2,000"). */
function stat(label: string): string | null {
  const totals = screen.getByRole('region', { name: 'Totals' });
  const term = within(totals).getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? null;
}

describe('/dashboard/', () => {
  it('counts the revocations waiting on the customer, overdue in red, linking to what needs doing', async () => {
    renderApp('/dashboard/', { initialData: signedIn(), server: server() });
    const card = await screen.findByRole('region', { name: 'Revocations of consent' }, { timeout: SLOW });
    const value = (label: string) =>
      within(card).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent ?? null;
    await waitFor(() => expect(value('Overdue')).toBe('1'));
    expect(value('Open')).toBe('3');
    expect(value('Awaiting decision')).toBe('2');
    const link = within(card).getByRole('link', { name: 'Review revocations' });
    expect(link.getAttribute('href')).toContain('/activity-log/revocations');
    expect(link.getAttribute('href')).toContain('status=overdue');
  });

  it('shows no revocations card to a member who may not read them', async () => {
    const reader = makeMembership({ role: 'member', canSearchData: false, canViewReports: true });
    const fake = server();
    renderApp('/dashboard/', { initialData: signedIn(reader), server: fake });
    await findChart();
    expect(screen.queryByRole('region', { name: 'Revocations of consent' })).toBeNull();
    expect(fake.calls('GET /api/revocations/counts')).toHaveLength(0);
  });

  it('shows the report: totals, chart with its data table, top forms, categories, funnel and active forms', async () => {
    const fake = server();
    renderApp('/dashboard/', { initialData: signedIn(), server: fake });

    expect(
      await screen.findByRole('heading', { name: 'Dashboard', level: 1 }, { timeout: SLOW }),
    ).toBeInTheDocument();
    await findChart();
    expect(stat('Verifications')).toBe('1,234');
    expect(stat('By SMS')).toBe('1,000');
    expect(stat('By e-mail')).toBe('234');
    expect(stat('Codes sent')).toBe('2,000');
    expect(stat('Conversion rate')).toBe('61.7%');

    // The chart's numbers for screen readers: one row per day, SMS, e-mail and total.
    const table = screen.getByRole('table', { name: chartTableName });
    const row = within(table).getByRole('row', { name: /Nov 22, 2026/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['5', '2', '7']);
    expect(screen.getByText(/11 verifications from Nov 20, 2026 to Nov 22, 2026/)).toBeInTheDocument();

    const topForms = screen.getByRole('list', { name: 'Top forms' });
    expect(within(topForms).getByRole('link', { name: 'Loan application' })).toHaveAttribute(
      'href',
      '/forms/7',
    );
    expect(within(topForms).getByText('900')).toBeInTheDocument();
    const categories = screen.getByRole('list', { name: 'Categories' });
    expect(within(categories).getByText('Uncategorized')).toBeInTheDocument();

    const funnel = screen.getByRole('region', { name: 'Funnel' });
    expect(within(funnel).getByText('Conversion rate:', { exact: false })).toHaveTextContent('61.7%');

    const active = await screen.findByRole('list', { name: 'Active forms' }, { timeout: SLOW });
    expect(within(active).getByRole('link', { name: 'Loan application' })).toHaveAttribute(
      'href',
      '/forms/7',
    );

    // The report call: the account, the default preset and the browser's zone; the forms call asks for live ones.
    const [call] = fake.calls('GET /api/verifications/report');
    expect(Object.fromEntries(call?.url.searchParams ?? [])).toMatchObject({
      account: '21',
      created__date__preset: 'last7d',
      tz: expect.any(String),
    });
    const formCalls = fake.calls('GET /api/verify-forms').map((c) => Object.fromEntries(c.url.searchParams));
    expect(formCalls).toContainEqual(expect.objectContaining({ isLive: 'true', status: 'active' }));
  });

  it('counts the carrier lookups asked in the same dates and their answers, per kind', async () => {
    const fake = server(makeReport(), {
      ...noLookups,
      lineType: {
        asked: 9,
        failed: 1,
        byType: [
          { lineType: 'mobile', count: 6 },
          { lineType: 'no_data', count: 2 },
        ],
      },
      simSwap: { asked: 4, failed: 0, withinWindow: 1, outsideWindow: 3, noData: 0 },
      reassigned: { asked: 1_250, failed: 0, yes: 12, no: 1_200, noData: 38 },
    });
    renderApp('/dashboard/', { initialData: signedIn(), server: fake });
    const panel = await screen.findByRole('region', { name: 'Carrier lookups' }, { timeout: SLOW });

    const lineType = within(panel).getByRole('region', { name: 'Line type lookups' });
    expect(lineType).toHaveTextContent('9 lookups asked, 1 without an answer');
    const types = within(lineType).getByRole('list', { name: 'Line type answers' });
    expect(
      within(types)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Mobile6', 'No data2']);

    const swaps = within(panel).getByRole('list', { name: 'SIM swap answers' });
    expect(
      within(swaps)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['No recent swap3', 'Recent swap (flagged)1']);
    const reassigned = within(panel).getByRole('region', { name: 'Reassigned numbers lookups' });
    expect(reassigned).toHaveTextContent('1,250 lookups asked');
    expect(
      within(within(reassigned).getByRole('list'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Not reassigned1,200', 'No data (never read as not reassigned)38', 'Reassigned12']);

    // The report's dates only: the account, the preset and the zone.
    const [call] = fake.calls('GET /api/lookups/summary');
    expect(Object.fromEntries(call?.url.searchParams ?? [])).toEqual({
      account: '21',
      created__date__preset: 'last7d',
      tz: expect.any(String),
    });
  });

  it('shows no carrier lookups panel when the dates hold none (lookups are off until an owner turns them on)', async () => {
    const fake = server();
    renderApp('/dashboard/', { initialData: signedIn(), server: fake });
    await findChart();
    await waitFor(() => expect(fake.calls('GET /api/lookups/summary')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'Carrier lookups' })).toBeNull();
  });

  it('a failed count of the carrier lookups says so below the report, with Try again', async () => {
    const user = userEvent.setup();
    let fail = true;
    const fake = server();
    // A 4xx: the query client retries 5xx answers with backoff, which would only slow this test down.
    fake.on('GET /api/lookups/summary', () =>
      fail
        ? [400, { nonFieldErrors: ['The count is not available right now.'] }]
        : [200, { ...noLookups, reassigned: { asked: 2, failed: 0, yes: 1, no: 1, noData: 0 } }],
    );
    renderApp('/dashboard/', { initialData: signedIn(), server: fake });
    await findChart();
    const alert = await screen.findByRole('alert', {}, { timeout: SLOW });
    expect(alert).toHaveTextContent('The carrier lookups could not be counted');
    expect(alert).toHaveTextContent('The count is not available right now.');
    // The report itself stands.
    expect(stat('Verifications')).toBe('1,234');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    const panel = await screen.findByRole('region', { name: 'Carrier lookups' });
    expect(within(panel).getByText('2 lookups asked')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('the funnel: five steps with counts and step-to-step rates, a channel switch, and the top failure reasons', async () => {
    const user = userEvent.setup();
    renderApp('/dashboard/', { initialData: signedIn(), server: server() });
    await findChart();
    const funnel = screen.getByRole('region', { name: 'Funnel' });
    const stepTexts = () =>
      within(within(funnel).getByRole('list', { name: 'Funnel steps' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent);
    expect(stepTexts()).toEqual([
      'Page opened2,500',
      'Code requested2,00080% of the step before',
      'Delivered1,80090% of the step before',
      'Code entered1,50083.3% of the step before',
      'Verified1,23482.3% of the step before',
    ]);
    const reasons = within(funnel).getByRole('list', { name: 'Top failure reasons' });
    expect(
      within(reasons)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Blocked by the carrier’s filter.120SMS · error 30007 · Try e-mail instead.',
      'The mail server refused the address for good.30E-mail · error 550 · Check the address, or use SMS.',
      'Not delivered (no error code given).5SMS',
    ]);

    // One channel: its own line; page views know no channel; only its failures.
    await user.click(within(funnel).getByRole('radio', { name: 'E-mail' }));
    expect(stepTexts()).toEqual([
      'Page opened—Not counted by channel',
      'Code requested400',
      'Delivered35087.5% of the step before',
      'Code entered30085.7% of the step before',
      'Verified23478% of the step before',
    ]);
    expect(within(funnel).getByText('Conversion rate:', { exact: false })).toHaveTextContent('58.5%');
    expect(within(reasons).getAllByRole('listitem')).toHaveLength(1);
    await user.click(within(funnel).getByRole('radio', { name: 'All' }));
    expect(stepTexts()[0]).toBe('Page opened2,500');
  });

  it('a channel filter: the funnel says page views are not counted by channel; no failures: says so', async () => {
    renderApp('/dashboard/?verificationMethod__in=sms', {
      initialData: signedIn(),
      server: server(
        makeReport({
          funnel: makeFunnel({ pageOpened: null, pageOpenedUnavailable: 'channel', topFailureReasons: [] }),
        }),
      ),
    });
    await findChart();
    const funnel = screen.getByRole('region', { name: 'Funnel' });
    const first = within(within(funnel).getByRole('list', { name: 'Funnel steps' })).getAllByRole(
      'listitem',
    )[0];
    expect(first).toHaveTextContent('Page opened—Not counted by channel');
    expect(within(funnel).getByText('No failed deliveries in this range.')).toBeInTheDocument();
  });

  it('shows "—" for the conversion rate when no code was sent', async () => {
    renderApp('/dashboard/', {
      initialData: signedIn(),
      server: server(
        makeReport({
          totals: { verifications: 2, sms: 2, email: 0 },
          funnel: noFunnel,
        }),
      ),
    });
    await findChart();
    expect(stat('Conversion rate')).toBe('—');
    expect(screen.getByText('(no codes were sent)', { exact: false })).toBeInTheDocument();
  });

  it('a new account (nothing in a year) gets the first steps instead of zeros', async () => {
    const fake = server(emptyReport);
    renderApp('/dashboard/', { initialData: signedIn(), server: fake });
    expect(
      await screen.findByRole('heading', { name: 'No verifications yet' }, { timeout: SLOW }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Forms' })).toHaveAttribute('href', '/forms/');
    expect(screen.queryByRole('region', { name: 'Totals' })).not.toBeInTheDocument();
    // The account's history was asked for: the last year (366 local days, today included), no other filter.
    const history = fake
      .calls('GET /api/verifications/report')
      .map((c) => Object.fromEntries(c.url.searchParams))
      .find((p) => p.created__date__preset === 'custom');
    const days =
      (Date.parse(`${history?.created__date__lte}T00:00:00Z`) -
        Date.parse(`${history?.created__date__gte}T00:00:00Z`)) /
        86_400_000 +
      1;
    expect(days).toBe(366);
    expect(history?.verifyFormId__in).toBeUndefined();
  });

  it('a quiet range of an account with history shows zeros, not the first steps', async () => {
    renderApp('/dashboard/', {
      initialData: signedIn(),
      server: server((url) =>
        url.searchParams.get('created__date__preset') === 'custom' ? makeReport() : emptyReport,
      ),
    });
    await findChart();
    expect(stat('Verifications')).toBe('0');
    expect(stat('Conversion rate')).toBe('—');
    expect(screen.queryByRole('heading', { name: 'No verifications yet' })).not.toBeInTheDocument();
  });

  it('a failed report shows the error with Try again, which loads it again', async () => {
    const user = userEvent.setup();
    let fail = true;
    const fake = createFakeServer({
      // A 4xx: the query client retries 5xx answers with backoff, which would only slow this test down.
      'GET /api/verifications/report': () =>
        fail ? [400, { nonFieldErrors: ['The report is not available right now.'] }] : [200, makeReport()],
      'GET /api/verify-forms': [200, list([makeForm()])],
      'GET /api/verify-forms/categories': [200, { results: [] }],
      'GET /api/revocations/counts': [200, { open: 0, overdue: 0, possible: 0 }],
    });
    renderApp('/dashboard/', { initialData: signedIn(), server: fake });
    const alert = await screen.findByRole('alert', {}, { timeout: SLOW });
    expect(alert).toHaveTextContent('The report could not be loaded');
    expect(alert).toHaveTextContent('The report is not available right now.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await findChart();
    expect(stat('Verifications')).toBe('1,234');
  });

  it('a member without report rights gets the 403 screen and no report call', async () => {
    const member = makeMembership({ role: 'member', canViewReports: false, canSearchData: true });
    const fake = server();
    renderApp('/dashboard/', { initialData: signedIn(member), server: fake });
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Sorry, you do not have access to this page.' },
        { timeout: SLOW },
      ),
    ).toBeInTheDocument();
    expect(fake.calls('GET /api/verifications/report')).toHaveLength(0);
  });

  it('the date preset writes to the URL and reaches the API', async () => {
    const user = userEvent.setup();
    const fake = server();
    const { router } = renderApp('/dashboard/', { initialData: signedIn(), server: fake });
    await findChart();

    const preset = screen.getByRole('combobox', { name: 'Created' });
    expect(preset).toHaveValue('Last 7 days');
    await user.click(preset);
    // Only the dashboard's presets are offered.
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(expect.arrayContaining(['Last 7 days', 'Last 30 days', 'Custom range']));
    expect(options).not.toContain('All time');
    await user.click(screen.getByRole('option', { name: 'Last 30 days' }));

    await waitFor(() =>
      expect(router.state.location.search).toMatchObject({ created__date__preset: 'last30d' }),
    );
    await waitFor(() => {
      const last = fake.calls('GET /api/verifications/report').at(-1);
      expect(last?.url.searchParams.get('created__date__preset')).toBe('last30d');
    });
  });

  it('a hand-written link keeps its form and phone filters (values the router reads as numbers)', async () => {
    const fake = server();
    renderApp('/dashboard/?verifyFormId__in=7&q=5550123&created__date__preset=last30d', {
      initialData: signedIn(),
      server: fake,
    });
    await findChart();
    const params = Object.fromEntries(fake.calls('GET /api/verifications/report')[0]?.url.searchParams ?? []);
    expect(params).toMatchObject({ verifyFormId__in: '7', q: '5550123', created__date__preset: 'last30d' });
  });

  it('the totals link to the activity log with the same filters, the preset written out', async () => {
    renderApp('/dashboard/?verificationMethod__in=sms', { initialData: signedIn(), server: server() });
    await findChart();
    const link = screen.getByRole('link', { name: 'See these verifications in the activity log' });
    const href = new URL(link.getAttribute('href') ?? '', 'http://localhost');
    expect(href.pathname).toBe('/activity-log/');
    expect(href.searchParams.get('created__date__preset')).toBe('last7d');
    expect(href.searchParams.get('verificationMethod__in')).toContain('sms');
  });

  it('the Source filter (shared with the activity log) reaches the report and the link to the log', async () => {
    const user = userEvent.setup();
    const fake = server();
    const { router } = renderApp('/dashboard/', { initialData: signedIn(), server: fake });
    await findChart();
    expect(fake.calls('GET /api/verifications/report')[0]?.url.searchParams.has('source')).toBe(false);
    await user.click(screen.getByRole('combobox', { name: 'Source' }));
    await user.click(await screen.findByRole('option', { name: 'API' }));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ source: 'api' }));
    await waitFor(() => {
      const last = fake.calls('GET /api/verifications/report').at(-1);
      expect(last?.url.searchParams.get('source')).toBe('api');
    });
    const link = screen.getByRole('link', { name: 'See these verifications in the activity log' });
    expect(new URL(link.getAttribute('href') ?? '', 'http://localhost').searchParams.get('source')).toBe(
      'api',
    );
  });

  it('a preset the dashboard does not offer falls back to last 7 days', async () => {
    const fake = server();
    renderApp('/dashboard/?created__date__preset=all', { initialData: signedIn(), server: fake });
    await findChart();
    expect(
      fake.calls('GET /api/verifications/report')[0]?.url.searchParams.get('created__date__preset'),
    ).toBe('last7d');
  });
});
