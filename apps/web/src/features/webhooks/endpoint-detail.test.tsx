import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { WebhookDelivery, WebhookEndpoint } from '@veriform/contracts';
import { describe, expect, it, vi } from 'vitest';
import { createFakeServer } from '../../test/fake-server';
import { renderApp } from '../../test/render';
import { DELIVERIES_JUST_READ_MS } from './api';
import { DELIVERY_POLL_MS, NO_DELIVERIES_TEXT } from './components/EndpointDetail';
import { makeDelivery, makeEndpoint, signedIn } from './test-data';

const SECRET = 'whsec_AbCdMTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0';

/** A server that keeps the endpoint and its deliveries, so a refetch after a change shows the change. */
function server(initial: { endpoint?: WebhookEndpoint; deliveries?: WebhookDelivery[] } = {}) {
  let endpoint = initial.endpoint ?? makeEndpoint();
  let deliveries = initial.deliveries ?? [makeDelivery()];
  const fake = createFakeServer({
    'GET /api/webhook-endpoints': () => [200, { results: [endpoint] }],
    'GET /api/webhook-endpoints/5': () => [200, endpoint],
    'GET /api/webhook-endpoints/5/deliveries': () => [200, { results: deliveries, hasMore: false }],
  });
  return {
    fake,
    setEndpoint(next: WebhookEndpoint) {
      endpoint = next;
    },
    setDeliveries(next: WebhookDelivery[]) {
      deliveries = next;
    },
  };
}

const open = async (s: ReturnType<typeof server>) => {
  const app = renderApp('/settings/webhooks/5', { initialData: signedIn(), server: s.fake });
  await screen.findByRole('heading', { name: 'https://crm.example.com/hooks/veriform' });
  return app;
};

