import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  createFakeServer,
  makeCompanyInfo,
  makeInitialData,
  makeMembership,
  makeUser,
} from '../../../test/fake-server';
import { renderApp } from '../../../test/render';

const ada = makeUser();
const owner = makeMembership();
const member = makeMembership({ role: 'member', canSearchData: false, canViewReports: false });
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });
const info = (phoneCountries: string[]) => makeCompanyInfo({ ...owner.account, phoneCountries });

const section = () => screen.findByRole('region', { name: 'Countries for verification codes' });

// 245 countries in a Mantine MultiSelect: jsdom renders every option on each keystroke.
describe('Company Info: countries for verification codes', { timeout: 20_000 }, () => {
  it('owners add a country by name and save the list', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'GET /api/accounts/21': [200, info(['US'])],
      'PATCH /api/accounts/21': ({ body }) => [
        200,
        info((body as { phoneCountries: string[] }).phoneCountries),
      ],
    });
    renderApp('/settings/company-info', { initialData: signedIn(), server });
    const card = await section();
    expect(await within(card).findByText('United States (US)')).toBeInTheDocument();

    await user.click(within(card).getByLabelText('Countries'));
    await user.type(within(card).getByLabelText('Countries'), 'Cana');
    await user.click(await screen.findByRole('option', { name: 'Canada (CA)' }));
    expect(within(card).getByText('Canada (CA)')).toBeInTheDocument();
    expect(server.calls('PATCH /api/accounts/21')).toHaveLength(0);

    await user.click(within(card).getByRole('button', { name: 'Save countries' }));
    expect(await screen.findByText('Countries saved')).toBeInTheDocument();
    expect(server.calls('PATCH /api/accounts/21')[0]?.body).toEqual({ phoneCountries: ['US', 'CA'] });
  });

  it('an empty list is refused before anything is sent', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({ 'GET /api/accounts/21': [200, info(['US'])] });
    renderApp('/settings/company-info', { initialData: signedIn(), server });
    const card = await section();
    const input = await within(card).findByLabelText('Countries');
    await within(card).findByText('United States (US)');
    await user.click(input);
    await user.keyboard('{Backspace}');
    // The pill is gone: the empty list shows its placeholder.
    await waitFor(() => expect(input).toHaveAttribute('placeholder', 'Search for a country'));
    await user.click(within(card).getByRole('button', { name: 'Save countries' }));
    expect(await within(card).findByText('Choose at least one country.')).toBeInTheDocument();
    expect(server.calls('PATCH /api/accounts/21')).toHaveLength(0);
  });

  it("shows the server's refusal beside the list", async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'GET /api/accounts/21': [200, info(['US'])],
      'PATCH /api/accounts/21': [
        400,
        { 'phoneCountries.0': ['XX is not a country code we know.'], MainCode_: 'validation_error' },
      ],
    });
    renderApp('/settings/company-info', { initialData: signedIn(), server });
    const card = await section();
    await within(card).findByText('United States (US)');
    await user.click(within(card).getByRole('button', { name: 'Save countries' }));
    expect(await within(card).findByText('XX is not a country code we know.')).toBeInTheDocument();
  });

  it('members read the list, and cannot change it', async () => {
    const server = createFakeServer({ 'GET /api/accounts/21': [200, info(['US', 'MX'])] });
    renderApp('/settings/company-info', { initialData: signedIn(member), server });
    const card = await section();
    const list = await within(card).findByRole('list', { name: 'Countries codes are sent to' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['United States (US)', 'Mexico (MX)']);
    expect(within(card).getByText('Only owners can change the countries.')).toBeInTheDocument();
    expect(within(card).queryByLabelText('Countries')).not.toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Save countries' })).not.toBeInTheDocument();
  });
});
