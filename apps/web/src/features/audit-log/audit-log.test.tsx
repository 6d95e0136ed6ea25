import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuditEventListItem } from '@veriform/contracts';
import { describe, expect, it, vi } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';
import { NO_MATCH, NOTHING_RECORDED } from './components/AuditLog';

const ada = makeUser();
const owner = makeMembership();
const member = makeMembership({ role: 'member', canSearchData: true, canViewReports: true });
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });

const HASH = `a1b2c3d4e5${'0'.repeat(48)}f6e5d4`;
const PREV = 'f'.repeat(64);

function makeEvent(id: number, over: Partial<AuditEventListItem> = {}): AuditEventListItem {
  return {
    id,
    sequence: id,
    occurredAt: '2026-01-05T10:00:07Z',
    actor: { type: 'user', id: '1', name: 'ada@example.com' },
    actorUserName: 'Ada Lovelace',
    action: 'membership.permissions_changed',
    targets: [{ type: 'membership', id: '12', name: 'bob@example.com' }],
    changes: { canSearchData: [false, true] },
    ip: '203.0.113.7',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    requestId: 'req-42',
    prevHash: PREV,
    hash: HASH,
    ...over,
  };
}

const events: AuditEventListItem[] = [
  makeEvent(3),
  makeEvent(2, {
    actor: { type: 'api_key', id: '7', name: 'vf_live_AbCd' },
    actorUserName: null,
    action: 'verifications.exported',
    targets: [],
    changes: { filters: { created__date__preset: 'last7d' }, rowCount: 12 },
  }),
  makeEvent(1, {
    actor: { type: 'system', id: null, name: 'Veriform' },
    actorUserName: null,
    action: 'audit.pruned',
    targets: [{ type: 'audit_event', id: '900', name: 'Event 900' }],
    changes: null,
    ip: null,
    userAgent: null,
    requestId: null,
  }),
];

/** A log of `count` events (the three above, repeated), paged as the server pages them. */
function server(count = events.length) {
  return createFakeServer({
    'GET /api/audit-events': ({ url }) => {
      const pageNumber = Number(url.searchParams.get('pageNumber') ?? 1);
      const pageSize = Number(url.searchParams.get('pageSize') ?? 25);
      const first = (pageNumber - 1) * pageSize;
      const results = [];
      for (let i = first; i < Math.min(count, first + pageSize); i++) {
        const base = events[i % events.length] ?? makeEvent(1);
        results.push({ ...base, id: count - i, sequence: count - i });
      }
      return [200, { count, pageNumber, pageSize, results }];
    },
  });
}

function lastListParams(fake: ReturnType<typeof server>) {
  return Object.fromEntries(fake.calls('GET /api/audit-events').at(-1)?.url.searchParams ?? []);
}

const viewerZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

