import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ApiKey, apiKeyScopeDescriptions, type CreatedApiKey } from '@veriform/contracts';
import { describe, expect, it, vi } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';
import { apiKeyKeys } from './api';
import { EMPTY_TEXT } from './components/ApiKeys';
import { modeTexts, SCOPES_REQUIRED } from './components/CreateApiKeyModal';
import { SHOWN_ONCE_TEXT } from './components/NewApiKeyModal';

const ada = makeUser();
const owner = makeMembership();
const member = makeMembership({ role: 'member', canSearchData: true, canViewReports: true });
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });

const SECRET = 'vf_test_4uKx9QmZrT2pLw8YbN3cVd7hJ6gFs5aE1oRiUyTqWe0Abc123';

function makeKey(over: Partial<ApiKey> = {}): ApiKey {
  return {
    id: 7,
    account: 21,
    name: 'CRM sync',
    mode: 'live',
    prefix: 'vf_live_AbCd',
    scopes: ['verifications:write', 'forms:read'],
    created: '2026-01-02T10:00:00Z',
    lastUsedAt: '2026-01-03T11:30:00Z',
    lastUsedIp: '203.0.113.7',
    revokedAt: null,
    createdBy: { id: 3, name: 'Grace Hopper', email: 'grace@example.com' },
    ...over,
  };
}

/** A server that keeps its list, so a refetch after a change shows the change. */
function server(initial: ApiKey[] = [makeKey()]) {
  let keys = [...initial];
  const fake = createFakeServer({
    'GET /api/api-keys': () => [200, { results: keys }],
  });
  return {
    fake,
    set(next: ApiKey[]) {
      keys = next;
    },
    get keys() {
      return keys;
    },
  };
}

const page = () => screen.findByRole('heading', { name: 'API keys', level: 2 });

