import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Revocation } from '@veriform/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';

const ada = makeUser();
const owner = makeMembership();
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });

function makeRevocation(id: string, over: Partial<Revocation> = {}): Revocation {
  return {
    id,
    channel: 'sms_reply',
    via: null,
    note: '',
    recordedBy: null,
    phone: '+12015550101',
    email: null,
    words: 'STOP',
    perSeWords: ['stop'],
    status: 'open',
    receivedAt: '2026-11-25T15:00:00Z',
    deadline: '2026-12-10',
    acknowledgedAt: null,
    verificationIds: [],
    ...over,
  };
}

/** A server holding the revocations: it lists them by status, and a recorded one goes first. */
function server(initial: Revocation[]) {
  let rows = [...initial];
  return createFakeServer({
    'GET /api/revocations': ({ url }) => {
      const status = url.searchParams.get('status');
      const q = url.searchParams.get('q');
      const results = rows.filter(
        (r) =>
          (!status || r.status === status) &&
          (!q ||
            (/^[\d\s()+-]+$/.test(q)
              ? (r.phone ?? '').includes(q.replace(/\D/g, ''))
              : (r.email ?? '').includes(q))),
      );
      return [200, { count: results.length, pageNumber: 1, pageSize: 25, results }];
    },
    'POST /api/revocations': ({ body }) => {
      const made = makeRevocation('rec1', {
        channel: 'member',
        ...(body as Partial<Revocation>),
        words: '',
        perSeWords: [],
        recordedBy: ada.email,
      });
      rows = [made, ...rows];
      return [201, made];
    },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/activity-log/revocations', { timeout: 20_000 }, () => {
  it('lists revocations with their words, status and deadline; the tab is current', async () => {
    const fake = server([
      makeRevocation('r1'),
      makeRevocation('r2', { status: 'possible', words: 'who is this?', perSeWords: [] }),
      makeRevocation('r3', {
        channel: 'member',
        via: 'letter',
        note: 'Wrote to us',
        words: '',
        phone: null,
        email: 'ann@example.com',
        status: 'overdue',
      }),
    ]);
    renderApp('/activity-log/revocations', { initialData: signedIn(), server: fake });
    const table = await screen.findByRole('table', { name: 'Revocations' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Received', 'Number or address', 'How', 'Words', 'Status', 'Deadline', 'Actions']);
    const open = within(table).getByText('STOP').closest('tr') as HTMLElement;
    expect(within(open).getByText('Open')).toBeInTheDocument();
    expect(within(open).getByText('2026-12-10')).toBeInTheDocument();
    expect(within(open).getByText('Reply to a code text')).toBeInTheDocument();
    expect(
      within(open).getByRole('button', { name: 'Acknowledge the revocation of +12015550101' }),
    ).toBeEnabled();
    const possible = within(table).getByText('who is this?').closest('tr') as HTMLElement;
    expect(within(possible).getByRole('button', { name: /as a revocation$/ })).toBeInTheDocument();
    expect(within(possible).getByRole('button', { name: /as not a revocation$/ })).toBeInTheDocument();
    const overdue = within(table).getByText('ann@example.com').closest('tr') as HTMLElement;
    expect(within(overdue).getByText('Overdue')).toBeInTheDocument();
    expect(within(overdue).getByText('Recorded by a member (Letter)')).toBeInTheDocument();
    expect(within(overdue).getByText('Wrote to us')).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Activity log views' });
    expect(within(tabs).getByRole('link', { name: 'Revocations' })).toHaveAttribute('aria-current', 'page');
  });

  it('acknowledging one posts it and reads the list again, which shows it acknowledged', async () => {
    const fake = server([makeRevocation('r1')]);
    fake.on('POST /api/revocations/r1/acknowledge', () => {
      const acknowledged = makeRevocation('r1', {
        status: 'acknowledged',
        acknowledgedAt: '2026-11-29T10:00:00Z',
      });
      fake.on('GET /api/revocations', [
        200,
        { count: 1, pageNumber: 1, pageSize: 25, results: [acknowledged] },
      ]);
      return [200, acknowledged];
    });
    renderApp('/activity-log/revocations', { initialData: signedIn(), server: fake });
    const button = await screen.findByRole('button', { name: /^Acknowledge the revocation/ });
    await userEvent.click(button);
    const table = await screen.findByRole('table', { name: 'Revocations' });
    await waitFor(() => expect(within(table).getByText('Acknowledged')).toBeInTheDocument());
    expect(fake.calls('POST /api/revocations/r1/acknowledge')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /^Acknowledge the revocation/ })).toBeNull();
  });

  it('records one: the number or the address is asked for first, then it is posted and listed', async () => {
    const fake = server([]);
    renderApp('/activity-log/revocations', { initialData: signedIn(), server: fake });
    expect(await screen.findByText('No revocations yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Record revocation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record a revocation' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record revocation' }));
    expect(
      await within(dialog).findByText('Enter the phone number or the e-mail address that revoked consent.'),
    ).toBeInTheDocument();
    expect(fake.calls('POST /api/revocations')).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText('Phone number'), '+12015550177');
    await userEvent.selectOptions(within(dialog).getByLabelText('How it reached you'), 'letter');
    await userEvent.type(within(dialog).getByLabelText('Note'), 'By post');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record revocation' }));
    await waitFor(() => expect(fake.calls('POST /api/revocations')).toHaveLength(1));
    expect(fake.calls('POST /api/revocations')[0]?.body).toEqual({
      phone: '+12015550177',
      via: 'letter',
      note: 'By post',
    });
    expect(await screen.findByRole('table', { name: 'Revocations' })).toBeInTheDocument();
    expect(screen.getByText('By post')).toBeInTheDocument();
  });
  it('the search box filters by number or address, debounced, in the URL; nothing matching offers Clear filters', async () => {
    const user = userEvent.setup();
    const fake = server([
      makeRevocation('r1'),
      makeRevocation('r2', { phone: null, email: 'ann@example.com', words: '', note: 'Wrote to us' }),
    ]);
    const { router } = renderApp('/activity-log/revocations', { initialData: signedIn(), server: fake });
    await screen.findByRole('table', { name: 'Revocations' });
    const filters = screen.getByRole('search', { name: 'Filter revocations' });
    const box = within(filters).getByRole('searchbox', { name: 'Search' });
    await user.type(box, 'ann@');
    // One read for the whole word, once typing stops.
    await waitFor(() => expect(router.state.location.search).toEqual({ q: 'ann@' }));
    const reads = fake.calls('GET /api/revocations');
    expect(reads.at(-1)?.url.searchParams.get('q')).toBe('ann@');
    expect(reads.filter((r) => r.url.searchParams.get('q') === 'ann')).toHaveLength(0);
    await waitFor(() => expect(screen.queryByText('STOP')).toBeNull());
    expect(screen.getByText('Wrote to us')).toBeInTheDocument();

    await user.clear(box);
    await user.type(box, '555-9999');
    expect(await screen.findByText('No matching revocations')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(await screen.findByText('STOP')).toBeInTheDocument();
    expect(box).toHaveValue('');
  });

  it('a shared link with a search opens with it in the box', async () => {
    const fake = server([makeRevocation('r1')]);
    renderApp('/activity-log/revocations?q=0101', { initialData: signedIn(), server: fake });
    await screen.findByRole('table', { name: 'Revocations' });
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('0101');
    expect(fake.calls('GET /api/revocations')[0]?.url.searchParams.get('q')).toBe('0101');
  });
});
