import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LegalHold } from '@veriform/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';

const ada = makeUser();
const owner = makeMembership();
const member = makeMembership({ role: 'member', canSearchData: true });
const plain = makeMembership({ role: 'member', canSearchData: false });
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });

function makeHold(id: string, over: Partial<LegalHold> = {}): LegalHold {
  return {
    id,
    scope: 'identifier',
    formId: null,
    formName: null,
    phone: '+12015550111',
    email: null,
    verificationId: null,
    reason: 'Smith v. Acme',
    status: 'active',
    placedBy: ada.email,
    placedAt: '2026-11-20T15:00:00Z',
    releasedBy: null,
    releasedAt: null,
    releaseReason: null,
    reaches: { verifications: 3, more: false },
    ...over,
  };
}

const page = (results: LegalHold[]) => ({ count: results.length, pageNumber: 1, pageSize: 25, results });

/** A server holding the holds: listed by status, a placed one goes first, a release marks it released. */
function server(initial: LegalHold[]) {
  let rows = [...initial];
  const fake = createFakeServer({
    'GET /api/legal-holds': ({ url }) => {
      const status = url.searchParams.get('status');
      return [200, page(rows.filter((r) => !status || r.status === status))];
    },
    'POST /api/legal-holds': ({ body }) => {
      const b = body as Partial<LegalHold> & { reason: string };
      const made = makeHold('lh_new', {
        scope: b.scope ?? 'account',
        phone: b.phone ?? null,
        email: b.email ?? null,
        formId: b.formId ?? null,
        verificationId: b.verificationId ?? null,
        reason: b.reason,
      });
      rows = [made, ...rows];
      return [201, made];
    },
    'GET /api/verify-forms': [200, { count: 0, pageNumber: 1, pageSize: 100, results: [] }],
  });
  for (const r of initial)
    fake.on(`POST /api/legal-holds/${r.id}/release`, ({ body }) => {
      const released = {
        ...r,
        status: 'released' as const,
        releasedBy: ada.email,
        releasedAt: '2026-11-21T10:00:00Z',
        releaseReason: (body as { reason: string }).reason,
        reaches: null,
      };
      rows = rows.map((x) => (x.id === r.id ? released : x));
      return [200, released];
    });
  return fake;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Settings › Legal holds', { timeout: 20_000 }, () => {
  it('lists holds with what they hold, why, what they reach, who placed them and their status', async () => {
    const fake = server([
      makeHold('lh_a'),
      makeHold('lh_b', {
        scope: 'form',
        phone: null,
        formId: 7,
        formName: 'Loans',
        reason: 'Class action',
        reaches: { verifications: 1000, more: true },
      }),
      makeHold('lh_c', {
        scope: 'account',
        phone: null,
        status: 'released',
        releasedAt: '2026-11-21T10:00:00Z',
        releasedBy: ada.email,
        releaseReason: 'Settled',
        reaches: null,
      }),
    ]);
    renderApp('/settings/legal-holds', { initialData: signedIn(), server: fake });
    const table = await screen.findByRole('table', { name: 'Legal holds' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Holds', 'Reason', 'Reaches', 'Placed', 'Status', 'Actions']);
    const number = within(table).getByText('+12015550111').closest('tr') as HTMLElement;
    expect(within(number).getByText('Smith v. Acme')).toBeInTheDocument();
    expect(within(number).getByText('3 verifications')).toBeInTheDocument();
    expect(within(number).getByText('Active')).toBeInTheDocument();
    const form = within(table).getByText('Form Loans').closest('tr') as HTMLElement;
    expect(within(form).getByText('1,000+ verifications')).toBeInTheDocument();
    const released = within(table).getByText('Every verification').closest('tr') as HTMLElement;
    expect(within(released).getByText('Released: Settled')).toBeInTheDocument();
    expect(within(released).queryByRole('button', { name: /Release/ })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Legal holds' })).toHaveAttribute('aria-selected', 'true');
  });

  it('says when there are none yet, and when they could not be loaded (Try again reads again)', async () => {
    renderApp('/settings/legal-holds', { initialData: signedIn(), server: server([]) });
    expect(await screen.findByText('No legal holds')).toBeInTheDocument();
    expect(screen.queryByRole('search', { name: 'Filter legal holds' })).toBeNull();

    const failing = createFakeServer({ 'GET /api/legal-holds': [500, { detail: 'boom' }] });
    renderApp('/settings/legal-holds', { initialData: signedIn(), server: failing });
    expect(
      await screen.findByText('The legal holds could not be loaded', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    failing.on('GET /api/legal-holds', [200, page([makeHold('lh_a')])]);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Smith v. Acme')).toBeInTheDocument();
  });

  it('the status filter is in the URL and asks the server', async () => {
    const fake = server([makeHold('lh_a')]);
    const { router } = renderApp('/settings/legal-holds', { initialData: signedIn(), server: fake });
    await screen.findByRole('table', { name: 'Legal holds' });
    const filters = screen.getByRole('search', { name: 'Filter legal holds' });
    await userEvent.selectOptions(within(filters).getByLabelText('Status'), 'released');
    await waitFor(() => expect(router.state.location.search).toEqual({ status: 'released' }));
    expect(fake.calls('GET /api/legal-holds').at(-1)?.url.searchParams.get('status')).toBe('released');
    expect(await screen.findByText('No holds with this status')).toBeInTheDocument();
  });

  it('an owner places a hold on a number: the fields follow the scope, the reason is required', async () => {
    const fake = server([]);
    renderApp('/settings/legal-holds', { initialData: signedIn(), server: fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Place a hold' }));
    const dialog = await screen.findByRole('dialog', { name: 'Place a legal hold' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Place hold' }));
    expect(within(dialog).getByLabelText(/^Reason/)).toHaveAttribute('aria-invalid', 'true');
    expect(fake.calls('POST /api/legal-holds')).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('radio', { name: /A form/ }));
    expect(within(dialog).getByLabelText(/^Form/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: /^Phone number/ })).toBeNull();
    await userEvent.click(within(dialog).getByRole('radio', { name: /A number or address/ }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Phone number/ }), '(201) 555-0111');
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'Smith v. Acme');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Place hold' }));
    await waitFor(() => expect(fake.calls('POST /api/legal-holds')).toHaveLength(1));
    expect(fake.calls('POST /api/legal-holds')[0]?.body).toEqual({
      scope: 'identifier',
      phone: '(201) 555-0111',
      reason: 'Smith v. Acme',
    });
    expect(fake.calls('POST /api/legal-holds')[0]?.url.searchParams.get('account')).toBe('21');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Smith v. Acme')).toBeInTheDocument();
  });

  it('puts the server’s field errors beside their inputs', async () => {
    const fake = server([]);
    fake.on('POST /api/legal-holds', [
      400,
      { phone: ['Enter a valid phone number.'], MainCode_: 'validation_error' },
    ]);
    renderApp('/settings/legal-holds', { initialData: signedIn(), server: fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Place a hold' }));
    const dialog = await screen.findByRole('dialog', { name: 'Place a legal hold' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Phone number/ }), '12345');
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'Case');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Place hold' }));
    expect(await within(dialog).findByText('Enter a valid phone number.')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /^Phone number/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
  });

  it('an owner releases a hold with a reason', async () => {
    const fake = server([makeHold('lh_a')]);
    renderApp('/settings/legal-holds', { initialData: signedIn(), server: fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Release the hold on +12015550111' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release the legal hold' });
    expect(within(dialog).getByText(/Smith v. Acme/)).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'Settled');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Release hold' }));
    await waitFor(() => expect(fake.calls('POST /api/legal-holds/lh_a/release')).toHaveLength(1));
    expect(fake.calls('POST /api/legal-holds/lh_a/release')[0]?.body).toEqual({ reason: 'Settled' });
    expect(await screen.findByText('Released: Settled')).toBeInTheDocument();
  });

  it('members who may search read the list without placing or releasing; others get the permission screen', async () => {
    const fake = server([makeHold('lh_a')]);
    renderApp('/settings/legal-holds', { initialData: signedIn(member), server: fake });
    expect(await screen.findByText('Smith v. Acme')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Place a hold' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Release/ })).toBeNull();

    const asked = server([]);
    renderApp('/settings/legal-holds', { initialData: signedIn(plain), server: asked });
    expect(await screen.findByText('Sorry, you do not have access to this page.')).toBeInTheDocument();
    expect(asked.calls('GET /api/legal-holds')).toHaveLength(0);
  });
});