describe('Settings → API keys', () => {
  it('lists the keys: name, mode, prefix, scopes, creator, last use, status; only active ones can be revoked', async () => {
    const s = server([
      makeKey(),
      makeKey({
        id: 6,
        name: 'Old import',
        mode: 'test',
        prefix: 'vf_test_ZyXw',
        scopes: ['verifications:read'],
        lastUsedAt: null,
        lastUsedIp: null,
        revokedAt: '2026-01-05T09:00:00Z',
        createdBy: null,
      }),
    ]);
    renderApp('/settings/api-keys', { initialData: signedIn(), server: s.fake });
    const table = await screen.findByRole('table', { name: 'API keys' });
    const [, crm, old] = within(table).getAllByRole('row');
    if (!crm || !old) throw new Error('two rows expected');
    expect(within(crm).getByText('CRM sync')).toBeInTheDocument();
    expect(within(crm).getByText('Live')).toBeInTheDocument();
    expect(within(crm).getByText('vf_live_AbCd…')).toBeInTheDocument();
    expect(within(crm).getByText('verifications:write')).toBeInTheDocument();
    expect(within(crm).getByText('forms:read')).toBeInTheDocument();
    expect(within(crm).getByText('203.0.113.7')).toBeInTheDocument();
    expect(within(crm).getByText('Active')).toBeInTheDocument();
    // Created by: the name, else the address; "—" when unknown (ADR 30).
    expect(within(crm).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(old).getByText('—')).toBeInTheDocument();
    expect(within(crm).getByRole('button', { name: 'Revoke CRM sync' })).toBeInTheDocument();

    expect(within(old).getByText('Test')).toBeInTheDocument();
    expect(within(old).getByText('Never')).toBeInTheDocument();
    expect(within(old).getByText(/^Revoked on/)).toBeInTheDocument();
    expect(within(old).queryByRole('button')).not.toBeInTheDocument();

    expect(screen.getByRole('link', { name: 'API reference' })).toHaveAttribute('href', '/docs/api');
    expect(document.title).toMatch(/^API keys/);
  });

  it('with no keys, says what keys are for and offers to create one', async () => {
    const user = userEvent.setup();
    const s = server([]);
    renderApp('/settings/api-keys', { initialData: signedIn(), server: s.fake });
    expect(await screen.findByText('No API keys yet')).toBeInTheDocument();
    expect(screen.getByText(EMPTY_TEXT)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create API key' }));
    expect(await screen.findByRole('dialog', { name: 'Create API key' })).toBeInTheDocument();
  });

  it('shows a skeleton while the keys load', async () => {
    let answer: (value: [number, unknown]) => void = () => undefined;
    const fake = createFakeServer({
      'GET /api/api-keys': () =>
        new Promise<[number, unknown]>((resolve) => {
          answer = resolve;
        }),
    });
    renderApp('/settings/api-keys', { initialData: signedIn(), server: fake });
    expect(await screen.findByLabelText('Loading API keys')).toHaveAttribute('aria-busy', 'true');
    answer([200, { results: [makeKey()] }]);
    expect(await screen.findByRole('table', { name: 'API keys' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading API keys')).not.toBeInTheDocument();
  });

  it('creates a key and shows its secret once; the list shows only the prefix', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const s = server([]);
    const listed = makeKey({
      id: 8,
      name: 'Lead form',
      mode: 'test',
      prefix: SECRET.slice(0, 12),
      scopes: ['verifications:write', 'forms:read'],
      created: '2026-01-04T08:00:00Z',
      lastUsedAt: null,
      lastUsedIp: null,
    });
    s.fake.on('POST /api/api-keys', () => {
      s.set([listed]);
      const created: CreatedApiKey = { ...listed, key: SECRET };
      return [201, created];
    });
    const { services } = renderApp('/settings/api-keys', { initialData: signedIn(), server: s.fake });
    await user.click(await screen.findByRole('button', { name: 'Create API key' }));
    const form = await screen.findByRole('dialog', { name: 'Create API key' });

    // Test is the default; the line under the control says what test mode does.
    expect(within(form).getByRole('radio', { name: 'Test' })).toBeChecked();
    expect(within(form).getByText(modeTexts.test)).toBeInTheDocument();
    await user.click(within(form).getByText('Live'));
    expect(within(form).getByText(modeTexts.live)).toBeInTheDocument();
    await user.click(within(form).getByText('Test'));

    await user.type(within(form).getByRole('textbox', { name: /^Name/ }), 'Lead form');
    expect(within(form).getByText(apiKeyScopeDescriptions['forms:read'])).toBeInTheDocument();
    await user.click(within(form).getByRole('checkbox', { name: 'verifications:write' }));
    await user.click(within(form).getByRole('checkbox', { name: 'forms:read' }));
    await user.click(within(form).getByRole('button', { name: 'Create key' }));

    const shown = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(s.fake.calls('POST /api/api-keys')[0]?.body).toEqual({
      account: 21,
      name: 'Lead form',
      mode: 'test',
      scopes: ['verifications:write', 'forms:read'],
    });
    expect(within(shown).getByText(SHOWN_ONCE_TEXT)).toBeInTheDocument();
    expect(within(shown).getByRole('textbox', { name: 'Secret key' })).toHaveValue(SECRET);
    expect(screen.queryByRole('dialog', { name: 'Create API key' })).not.toBeInTheDocument();

    const status = within(shown).getByRole('status');
    expect(status).toHaveTextContent('');
    await user.click(within(shown).getByRole('button', { name: 'Copy key' }));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect(await within(shown).findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await waitFor(() => expect(status).toHaveTextContent('API key copied'));

    // Escape does not lose the key by accident; Done does close it.
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Your new API key' })).toBeInTheDocument();
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const table = await screen.findByRole('table', { name: 'API keys' });
    expect(within(table).getByText('Lead form')).toBeInTheDocument();
    expect(within(table).getByText(`${SECRET.slice(0, 12)}…`)).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(SECRET);
    expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument();
    // The secret reached neither the list's cache nor the mutation cache.
    expect(JSON.stringify(services.queryClient.getQueryData(apiKeyKeys.list(21)))).not.toContain(SECRET);
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
  });

  it('asks for a name and a scope before sending; the server’s refusals show beside the fields', async () => {
    const user = userEvent.setup();
    const s = server();
    s.fake.on('POST /api/api-keys', [
      400,
      {
        name: ['Line breaks and control characters are not allowed.'],
        mode: ["Invalid enum value. Expected 'live' | 'test'"],
        scopes: ['Each scope may be named once.'],
        MainCode_: 'validation_error',
      },
    ]);
    renderApp('/settings/api-keys', { initialData: signedIn(), server: s.fake });
    await page();
    await user.click(await screen.findByRole('button', { name: 'Create API key' }));
    const form = await screen.findByRole('dialog', { name: 'Create API key' });
    const name = within(form).getByRole('textbox', { name: /^Name/ });

    await user.click(within(form).getByRole('button', { name: 'Create key' }));
    expect(await within(form).findByText('Required')).toBeInTheDocument();
    expect(within(form).getByText(SCOPES_REQUIRED)).toBeInTheDocument();
    expect(within(form).getByRole('group', { name: /^Scopes/ })).toHaveAccessibleDescription(
      expect.stringContaining(SCOPES_REQUIRED),
    );
    await waitFor(() => expect(name).toHaveFocus());
    expect(s.fake.calls('POST /api/api-keys')).toHaveLength(0);

    await user.type(name, 'CRM sync');
    await user.click(within(form).getByRole('checkbox', { name: 'verifications:read' }));
    expect(within(form).queryByText(SCOPES_REQUIRED)).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Create key' }));
    expect(
      await within(form).findByText('Line breaks and control characters are not allowed.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(within(form).getByRole('radiogroup', { name: 'Mode' })).toHaveAccessibleDescription(
      expect.stringContaining("Invalid enum value. Expected 'live' | 'test'"),
    );
    expect(within(form).getByRole('group', { name: /^Scopes/ })).toHaveAccessibleDescription(
      expect.stringContaining('Each scope may be named once.'),
    );
    // Shown beside the fields only, not again in the form's error block.
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Your new API key' })).not.toBeInTheDocument();
  });

  it('a refusal of the whole request (too many keys) shows above the form, which stays open', async () => {
    const user = userEvent.setup();
    const s = server();
    const tooMany = 'An account can have at most 50 active API keys. Revoke one you no longer use first.';
    s.fake.on('POST /api/api-keys', [400, { nonFieldErrors: [tooMany], MainCode_: 'validation_error' }]);
    renderApp('/settings/api-keys', { initialData: signedIn(), server: s.fake });
    await user.click(await screen.findByRole('button', { name: 'Create API key' }));
    const form = await screen.findByRole('dialog', { name: 'Create API key' });
    await user.type(within(form).getByRole('textbox', { name: /^Name/ }), 'One more');
    await user.click(within(form).getByRole('checkbox', { name: 'forms:read' }));
    await user.click(within(form).getByRole('button', { name: 'Create key' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(tooMany);
    expect(within(form).getByRole('textbox', { name: /^Name/ })).toHaveValue('One more');
  });

  it('revokes a key after a confirmation naming it; the row then says Revoked', async () => {
    const user = userEvent.setup();
    const s = server();
    s.fake.on('DELETE /api/api-keys/7', () => {
      s.set([makeKey({ revokedAt: '2026-01-06T12:00:00Z' })]);
      return [204];
    });
    renderApp('/settings/api-keys', { initialData: signedIn(), server: s.fake });
    await user.click(await screen.findByRole('button', { name: 'Revoke CRM sync' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke “CRM sync”?' });
    expect(
      within(dialog).getByText('Requests using it will fail at once. This can’t be undone.'),
    ).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(s.fake.calls('DELETE /api/api-keys/7')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Revoke CRM sync' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Revoke “CRM sync”?' })).getByRole('button', {
        name: 'Revoke key',
      }),
    );
    expect(await screen.findByText('API key revoked')).toBeInTheDocument();
    expect(s.fake.calls('DELETE /api/api-keys/7')).toHaveLength(1);
    const table = screen.getByRole('table', { name: 'API keys' });
    expect(await within(table).findByText(/^Revoked on/)).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Revoke CRM sync' })).not.toBeInTheDocument();
  });

  it('a refused revoke shows an error toast', async () => {
    const user = userEvent.setup();
    const s = server();
    s.fake.on('DELETE /api/api-keys/7', [404, { detail: 'Not found.' }]);
    renderApp('/settings/api-keys', { initialData: signedIn(), server: s.fake });
    await user.click(await screen.findByRole('button', { name: 'Revoke CRM sync' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke “CRM sync”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke key' }));
    expect(await screen.findByText('Failed to revoke the API key')).toBeInTheDocument();
  });

  it('a failed load says so and can be tried again', async () => {
    const user = userEvent.setup();
    const fake = createFakeServer({ 'GET /api/api-keys': [404, { detail: 'Not found.' }] });
    renderApp('/settings/api-keys', { initialData: signedIn(), server: fake });
    expect(await screen.findByRole('alert')).toHaveTextContent('The API keys could not be loaded');
    fake.on('GET /api/api-keys', [200, { results: [makeKey()] }]);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'API keys' })).toBeInTheDocument();
  });
});

describe('API keys are the owners’', () => {
  it('owners see the tab', async () => {
    renderApp('/settings/my-account', { initialData: signedIn(), server: server().fake });
    expect(await screen.findByRole('tab', { name: 'API keys' })).toBeInTheDocument();
  });

  it('members see no tab', async () => {
    const s = server();
    renderApp('/settings/my-account', { initialData: signedIn(member), server: s.fake });
    expect(await screen.findByRole('tab', { name: 'My Account' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'API keys' })).not.toBeInTheDocument();
  });

  it('a member who types the address gets the permission screen, and nothing is asked of the server', async () => {
    const s = server();
    renderApp('/settings/api-keys', { initialData: signedIn(member), server: s.fake });
    expect(await screen.findByText('Sorry, you do not have access to this page.')).toBeInTheDocument();
    expect(s.fake.calls('GET /api/api-keys')).toHaveLength(0);
  });

  it('an owner demoted meanwhile (the server answers 403) gets the permission screen', async () => {
    const fake = createFakeServer({
      'GET /api/api-keys': [403, { detail: 'You are not permitted to perform that action.' }],
    });
    renderApp('/settings/api-keys', { initialData: signedIn(), server: fake });
    expect(await screen.findByText('Sorry, you do not have access to this page.')).toBeInTheDocument();
  });
});
