import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { VerifyForm } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';

const ada = makeUser();
const owner = makeMembership();
const signedIn = () => makeInitialData({ user: ada, memberships: [owner], currentMembership: owner });

function makeForm(over: Partial<VerifyForm> = {}): VerifyForm {
  return {
    id: 7,
    publicId: 'pub-7',
    name: 'Onboarding check',
    account: 21,
    isLive: false,
    language: 'en',
    category: 'Onboarding',
    created: '2026-01-05T10:00:00Z',
    bannerImage: null,
    publicUrl: '/f/pub-7',
    ...over,
  };
}

const list = (results: VerifyForm[], count = results.length) => ({
  count,
  pageNumber: 1,
  pageSize: 25,
  results,
});

function server(forms: VerifyForm[] = [makeForm()], extra: Parameters<typeof createFakeServer>[0] = {}) {
  return createFakeServer({
    'GET /api/verify-forms': [200, list(forms)],
    'GET /api/verify-forms/categories': [200, { results: ['Onboarding', 'Payments'] }],
    ...extra,
  });
}

describe('/forms/', () => {
  it('bad search params fall back: the API gets the defaults', async () => {
    const fake = server();
    renderApp('/forms/?status=bogus&language=xx&created__date__preset=nope&pageNumber=-3&q=', {
      initialData: signedIn(),
      server: fake,
    });
    expect(await screen.findByRole('table', { name: 'Forms' })).toBeInTheDocument();
    const [request] = fake.calls('GET /api/verify-forms');
    if (!request) throw new Error('no list call');
    const params = Object.fromEntries(request.url.searchParams);
    expect(params).toMatchObject({
      account: '21',
      status: 'all',
      language: 'all',
      created__date__preset: 'all',
      pageNumber: '1',
      pageSize: '25',
    });
    expect(params.q).toBeUndefined();
    expect(screen.getByRole('link', { name: 'Onboarding check' })).toHaveAttribute('href', '/forms/7');
  });

  it('filters write to the URL and reach the API', async () => {
    const user = userEvent.setup();
    const fake = server();
    const { router } = renderApp('/forms/', { initialData: signedIn(), server: fake });
    await screen.findByRole('table', { name: 'Forms' });

    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Active' }));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ status: 'active' }));

    await user.click(screen.getByRole('combobox', { name: 'Created' }));
    await user.click(await screen.findByRole('option', { name: 'Custom range' }));
    await waitFor(() =>
      expect(router.state.location.search).toMatchObject({ created__date__preset: 'custom' }),
    );
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-01-01' } });
    await waitFor(() =>
      expect(router.state.location.search).toMatchObject({ created__date__gte: '2026-01-01' }),
    );

    await user.type(screen.getByRole('searchbox', { name: 'Search forms' }), 'onb');
    await waitFor(() => expect(router.state.location.search).toMatchObject({ q: 'onb' }), { timeout: 2000 });
    await waitFor(() => {
      const last = fake.calls('GET /api/verify-forms').at(-1);
      expect(Object.fromEntries(last?.url.searchParams ?? [])).toMatchObject({
        status: 'active',
        created__date__preset: 'custom',
        created__date__gte: '2026-01-01',
        q: 'onb',
      });
    });
  });

  it('New form creates the form and opens its page', async () => {
    const user = userEvent.setup();
    const created = makeForm({ id: 9, name: 'Payments check', category: 'Payments', language: 'es' });
    const fake = server([makeForm()], {
      'POST /api/verify-forms': [201, created],
      'GET /api/verify-forms/9': [200, created],
    });
    const { router } = renderApp('/forms/', { initialData: signedIn(), server: fake });
    await user.click(await screen.findByRole('button', { name: 'New form' }));
    const dialog = await screen.findByRole('dialog', { name: 'New form' });
    await user.click(within(dialog).getByRole('button', { name: 'Create form' }));
    expect(await within(dialog).findByText('Required')).toBeInTheDocument();
    expect(fake.calls('POST /api/verify-forms')).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Payments check');
    await user.click(within(dialog).getByRole('combobox', { name: 'Language' }));
    await user.click(await screen.findByRole('option', { name: 'Spanish' }));
    await user.type(within(dialog).getByLabelText('Category'), 'Payments');
    await user.click(within(dialog).getByRole('button', { name: 'Create form' }));
    expect(await screen.findByText('Form created')).toBeInTheDocument();
    expect(fake.calls('POST /api/verify-forms')[0]?.body).toEqual({
      name: 'Payments check',
      account: 21,
      language: 'es',
      category: 'Payments',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/forms/9'));
    expect(await screen.findByRole('heading', { name: 'Payments check', level: 1 })).toBeInTheDocument();
  });

  it('the Active switch turns on at once and goes back when the server refuses', async () => {
    const user = userEvent.setup();
    let stored = makeForm();
    let refuse = false;
    const fake = server([], {
      'GET /api/verify-forms': () => [200, list([stored])],
      'PATCH /api/verify-forms/7': ({ body }) => {
        if (refuse) return [500, { detail: 'Boom' }];
        stored = { ...stored, ...(body as Partial<VerifyForm>) };
        return [200, stored];
      },
    });
    renderApp('/forms/', { initialData: signedIn(), server: fake });
    const toggle = () => screen.getByRole('switch', { name: 'Active: Onboarding check' });
    await screen.findByRole('switch', { name: 'Active: Onboarding check' });
    expect(toggle()).not.toBeChecked();
    await user.click(toggle());
    await waitFor(() => expect(toggle()).toBeChecked());
    expect(await screen.findByText('Form activated')).toBeInTheDocument();
    expect(fake.calls('PATCH /api/verify-forms/7')[0]?.body).toEqual({ isLive: true });

    refuse = true;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    fake.on('PATCH /api/verify-forms/7', async () => {
      await held;
      return [500, { detail: 'Boom' }];
    });
    await user.click(toggle());
    await waitFor(() => expect(toggle()).not.toBeChecked());
    release();
    expect(await screen.findByText('Failed to deactivate the form')).toBeInTheDocument();
    await waitFor(() => expect(toggle()).toBeChecked());
  });

  it('switching accounts shows the other account’s forms', async () => {
    const other = makeMembership({
      id: 12,
      account: { id: 22, displayName: 'Beta Ltd', uploadedProfileImage: null },
    });
    const fake = server([], {
      'GET /api/verify-forms': ({ url }) =>
        url.searchParams.get('account') === '22'
          ? [200, list([makeForm({ id: 8, account: 22, name: 'Beta form' })])]
          : [200, list([makeForm()])],
    });
    const { services } = renderApp('/forms/', {
      initialData: makeInitialData({ user: ada, memberships: [owner, other], currentMembership: owner }),
      server: fake,
    });
    expect(await screen.findByRole('link', { name: 'Onboarding check' })).toBeInTheDocument();
    act(() => services.session.selectMembership(other));
    expect(await screen.findByRole('link', { name: 'Beta form' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Onboarding check' })).not.toBeInTheDocument();
  });

  it('an account without forms explains what a form is', async () => {
    renderApp('/forms/', { initialData: signedIn(), server: server([]) });
    expect(await screen.findByText(/A verification form is a hosted page/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New form' })).toBeInTheDocument();
    expect(screen.queryByText('No forms match these filters')).not.toBeInTheDocument();
  });

  it('filters that hide everything offer Clear filters', async () => {
    const user = userEvent.setup();
    const fake = server([]);
    const { router } = renderApp('/forms/?language=es&q=zzz', { initialData: signedIn(), server: fake });
    expect(await screen.findByText('No forms match these filters')).toBeInTheDocument();
    expect(screen.queryByText(/A verification form is a hosted page/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
  });
});

describe('/forms/$verifyFormId', () => {
  it('edits the form, and uploads and deletes its banner', async () => {
    const user = userEvent.setup();
    const banner = `/media/${'c'.repeat(64)}.webp`;
    const fake = server([makeForm()], {
      'GET /api/verify-forms/7': [200, makeForm()],
      'PATCH /api/verify-forms/7': ({ body }) => [200, makeForm(body as Partial<VerifyForm>)],
      'PATCH /api/verify-forms/7/update-banner-image': [200, makeForm({ bannerImage: banner })],
      'PATCH /api/verify-forms/7/delete-banner-image': [200, makeForm()],
    });
    renderApp('/forms/7', { initialData: signedIn(), server: fake });
    expect(await screen.findByRole('heading', { name: 'Onboarding check', level: 1 })).toBeInTheDocument();
    const breadcrumb = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(breadcrumb).getByRole('link', { name: 'Forms' })).toHaveAttribute('href', '/forms/');
    expect(screen.getByRole('textbox', { name: 'Public link' })).toHaveValue('http://localhost:3000/f/pub-7');
    expect(screen.getByRole('link', { name: 'Open form' })).toHaveAttribute('target', '_blank');

    const name = screen.getByRole('textbox', { name: /^Name/ });
    await user.clear(name);
    await user.type(name, 'KYC check');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Form saved')).toBeInTheDocument();
    expect(fake.calls('PATCH /api/verify-forms/7')[0]?.body).toEqual({
      name: 'KYC check',
      language: 'en',
      category: 'Onboarding',
    });
    expect(await screen.findByRole('heading', { name: 'KYC check', level: 1 })).toBeInTheDocument();

    expect(screen.getByRole('button', { name: 'Delete banner' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Upload banner' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload image' });
    const file = new File(['x'], 'banner.png', { type: 'image/png' });
    fireEvent.change(within(dialog).getByLabelText('Image file'), { target: { files: [file] } });
    const save = within(dialog).getByRole('button', { name: 'Save' });
    await waitFor(() => expect(save).toBeEnabled());
    await user.click(save);
    expect(await screen.findByRole('img', { name: 'Banner' })).toHaveAttribute('src', banner);
    const [upload] = fake.calls('PATCH /api/verify-forms/7/update-banner-image');
    if (!upload) throw new Error('no upload was sent');
    expect((upload.body as FormData).get('bannerImage')).toBeInstanceOf(File);

    await user.click(screen.getByRole('button', { name: 'Delete banner' }));
    expect(await screen.findByText('Banner deleted')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Banner' })).not.toBeInTheDocument();
  });

  it('deletes the form after confirming; a refusal shows the server text', async () => {
    const user = userEvent.setup();
    const fake = server([makeForm()], {
      'GET /api/verify-forms/7': [200, makeForm()],
      'DELETE /api/verify-forms/7': [400, { detail: 'This form has verifications.' }],
    });
    const { router } = renderApp('/forms/7', { initialData: signedIn(), server: fake });
    await user.click(await screen.findByRole('button', { name: 'Delete form' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete Onboarding check?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('This form has verifications.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/forms/7');

    fake.on('DELETE /api/verify-forms/7', [204]);
    await user.click(screen.getByRole('button', { name: 'Delete form' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete Onboarding check?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Form deleted')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/forms/'));
  });

  it('a non-numeric id or another account’s form is not found', async () => {
    renderApp('/forms/abc', { initialData: signedIn(), server: server() });
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
  });

  it('an unknown id is not found', async () => {
    renderApp('/forms/99', { initialData: signedIn(), server: server() });
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
  });

  const beta = makeMembership({
    id: 12,
    account: { id: 22, displayName: 'Beta Ltd', uploadedProfileImage: null },
  });
  const twoAccounts = (current = owner) =>
    makeInitialData({ user: ada, memberships: [owner, beta], currentMembership: current });
  const perAccount = () =>
    server([], {
      'GET /api/verify-forms': ({ url }) =>
        url.searchParams.get('account') === '22'
          ? [200, list([makeForm({ id: 8, account: 22, name: 'Beta form' })])]
          : [200, list([makeForm()])],
      // The server answers a form of any of the user's accounts (its own account in the body).
      'GET /api/verify-forms/7': [200, makeForm()],
    });

  it('switching company from a form goes to the forms of the new company', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/forms/7', { initialData: twoAccounts(), server: perAccount() });
    expect(await screen.findByRole('heading', { name: 'Onboarding check', level: 1 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^Account menu/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Current company: Acme Corp' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Beta Ltd' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/forms/'));
    expect(await screen.findByRole('link', { name: 'Beta form' })).toBeInTheDocument();
    expect(screen.queryByText('Onboarding check')).not.toBeInTheDocument();
  });

  it('a form of another of the user’s companies (after a reload, or Back) gives the current company’s forms', async () => {
    const { router } = renderApp('/forms/7', { initialData: twoAccounts(beta), server: perAccount() });
    expect(await screen.findByRole('link', { name: 'Beta form' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/forms/');
    expect(screen.queryByText('Onboarding check')).not.toBeInTheDocument();
  });

  it('a company switched elsewhere (another tab’s choice, a removal) while the form is open leaves it too', async () => {
    const { router, services } = renderApp('/forms/7', { initialData: twoAccounts(), server: perAccount() });
    expect(await screen.findByRole('heading', { name: 'Onboarding check', level: 1 })).toBeInTheDocument();
    act(() => services.session.selectMembership(beta));
    await waitFor(() => expect(router.state.location.pathname).toBe('/forms/'));
    expect(await screen.findByRole('link', { name: 'Beta form' })).toBeInTheDocument();
  });
});