describe('Settings → Audit log', () => {
  it('lists events: time in the viewer’s zone, actor, action in words, target with its kind, IP', async () => {
    const fake = server();
    renderApp('/settings/audit-log', { initialData: signedIn(), server: fake });
    const table = await screen.findByRole('table', { name: 'Audit events' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Time', 'Actor', 'Action', 'Target', 'IP']);
    const [, person, key, system] = within(table).getAllByRole('row');
    if (!person || !key || !system) throw new Error('three rows expected');
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((td) => td.textContent);

    const local = new Intl.DateTimeFormat(undefined, {
      dateStyle: 'medium',
      timeStyle: 'medium',
      timeZone: viewerZone,
    }).format(new Date('2026-01-05T10:00:07Z'));
    // A person by name, the e-mail recorded at the time beside it.
    expect(cells(person)).toEqual([
      local,
      'Ada Lovelace ada@example.com',
      'Changed permissions',
      'bob@example.com Member',
      '203.0.113.7',
    ]);
    expect(within(person).getByText(local).closest('time')).toHaveAttribute(
      'datetime',
      '2026-01-05T10:00:07Z',
    );
    expect(cells(key)).toEqual([
      local,
      'API key vf_live_AbCd…',
      'Exported verifications',
      '—',
      '203.0.113.7',
    ]);
    expect(cells(system)).toEqual([
      local,
      'Veriform',
      'Removed old audit events',
      'Event 900 Audit event',
      '—',
    ]);
    expect(
      screen.getByText(
        `Who did what in Acme Corp, when and from where. Times are in your time zone, ${viewerZone}.`,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Showing 1–3 of 3')).toBeInTheDocument();
    expect(lastListParams(fake)).toEqual({
      account: '21',
      created__date__preset: 'all',
      pageNumber: '1',
      pageSize: '25',
    });
    expect(document.title).toMatch(/^Audit log/);
    expect(screen.getByRole('tab', { name: 'Audit log' })).toHaveAttribute('aria-selected', 'true');
  });

  it('at phone width, each event is a card with every column', async () => {
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
    renderApp('/settings/audit-log', { initialData: signedIn(), server: server() });
    const list = await screen.findByRole('list', { name: 'Audit events' });
    expect(screen.queryByRole('table', { name: 'Audit events' })).not.toBeInTheDocument();
    const [card] = within(list).getAllByRole('listitem');
    if (!card) throw new Error('a card expected');
    expect(within(card).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(card).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(card).getByText('bob@example.com')).toBeInTheDocument();
    expect(within(card).getByText('203.0.113.7')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Changed permissions' }));
    expect(await screen.findByRole('dialog', { name: 'Changed permissions' })).toBeInTheDocument();
  });

  it('filters write the URL and the API call, go back to page 1, and ride along on the export links', async () => {
    const user = userEvent.setup();
    const fake = server(60);
    const { router } = renderApp('/settings/audit-log?pageNumber=2', {
      initialData: signedIn(),
      server: fake,
    });
    expect(await screen.findByText('Showing 26–50 of 60')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    await user.click(await screen.findByRole('option', { name: 'Changed permissions' }));
    await waitFor(() =>
      expect(router.state.location.search).toEqual({ action: 'membership.permissions_changed' }),
    );
    await waitFor(() =>
      expect(lastListParams(fake)).toMatchObject({
        action: 'membership.permissions_changed',
        pageNumber: '1',
      }),
    );

    await user.click(screen.getByRole('combobox', { name: 'Actor type' }));
    await user.click(await screen.findByRole('option', { name: 'API key' }));
    await user.click(screen.getByRole('combobox', { name: 'Target type' }));
    await user.click(await screen.findByRole('option', { name: 'Member' }));
    await user.click(screen.getByRole('combobox', { name: 'Date' }));
    await user.click(await screen.findByRole('option', { name: 'Last 7 days' }));
    await waitFor(() =>
      expect(router.state.location.search).toEqual({
        action: 'membership.permissions_changed',
        actorType: 'api_key',
        targetType: 'membership',
        created__date__preset: 'last7d',
      }),
    );
    await waitFor(() =>
      expect(lastListParams(fake)).toEqual({
        account: '21',
        action: 'membership.permissions_changed',
        actorType: 'api_key',
        targetType: 'membership',
        created__date__preset: 'last7d',
        tz: viewerZone,
        pageNumber: '1',
        pageSize: '25',
      }),
    );

    for (const [name, format] of [
      ['Export CSV', 'csv'],
      ['Export JSON Lines', 'jsonl'],
    ] as const) {
      const link = screen.getByRole('link', { name });
      expect(link).toHaveAttribute('download');
      const href = link.getAttribute('href') ?? '';
      expect(href.split('?')[0]).toBe('/api/audit-events/export');
      expect(Object.fromEntries(new URLSearchParams(href.split('?')[1]))).toEqual({
        account: '21',
        format,
        action: 'membership.permissions_changed',
        actorType: 'api_key',
        targetType: 'membership',
        created__date__preset: 'last7d',
        tz: viewerZone,
      });
    }

    // The custom range shows its own days.
    await user.click(screen.getByRole('combobox', { name: 'Date' }));
    await user.click(await screen.findByRole('option', { name: 'Custom range' }));
    await user.type(await screen.findByLabelText('From'), '2026-01-01');
    await waitFor(() =>
      expect(router.state.location.search).toMatchObject({
        created__date__preset: 'custom',
        created__date__gte: '2026-01-01',
      }),
    );
    await waitFor(() => expect(lastListParams(fake)).toMatchObject({ created__date__gte: '2026-01-01' }));
  });

  it('a bad value in a shared link falls back to no filter', async () => {
    const fake = server();
    renderApp('/settings/audit-log?action=form.exploded&actorType=robot&pageSize=5000', {
      initialData: signedIn(),
      server: fake,
    });
    await screen.findByRole('table', { name: 'Audit events' });
    expect(lastListParams(fake)).toEqual({
      account: '21',
      created__date__preset: 'all',
      pageNumber: '1',
      pageSize: '25',
    });
  });

  it('pages and page size go to the URL and the API', async () => {
    const user = userEvent.setup();
    const fake = server(60);
    const { router } = renderApp('/settings/audit-log', { initialData: signedIn(), server: fake });
    expect(await screen.findByText('Showing 1–25 of 60')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ pageNumber: 3 }));
    expect(await screen.findByText('Showing 51–60 of 60')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Rows per page' }));
    await user.click(await screen.findByRole('option', { name: '50' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ pageSize: 50 }));
    expect(await screen.findByText('Showing 1–50 of 60')).toBeInTheDocument();
    expect(lastListParams(fake)).toMatchObject({ pageSize: '50', pageNumber: '1' });
  });

  it('the drawer shows every field and the changes as before/after; its buttons filter by actor and target', async () => {
    const user = userEvent.setup();
    const fake = server();
    const { router } = renderApp('/settings/audit-log', { initialData: signedIn(), server: fake });
    const table = await screen.findByRole('table', { name: 'Audit events' });
    await user.click(within(table).getAllByRole('button', { name: 'Changed permissions' })[0] as HTMLElement);
    const drawer = await screen.findByRole('dialog', { name: 'Changed permissions' });
    expect(within(drawer).getByText('membership.permissions_changed')).toBeInTheDocument();
    expect(within(drawer).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(drawer).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(drawer).getByText('bob@example.com')).toBeInTheDocument();
    expect(within(drawer).getByText('Member · ID 12')).toBeInTheDocument();
    expect(within(drawer).getByText('Mozilla/5.0 (X11; Linux x86_64)')).toBeInTheDocument();
    expect(within(drawer).getByText('req-42')).toBeInTheDocument();
    expect(within(drawer).getByText('a1b2c3d4e5…f6e5d4')).toHaveAttribute('title', HASH);
    expect(within(drawer).getByRole('button', { name: 'Copy hash' })).toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: 'Copy previous hash' })).toBeInTheDocument();
    const changes = within(drawer).getByRole('table', { name: 'Changes' });
    expect(
      within(changes)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['FieldBeforeAfter', 'canSearchDatafalsetrue']);

    await user.click(within(drawer).getByRole('button', { name: 'Show all by this actor' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ actorType: 'user', actorId: '1' }));
    await waitFor(() => expect(lastListParams(fake)).toMatchObject({ actorType: 'user', actorId: '1' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const chips = screen.getByRole('list', { name: 'Chosen actor and target' });
    expect(within(chips).getByText('Actor: Ada Lovelace (ada@example.com)')).toBeInTheDocument();

    await user.click(within(table).getAllByRole('button', { name: 'Changed permissions' })[0] as HTMLElement);
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Changed permissions' })).getByRole('button', {
        name: 'Show all for this target',
      }),
    );
    await waitFor(() =>
      expect(router.state.location.search).toEqual({
        actorType: 'user',
        actorId: '1',
        targetType: 'membership',
        targetId: '12',
      }),
    );
    expect(await within(chips).findByText('Member: bob@example.com')).toBeInTheDocument();
    await user.click(
      screen.getByRole('button', { name: 'Remove filter Actor: Ada Lovelace (ada@example.com)' }),
    );
    await waitFor(() =>
      expect(router.state.location.search).toEqual({ targetType: 'membership', targetId: '12' }),
    );
  });

  it('an export’s filters and row count show as details; the system has no actor to filter by', async () => {
    const user = userEvent.setup();
    renderApp('/settings/audit-log', { initialData: signedIn(), server: server() });
    await user.click(await screen.findByRole('button', { name: 'Exported verifications' }));
    const drawer = await screen.findByRole('dialog', { name: 'Exported verifications' });
    expect(within(drawer).queryByRole('table', { name: 'Changes' })).not.toBeInTheDocument();
    expect(within(drawer).getByText('filters')).toBeInTheDocument();
    expect(within(drawer).getByText('{"created__date__preset":"last7d"}')).toBeInTheDocument();
    expect(within(drawer).getByText('rowCount')).toBeInTheDocument();
    expect(within(drawer).getByText('12')).toBeInTheDocument();
    expect(
      within(drawer).queryByRole('button', { name: 'Show all for this target' }),
    ).not.toBeInTheDocument();
    await user.click(within(drawer).getByRole('button', { name: 'Close details' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Removed old audit events' }));
    const pruned = await screen.findByRole('dialog', { name: 'Removed old audit events' });
    expect(within(pruned).queryByRole('button', { name: 'Show all by this actor' })).not.toBeInTheDocument();
    expect(within(pruned).getAllByText('Not recorded')).toHaveLength(3);
  });

  it('says when nothing is recorded yet, and when no event matches the filters', async () => {
    const user = userEvent.setup();
    const empty = createFakeServer({
      'GET /api/audit-events': [200, { count: 0, pageNumber: 1, pageSize: 25, results: [] }],
    });
    const first = renderApp('/settings/audit-log', { initialData: signedIn(), server: empty });
    expect(await screen.findByText(NOTHING_RECORDED)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Export CSV' })).not.toBeInTheDocument();
    first.unmount();

    const { router } = renderApp('/settings/audit-log?action=form.deleted', {
      initialData: signedIn(),
      server: empty,
    });
    expect(await screen.findByText(NO_MATCH)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(await screen.findByText(NOTHING_RECORDED)).toBeInTheDocument();
  });

  it('shows a skeleton while loading; a failed load says so and can be tried again', async () => {
    const user = userEvent.setup();
    const fake = createFakeServer({ 'GET /api/audit-events': [500, { detail: 'boom' }] });
    renderApp('/settings/audit-log', { initialData: signedIn(), server: fake });
    expect(await screen.findByLabelText('Loading audit events')).toHaveAttribute('aria-busy', 'true');
    expect(
      await screen.findByText('The audit log could not be loaded', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    fake.on('GET /api/audit-events', [
      200,
      { count: 1, pageNumber: 1, pageSize: 25, results: [makeEvent(1)] },
    ]);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Audit events' })).toBeInTheDocument();
  });
});

describe('The audit log is the owners’', () => {
  it('members see no tab', async () => {
    renderApp('/settings/my-account', { initialData: signedIn(member), server: server() });
    expect(await screen.findByRole('tab', { name: 'My Account' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Audit log' })).not.toBeInTheDocument();
  });

  it('a member who types the address gets the permission screen, and nothing is asked of the server', async () => {
    const fake = server();
    renderApp('/settings/audit-log', { initialData: signedIn(member), server: fake });
    expect(await screen.findByText('Sorry, you do not have access to this page.')).toBeInTheDocument();
    expect(fake.calls('GET /api/audit-events')).toHaveLength(0);
  });

  it('an owner demoted meanwhile (the server answers 403) gets the permission screen', async () => {
    const fake = createFakeServer({
      'GET /api/audit-events': [403, { detail: 'You are not permitted to perform that action.' }],
    });
    renderApp('/settings/audit-log', { initialData: signedIn(), server: fake });
    expect(await screen.findByText('Sorry, you do not have access to this page.')).toBeInTheDocument();
    expect(document.title).toMatch(/^Access denied/);
  });
});
