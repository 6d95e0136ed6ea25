import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithRouter } from '../../test/render';
import type { ListPage, ListQuery } from './ListStates';
import { type OtherFilters, StatusFilteredList } from './StatusFilteredList';

type Status = 'open' | 'closed';
interface Ticket {
  id: string;
  title: string;
}

const statuses = ['open', 'closed'] as const;
const labels = { open: 'Open', closed: 'Closed' } as const;

const page = (results: Ticket[]): ListPage<Ticket> => ({
  count: results.length,
  pageNumber: 1,
  pageSize: 25,
  results,
});

function makeQuery(over: Partial<ListQuery<Ticket>> = {}): ListQuery<Ticket> {
  return {
    data: page([]),
    isPending: false,
    isError: false,
    error: null,
    refetch: vi.fn(),
    isPlaceholderData: false,
    isFetching: false,
    ...over,
  };
}

/** The list as a page uses it: the status kept in state (a page keeps it in the URL), each change reported. */
function Tickets({
  query,
  initialStatus,
  onStatus = () => undefined,
  otherFilters,
}: {
  query: ListQuery<Ticket>;
  initialStatus?: Status;
  onStatus?: (status: Status | undefined) => void;
  otherFilters?: OtherFilters;
}) {
  const [status, setStatus] = useState<Status | undefined>(initialStatus);
  return (
    <StatusFilteredList
      query={query}
      rowsNoun="tickets"
      status={{
        value: status,
        statuses,
        labels,
        onChange: (next) => {
          setStatus(next);
          onStatus(next);
        },
      }}
      otherFilters={otherFilters}
      never={{ title: 'No tickets yet', text: 'Tickets filed are listed here.' }}
      noMatchTitle="No tickets with this status"
      skeleton={<div role="status">Loading tickets</div>}
      icon={<span />}
      pager={{ pageNumber: 1, pageSize: 25, pageSizes: [25, 50], onPage: vi.fn(), onPageSize: vi.fn() }}
    >
      {(rows, busy) => (
        <ul aria-label="Tickets" aria-busy={busy}>
          {rows.map((row) => (
            <li key={row.id}>{row.title}</li>
          ))}
        </ul>
      )}
    </StatusFilteredList>
  );
}

const filters = () => screen.queryByRole('search', { name: 'Filter tickets' });

describe('StatusFilteredList', () => {
  it('loading: the skeleton under the filters', async () => {
    renderWithRouter(<Tickets query={makeQuery({ data: undefined, isPending: true })} />);
    expect(await screen.findByRole('status')).toHaveTextContent('Loading tickets');
    expect(filters()).toBeInTheDocument();
  });

  it('never a row: the "nothing yet" state and no filters', async () => {
    renderWithRouter(<Tickets query={makeQuery()} />);
    expect(await screen.findByText('No tickets yet')).toBeInTheDocument();
    expect(screen.getByText('Tickets filed are listed here.')).toBeInTheDocument();
    expect(filters()).toBeNull();
  });

  it('a placeholder page while a filter loads is not "nothing yet"', async () => {
    renderWithRouter(<Tickets query={makeQuery({ isPlaceholderData: true })} />);
    expect(await screen.findByText('No tickets with this status')).toBeInTheDocument();
    expect(screen.queryByText('No tickets yet')).toBeNull();
    expect(filters()).toBeInTheDocument();
  });

  it('empty under a status: says so, and Clear filters goes back to every status', async () => {
    const user = userEvent.setup();
    const onStatus = vi.fn();
    renderWithRouter(<Tickets query={makeQuery()} initialStatus="closed" onStatus={onStatus} />);
    expect(await screen.findByText('No tickets with this status')).toBeInTheDocument();
    expect(screen.getByText('Choose another status, or every status.')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('closed');
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(onStatus).toHaveBeenLastCalledWith(undefined);
    // Without a status the same empty answer means there has never been a ticket.
    expect(screen.getByText('No tickets yet')).toBeInTheDocument();
  });

  it('error: the rows noun names it, and Try again reads again', async () => {
    const user = userEvent.setup();
    const refetch = vi.fn();
    renderWithRouter(
      <Tickets query={makeQuery({ data: undefined, isError: true, error: new Error('offline'), refetch })} />,
    );
    expect(await screen.findByText('The tickets could not be loaded')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('rows: listed through the render prop, with the pager under them', async () => {
    const rows = [
      { id: 't1', title: 'Printer on fire' },
      { id: 't2', title: 'Coffee machine' },
    ];
    renderWithRouter(<Tickets query={makeQuery({ data: page(rows) })} />);
    const list = await screen.findByRole('list', { name: 'Tickets' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Printer on fire', 'Coffee machine']);
    expect(screen.getByText('Showing 1–2 of 2')).toBeInTheDocument();
  });

  it('the Status select offers every status first, then each label, and reports the choice', async () => {
    const user = userEvent.setup();
    const onStatus = vi.fn();
    renderWithRouter(
      <Tickets query={makeQuery({ data: page([{ id: 't1', title: 'One' }]) })} onStatus={onStatus} />,
    );
    const select = await within(await screen.findByRole('search', { name: 'Filter tickets' })).findByRole(
      'combobox',
      { name: 'Status' },
    );
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Every status', 'Open', 'Closed']);
    await user.selectOptions(select, 'Closed');
    expect(onStatus).toHaveBeenLastCalledWith('closed');
    await user.selectOptions(select, 'Every status');
    expect(onStatus).toHaveBeenLastCalledWith(undefined);
  });

  it('other filters come before the status and, while in use, say their own "nothing matches"', async () => {
    const user = userEvent.setup();
    const onClear = vi.fn();
    renderWithRouter(
      <Tickets
        query={makeQuery()}
        otherFilters={{
          controls: <input type="search" aria-label="Search" />,
          active: true,
          noMatch: { title: 'No matching tickets', text: 'Search for other words.', onClear },
        }}
      />,
    );
    expect(await screen.findByText('No matching tickets')).toBeInTheDocument();
    expect(screen.queryByText('No tickets yet')).toBeNull();
    const bar = screen.getByRole('search', { name: 'Filter tickets' });
    const [search, status] = [...bar.querySelectorAll('input, select')];
    expect(search).toBe(within(bar).getByRole('searchbox', { name: 'Search' }));
    expect(status).toBe(within(bar).getByRole('combobox', { name: 'Status' }));
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(onClear).toHaveBeenCalledTimes(1);
  });
});