describe('a webhook endpoint’s page', () => {
  it('shows the endpoint and its deliveries with every attempt', async () => {
    const s = server({
      deliveries: [
        makeDelivery({
          eventId: 'evt_2',
          eventType: 'form.updated',
          status: 'retrying',
          nextAttemptAt: '2026-01-03T11:00:00Z',
          attempts: [
            {
              at: '2026-01-03T10:10:00Z',
              statusCode: 500,
              latencyMs: 120,
              error: null,
              responseSnippet: 'Internal <b>error</b>',
              trigger: 'scheduled',
            },
            {
              at: '2026-01-03T10:10:05Z',
              statusCode: null,
              latencyMs: 10000,
              error: 'timeout',
              responseSnippet: '',
              trigger: 'scheduled',
            },
          ],
        }),
        makeDelivery(),
      ],
    });
    await open(s);
    expect(document.title).toMatch(/^Webhook endpoint/);
    expect(screen.getByText('CRM lead sync')).toBeInTheDocument();
    expect(screen.getByText('All events')).toBeInTheDocument();
    expect(screen.getByText('whsec_AbCd…')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: /^Enabled/ })).toBeChecked();

    const list = await screen.findByRole('list', { name: 'Deliveries' });
    const [retrying, done] = within(list).getAllByRole('listitem', { name: /evt_/ });
    if (!retrying || !done) throw new Error('two deliveries expected');
    expect(within(retrying).getByText('Form updated')).toBeInTheDocument();
    expect(within(retrying).getByText('Retrying')).toBeInTheDocument();
    expect(within(retrying).getByText(/form\.updated · evt_2/)).toBeInTheDocument();
    expect(within(retrying).getByText(/next attempt/)).toBeInTheDocument();
    const attempts = within(retrying).getByRole('list', { name: 'Attempts of evt_2' });
    expect(within(attempts).getByText('500')).toBeInTheDocument();
    expect(within(attempts).getByText('120 ms')).toBeInTheDocument();
    const snippet = within(attempts).getByLabelText('Response body of attempt 1');
    expect(snippet.tagName).toBe('PRE');
    expect(snippet).toHaveTextContent('Internal <b>error</b>');
    expect(within(attempts).getByText('Timed out')).toBeInTheDocument();

    expect(within(done).getByText('Succeeded')).toBeInTheDocument();
    expect(within(done).getByText('200')).toBeInTheDocument();
    expect(within(done).getByText('{"ok":true}')).toBeInTheDocument();
    expect(screen.getByText('Latest delivery: Form updated, Retrying')).toBeInTheDocument();
  });

  it('Refresh reads the deliveries again; coming back to the page does too (issue #33 item 14)', async () => {
    const user = userEvent.setup();
    const s = server({ deliveries: [] });
    const { router } = await open(s);
    expect(await screen.findByText(NO_DELIVERIES_TEXT)).toBeInTheDocument();

    // A delivery made elsewhere, nothing pending on the page (so it is not polling): Refresh shows it.
    s.setDeliveries([makeDelivery({ eventId: 'evt_new' })]);
    await user.click(screen.getByRole('button', { name: 'Refresh deliveries' }));
    const list = await screen.findByRole('list', { name: 'Deliveries' });
    expect(within(list).getByRole('listitem', { name: /evt_new/ })).toBeInTheDocument();

    // Away to the list and back within seconds: read again, not the list of the last visit.
    s.setDeliveries([makeDelivery({ eventId: 'evt_newer' }), makeDelivery({ eventId: 'evt_new' })]);
    await router.navigate({ to: '/settings/webhooks' });
    await screen.findByRole('heading', { name: 'Webhooks' });
    const reads = s.fake.calls('GET /api/webhook-endpoints/5/deliveries').length;
    await new Promise((resolve) => setTimeout(resolve, DELIVERIES_JUST_READ_MS));
    await router.navigate({ to: '/settings/webhooks/$endpointId', params: { endpointId: '5' } });
    expect(
      await within(await screen.findByRole('list', { name: 'Deliveries' })).findByRole('listitem', {
        name: /evt_newer/,
      }),
    ).toBeInTheDocument();
    // One read for the visit (the route's), not one more as the page mounts.
    expect(s.fake.calls('GET /api/webhook-endpoints/5/deliveries')).toHaveLength(reads + 1);
  });

  it('with no deliveries, suggests a test event; sending one says so and shows it', async () => {
    const user = userEvent.setup();
    const s = server({ deliveries: [] });
    const test = makeDelivery({
      eventId: 'evt_test',
      eventType: 'webhook.test',
      status: 'pending',
      attempts: [],
    });
    s.fake.on('POST /api/webhook-endpoints/5/send-test', () => {
      s.setDeliveries([test]);
      return [202, test];
    });
    await open(s);
    expect(await screen.findByText(NO_DELIVERIES_TEXT)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send test event' }));
    expect(await screen.findByText('Test event sent')).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Deliveries' });
    expect(within(list).getByText('Test event')).toBeInTheDocument();
    expect(within(list).getByText('Pending')).toBeInTheDocument();
    expect(within(list).getByText('Not attempted yet.')).toBeInTheDocument();

    // Read again while the delivery is on its way, until it is done; the change is announced.
    s.setDeliveries([makeDelivery({ eventId: 'evt_test', eventType: 'webhook.test' })]);
    await waitFor(() => expect(within(list).getByText('Succeeded')).toBeInTheDocument(), {
      timeout: DELIVERY_POLL_MS * 3,
    });
    expect(screen.getByText('Latest delivery: Test event, Succeeded')).toBeInTheDocument();
  });

  it('replays one delivery (the same event) with a toast', async () => {
    const user = userEvent.setup();
    const s = server();
    // The server's answer: how many were queued (one, the event).
    s.fake.on('POST /api/webhook-events/evt_1/replay', [202, { queued: 1 }]);
    await open(s);
    await user.click(await screen.findByRole('button', { name: 'Replay evt_1' }));
    expect(await screen.findByText('Replay queued')).toBeInTheDocument();
    expect(s.fake.calls('POST /api/webhook-events/evt_1/replay')[0]?.body).toEqual({ endpointId: 5 });
  });

  it('a refused replay says why', async () => {
    const user = userEvent.setup();
    const s = server();
    s.fake.on('POST /api/webhook-events/evt_1/replay', [
      400,
      {
        nonFieldErrors: ['This endpoint is disabled. Enable it first, then replay.'],
        MainCode_: 'validation_error',
      },
    ]);
    await open(s);
    await user.click(await screen.findByRole('button', { name: 'Replay evt_1' }));
    expect(await screen.findByText('Failed to replay the event')).toBeInTheDocument();
    expect(screen.getByText('This endpoint is disabled. Enable it first, then replay.')).toBeInTheDocument();
  });

  it('replays failed events of a range and says how many were queued', async () => {
    const user = userEvent.setup();
    const s = server();
    s.fake.on('POST /api/webhook-endpoints/5/replay-failed', [202, { queued: 3 }]);
    await open(s);
    await user.click(screen.getByRole('button', { name: 'Replay failed events' }));
    const dialog = await screen.findByRole('dialog', { name: 'Replay failed events' });
    const from = within(dialog).getByLabelText(/^From/);
    const to = within(dialog).getByLabelText(/^To/);
    await user.clear(from);
    await user.type(from, '2026-01-05T10:00');
    await user.clear(to);
    await user.type(to, '2026-01-04T10:00');
    await user.click(within(dialog).getByRole('button', { name: 'Replay failed events' }));
    expect(
      await within(dialog).findByText('The end of the range must come after its start.'),
    ).toBeInTheDocument();
    expect(s.fake.calls('POST /api/webhook-endpoints/5/replay-failed')).toHaveLength(0);

    await user.clear(to);
    await user.type(to, '2026-01-06T10:00');
    await user.click(within(dialog).getByRole('button', { name: 'Replay failed events' }));
    expect(await screen.findByText('3 events queued for replay.')).toBeInTheDocument();
    expect(s.fake.calls('POST /api/webhook-endpoints/5/replay-failed')[0]?.body).toEqual({
      since: new Date('2026-01-05T10:00').toISOString(),
      until: new Date('2026-01-06T10:00').toISOString(),
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('loads more deliveries after the last one shown', async () => {
    const user = userEvent.setup();
    const s = server();
    s.fake.on('GET /api/webhook-endpoints/5/deliveries', ({ url }) =>
      url.searchParams.get('startingAfter') === 'evt_1'
        ? [200, { results: [makeDelivery({ eventId: 'evt_0', eventType: 'form.created' })], hasMore: false }]
        : [200, { results: [makeDelivery()], hasMore: true }],
    );
    await open(s);
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    const list = screen.getByRole('list', { name: 'Deliveries' });
    expect(await within(list).findByText('Form created')).toBeInTheDocument();
    expect(within(list).getAllByRole('listitem', { name: /evt_/ })).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('reveals the secret on demand, copies it, and keeps it out of the cache', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const s = server();
    s.fake.on('GET /api/webhook-endpoints/5/secret', [200, { secret: SECRET }]);
    const { services } = await open(s);
    expect(s.fake.calls('GET /api/webhook-endpoints/5/secret')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Reveal secret' }));
    const dialog = await screen.findByRole('dialog', { name: 'Signing secret' });
    expect(await within(dialog).findByDisplayValue(SECRET)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Copy secret' }));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    await waitFor(() => expect(within(dialog).getByRole('status')).toHaveTextContent('Secret copied'));
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument();
    await waitFor(() =>
      expect(
        JSON.stringify(
          services.queryClient
            .getMutationCache()
            .getAll()
            .map((m) => m.state),
        ),
      ).not.toContain(SECRET),
    );
    expect(
      JSON.stringify(
        services.queryClient
          .getQueryCache()
          .getAll()
          .map((q) => q.state.data),
      ),
    ).not.toContain(SECRET);
  });

  it('rotates the secret with the chosen overlap', async () => {
    const user = userEvent.setup();
    const s = server();
    s.fake.on('POST /api/webhook-endpoints/5/rotate-secret', () => {
      const rotated = makeEndpoint({ secretPreview: 'whsec_NeWw…' });
      s.setEndpoint(rotated);
      return [200, rotated];
    });
    await open(s);
    await user.click(screen.getByRole('button', { name: 'Rotate secret' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate secret' });
    expect(within(dialog).getByRole('radio', { name: '24 hours' })).toBeChecked();
    await user.click(within(dialog).getByRole('radio', { name: '7 days' }));
    await user.click(within(dialog).getByRole('button', { name: 'Rotate secret' }));
    expect(await screen.findByText('Secret rotated')).toBeInTheDocument();
    expect(s.fake.calls('POST /api/webhook-endpoints/5/rotate-secret')[0]?.body).toEqual({
      overlapHours: 168,
    });
    expect(await screen.findByText('whsec_NeWw…')).toBeInTheDocument();
  });

  it('disables and enables the endpoint with the switch', async () => {
    const user = userEvent.setup();
    const s = server();
    s.fake.on('PATCH /api/webhook-endpoints/5', ({ body }) => {
      const enabled = (body as { enabled: boolean }).enabled;
      const next = makeEndpoint({
        enabled,
        disabledAt: enabled ? null : '2026-01-05T10:00:00Z',
        disabledReason: enabled ? null : 'manual',
      });
      s.setEndpoint(next);
      return [200, next];
    });
    await open(s);
    const toggle = screen.getByRole('switch', { name: /^Enabled/ });
    await user.click(toggle);
    expect(await screen.findByText('Endpoint disabled')).toBeInTheDocument();
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(screen.getByText('Disabled')).toBeInTheDocument();
    expect(s.fake.calls('PATCH /api/webhook-endpoints/5')[0]?.body).toEqual({ enabled: false });
    await user.click(toggle);
    expect(await screen.findByText('Endpoint enabled')).toBeInTheDocument();
    await waitFor(() => expect(toggle).toBeChecked());
  });

  it('edits the endpoint, sending only what changed', async () => {
    const user = userEvent.setup();
    const s = server();
    s.fake.on('PATCH /api/webhook-endpoints/5', () => {
      const next = makeEndpoint({ description: 'Lead sync', eventTypes: ['membership.created'] });
      s.setEndpoint(next);
      return [200, next];
    });
    await open(s);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit endpoint' });
    expect(within(dialog).getByRole('textbox', { name: /^URL/ })).toHaveValue(
      'https://crm.example.com/hooks/veriform',
    );
    const description = within(dialog).getByRole('textbox', { name: /^Description/ });
    await user.clear(description);
    await user.type(description, 'Lead sync');
    await user.click(within(dialog).getByRole('radio', { name: 'Only the events I choose' }));
    await user.click(within(dialog).getByRole('checkbox', { name: /^Team member added/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Endpoint saved')).toBeInTheDocument();
    expect(s.fake.calls('PATCH /api/webhook-endpoints/5')[0]?.body).toEqual({
      description: 'Lead sync',
      eventTypes: ['membership.created'],
    });
    expect(await screen.findByText('Team member added')).toBeInTheDocument();
  });

  it('deletes the endpoint after a confirmation and goes back to the list', async () => {
    const user = userEvent.setup();
    const s = server();
    s.fake.on('DELETE /api/webhook-endpoints/5', () => [204]);
    s.fake.on('GET /api/webhook-endpoints', [200, { results: [] }]);
    const { router } = await open(s);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this endpoint?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(s.fake.calls('DELETE /api/webhook-endpoints/5')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete this endpoint?' })).getByRole('button', {
        name: 'Delete endpoint',
      }),
    );
    expect(await screen.findByText('Endpoint deleted')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/webhooks'));
    expect(await screen.findByText('No endpoints yet')).toBeInTheDocument();
  });

  it('another account’s or an unknown endpoint is not found', async () => {
    const fake = createFakeServer({ 'GET /api/webhook-endpoints/9': [404, { detail: 'Not found.' }] });
    renderApp('/settings/webhooks/9', { initialData: signedIn(), server: fake });
    expect(await screen.findByRole('heading', { name: /not found/i })).toBeInTheDocument();
  });
});
