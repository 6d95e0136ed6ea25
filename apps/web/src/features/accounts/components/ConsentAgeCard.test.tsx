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
import { CONSENT_AGE_TEXT } from './ConsentAgeCard';

const ada = makeUser();
const owner = makeMembership();
const member = makeMembership({ role: 'member', canSearchData: true, canViewReports: true });
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });
const info = (consentMaxAgeMonths: number) => makeCompanyInfo({ ...owner.account, consentMaxAgeMonths });

const section = () => screen.findByRole('region', { name: 'Consent age' });
const ageSelect = () => screen.findByRole('combobox', { name: 'Consent stands for' });

describe('Company Info: how long a verification stands as consent', { timeout: 20_000 }, () => {
  it('owners choose 1–60 months; the choice is saved at once, with a toast', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'GET /api/accounts/21': [200, info(18)],
      'PATCH /api/accounts/21': ({ body }) => [
        200,
        info((body as { consentMaxAgeMonths: number }).consentMaxAgeMonths),
      ],
    });
    renderApp('/settings/company-info', { initialData: signedIn(), server });
    const card = await section();
    expect(within(card).getByText(CONSENT_AGE_TEXT)).toBeInTheDocument();
    const select = await ageSelect();
    await waitFor(() => expect(select).toHaveValue('18 months'));

    await user.click(select);
    const choices = await screen.findAllByRole('option');
    expect(choices).toHaveLength(60);
    expect(choices[0]).toHaveTextContent('1 month');
    expect(choices[59]).toHaveTextContent('60 months');
    await user.click(screen.getByRole('option', { name: '24 months' }));

    expect(await screen.findByText('Consent age saved')).toBeInTheDocument();
    expect(screen.getByText('A verification stands as consent for 24 months.')).toBeInTheDocument();
    expect(server.calls('PATCH /api/accounts/21').map((call) => call.body)).toEqual([
      { consentMaxAgeMonths: 24 },
    ]);
    expect(select).toHaveValue('24 months');
  });

  it("shows the server's refusal at the select and goes back to the saved value", async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'GET /api/accounts/21': [200, info(12)],
      'PATCH /api/accounts/21': [
        400,
        {
          consentMaxAgeMonths: ['Ensure this value is less than or equal to 60.'],
          MainCode_: 'validation_error',
        },
      ],
    });
    renderApp('/settings/company-info', { initialData: signedIn(), server });
    const select = await ageSelect();
    await waitFor(() => expect(select).toHaveValue('12 months'));
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: '6 months' }));
    expect(await screen.findByText('Ensure this value is less than or equal to 60.')).toBeInTheDocument();
    expect(select).toHaveValue('12 months');
    expect(select).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Consent age saved')).not.toBeInTheDocument();
  });

  it('members read it; only owners change it', async () => {
    const server = createFakeServer({ 'GET /api/accounts/21': [200, info(1)] });
    renderApp('/settings/company-info', { initialData: signedIn(member), server });
    const card = await section();
    expect(await within(card).findByText('1 month')).toBeInTheDocument();
    expect(within(card).getByText('Only owners can change it.')).toBeInTheDocument();
    expect(within(card).queryByRole('combobox')).toBeNull();
  });
});
