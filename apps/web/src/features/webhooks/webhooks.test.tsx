import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { WebhookEndpoint } from '@veriform/contracts';
import { describe, expect, it, vi } from 'vitest';
import { createFakeServer } from '../../test/fake-server';
import { renderApp } from '../../test/render';
import { EVENT_TYPES_REQUIRED } from './components/EndpointFormModal';
import { EMPTY_TEXT } from './components/Webhooks';
import { DISABLED_CREATOR_REMOVED_TEXT, DISABLED_FOR_FAILING_TEXT } from './labels';
import { makeEndpoint, member, signedIn } from './test-data';

/** A server that keeps its list, so a refetch after a change shows the change. */
function server(initial: WebhookEndpoint[] = [makeEndpoint()]) {
  let endpoints = [...initial];
  const fake = createFakeServer({
    'GET /api/webhook-endpoints': () => [200, { results: endpoints }],
    'GET /api/webhook-endpoints/5/deliveries': [200, { results: [], hasMore: false }],
  });
  return {
    fake,
    set(next: WebhookEndpoint[]) {
      endpoints = next;
    },
  };
}

describe('Settings → Webhooks', () => {
  it('lists the endpoints: URL, description, events, status with its warnings, secret preview', async () => {
    const s = server([
      makeEndpoint(),
      makeEndpoint({
        id: 6,
        url: 'https://erp.example.com/in',
        description: '',
        eventTypes: ['verification.approved', 'form.live_changed'],
        enabled: false,
        disabledAt: '2026-01-09T10:00:00Z',
        disabledReason: 'failing',
        failingSince: '2026-01-04T10:00:00Z',
        secretPreview: 'whsec_ZyXw…',
        createdBy: null,
      }),
      makeEndpoint({
        id: 7,
        url: 'https://old.example.com/in',
        enabled: false,
        disabledAt: '2026-01-10T10:00:00Z',
        disabledReason: 'creator_removed',
        createdBy: { id: 4, name: '', email: 'former@example.com' },
      }),
    ]);
    renderApp('/settings/webhooks', { initialData: signedIn(), server: s.fake });
    const table = await screen.findByRole('table', { name: 'Webhook endpoints' });
    const former = within(table).getAllByRole('row')[3];
    if (!former) throw new Error('three rows expected');
    // Created by: the name, else the address; "—" when unknown (ADR 30).
    expect(within(former).getByText('former@example.com')).toBeInTheDocument();
    expect(within(former).getByText(DISABLED_CREATOR_REMOVED_TEXT)).toBeInTheDocument();
    const [, crm, erp] = within(table).getAllByRole('row');
    if (!crm || !erp) throw new Error('two rows expected');
    expect(within(crm).getByRole('link', { name: 'https://crm.example.com/hooks/veriform' })).toHaveAttribute(
      'href',
      '/settings/webhooks/5',
    );
    expect(within(crm).getByText('CRM lead sync')).toBeInTheDocument();
    expect(within(crm).getByText('All events')).toBeInTheDocument();
    expect(within(crm).getByText('Enabled')).toBeInTheDocument();
    expect(within(crm).getByText('whsec_AbCd…')).toBeInTheDocument();
    expect(within(crm).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(crm).queryByText(/^Failing since/)).not.toBeInTheDocument();

    expect(within(erp).getByText('No description')).toBeInTheDocument();
    expect(within(erp).getByText('Verification approved')).toBeInTheDocument();
    expect(within(erp).getByText('Form went live or offline')).toBeInTheDocument();
    expect(within(erp).getByText('Disabled')).toBeInTheDocument();
    expect(within(erp).getByText(DISABLED_FOR_FAILING_TEXT)).toBeInTheDocument();
    expect(within(erp).getByText(/^Failing since/)).toBeInTheDocument();
    expect(within(erp).getByText('—')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Webhooks' })).toHaveAttribute('aria-selected', 'true');
    expect(document.title).toMatch(/^Webhooks/);
  });

  it('at phone width, each endpoint is a card', async () => {
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
    renderApp('/settings/webhooks', { initialData: signedIn(), server: server().fake });
    const list = await screen.findByRole('list', { name: 'Webhook endpoints' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const [card] = within(list).getAllByRole('listitem');
    if (!card) throw new Error('a card expected');
    expect(
      within(card).getByRole('link', { name: 'https://crm.example.com/hooks/veriform' }),
    ).toBeInTheDocument();
    expect(within(card).getByText('whsec_AbCd…')).toBeInTheDocument();
    vi.unstubAllGlobals();
  });

  it('shows a skeleton while loading, then with no endpoints says what they are for and offers to add one', async () => {
    let answer: (value: [number, unknown]) => void = () => undefined;
    const fake = createFakeServer({
      'GET /api/webhook-endpoints': () =>
        new Promise<[number, unknown]>((resolve) => {
          answer = resolve;
        }),
    });
    renderApp('/settings/webhooks', { initialData: signedIn(), server: fake });
    expect(await screen.findByLabelText('Loading webhook endpoints')).toHaveAttribute('aria-busy', 'true');
    answer([200, { results: [] }]);
    expect(await screen.findByText('No endpoints yet')).toBeInTheDocument();
    expect(screen.getByText(EMPTY_TEXT)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add endpoint' })).toBeInTheDocument();
  });

  it('adds an endpoint with chosen events, then opens its page', async () => {
    const user = userEvent.setup();
    const s = server([]);
    const created = makeEndpoint({
      eventTypes: ['verification.approved', 'verification.failed'],
      enabled: false,
    });
    s.fake.on('POST /api/webhook-endpoints', () => {
      s.set([created]);
      return [201, created];
    });
    s.fake.on('GET /api/webhook-endpoints/5', [200, created]);
    const { router } = renderApp('/settings/webhooks', { initialData: signedIn(), server: s.fake });
    await user.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const form = await screen.findByRole('dialog', { name: 'Add endpoint' });
    const url = within(form).getByRole('textbox', { name: /^URL/ });
    await waitFor(() => expect(url).toHaveFocus());
    await user.type(url, 'https://crm.example.com/hooks/veriform');
    await user.type(within(form).getByRole('textbox', { name: /^Description/ }), 'CRM lead sync');
    expect(within(form).getByRole('radio', { name: 'All events' })).toBeChecked();
    await user.click(within(form).getByRole('radio', { name: 'Only the events I choose' }));

    // Nothing chosen: said beside the boxes, nothing sent.
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(form).findByText(EVENT_TYPES_REQUIRED)).toBeInTheDocument();
    expect(s.fake.calls('POST /api/webhook-endpoints')).toHaveLength(0);

    await user.click(within(form).getByRole('checkbox', { name: /^Verification failed/ }));
    await user.click(within(form).getByRole('checkbox', { name: /^Verification approved/ }));
    await user.click(within(form).getByRole('switch', { name: /^Enabled/ }));
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));

    expect(await screen.findByText('Endpoint added')).toBeInTheDocument();
    // In the contract's order, whatever the order of the clicks.
    expect(s.fake.calls('POST /api/webhook-endpoints')[0]?.body).toEqual({
      account: 21,
      url: 'https://crm.example.com/hooks/veriform',
      description: 'CRM lead sync',
      eventTypes: ['verification.approved', 'verification.failed'],
      enabled: false,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/webhooks/5'));
    // The add button is gone with the list: the keyboard starts at the new endpoint.
    const heading = await screen.findByRole('heading', { name: 'https://crm.example.com/hooks/veriform' });
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it('shows the server’s refusals beside their fields, and a refusal of the whole request above the form', async () => {
    const user = userEvent.setup();
    const s = server([]);
    const privateAddress =
      'This address points to a private network, this machine or a cloud metadata service; webhooks can only be sent to public addresses.';
    s.fake.on('POST /api/webhook-endpoints', [
      400,
      {
        url: [privateAddress],
        description: ['Line breaks and control characters are not allowed.'],
        MainCode_: 'validation_error',
      },
    ]);
    renderApp('/settings/webhooks', { initialData: signedIn(), server: s.fake });
    await user.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const form = await screen.findByRole('dialog', { name: 'Add endpoint' });
    const url = within(form).getByRole('textbox', { name: /^URL/ });

    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(form).findByText('Required')).toBeInTheDocument();
    await user.type(url, 'not a url');
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(form).findByText('Enter a full URL starting with https://.')).toBeInTheDocument();
    expect(s.fake.calls('POST /api/webhook-endpoints')).toHaveLength(0);

    await user.clear(url);
    await user.type(url, 'https://10.0.0.1/hook');
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(form).findByText(privateAddress)).toBeInTheDocument();
    await waitFor(() => expect(url).toHaveAttribute('aria-invalid', 'true'));
    await waitFor(() => expect(url).toHaveFocus());
    expect(within(form).getByRole('textbox', { name: /^Description/ })).toHaveAccessibleDescription(
      expect.stringContaining('Line breaks and control characters are not allowed.'),
    );
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();

    const tooMany = 'An account can have at most 20 webhook endpoints. Delete one you no longer use first.';
    s.fake.on('POST /api/webhook-endpoints', [
      400,
      { nonFieldErrors: [tooMany], MainCode_: 'validation_error' },
    ]);
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(tooMany);
    expect(url).toHaveValue('https://10.0.0.1/hook');
  });

  it('a failed load says so and can be tried again', async () => {
    const user = userEvent.setup();
    const fake = createFakeServer({ 'GET /api/webhook-endpoints': [404, { detail: 'Not found.' }] });
    renderApp('/settings/webhooks', { initialData: signedIn(), server: fake });
    expect(await screen.findByRole('alert')).toHaveTextContent('The webhook endpoints could not be loaded');
    fake.on('GET /api/webhook-endpoints', [200, { results: [makeEndpoint()] }]);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Webhook endpoints' })).toBeInTheDocument();
  });
});

describe('Webhooks are the owners’', () => {
  it('members see no tab', async () => {
    renderApp('/settings/my-account', { initialData: signedIn(member), server: server().fake });
    expect(await screen.findByRole('tab', { name: 'My Account' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Webhooks' })).not.toBeInTheDocument();
  });

  it('a member who types the address gets the permission screen, and nothing is asked of the server', async () => {
    const s = server();
    renderApp('/settings/webhooks', { initialData: signedIn(member), server: s.fake });
    expect(await screen.findByText('Sorry, you do not have access to this page.')).toBeInTheDocument();
    renderApp('/settings/webhooks/5', { initialData: signedIn(member), server: s.fake });
    expect(s.fake.requests.filter((r) => r.path.startsWith('/api/webhook'))).toHaveLength(0);
  });

  it('an owner demoted meanwhile (the server answers 403) gets the permission screen', async () => {
    const fake = createFakeServer({
      'GET /api/webhook-endpoints': [403, { detail: 'You are not permitted to perform that action.' }],
    });
    renderApp('/settings/webhooks', { initialData: signedIn(), server: fake });
    expect(await screen.findByText('Sorry, you do not have access to this page.')).toBeInTheDocument();
  });
});
