import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RetentionPolicy } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';
import { RETENTION_TEXT } from './components/RetentionCard';

const ada = makeUser();
const owner = makeMembership();
const member = makeMembership({ role: 'member', canSearchData: true, canViewReports: true });
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });

const policy = (over: Partial<RetentionPolicy> = {}): RetentionPolicy => ({
  years: 5,
  confirmBelowFour: false,
  belowFourConfirmedAt: null,
  cutoff: '2021-12-01T04:23:00.000Z',
  nextPurgeAt: '2026-12-01T04:23:00.000Z',
  lastPurge: null,
  ...over,
});
const URL = '/api/accounts/21/retention';

const section = () => screen.findByRole('region', { name: 'Evidence retention' });
const yearsSelect = () => screen.findByRole('combobox', { name: 'Keep evidence for' });

describe('Company Info: evidence retention', { timeout: 20_000 }, () => {
  it('owners choose 1–10 years; 4 or more is saved at once, with a toast', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      [`GET ${URL}`]: [200, policy()],
      [`PUT ${URL}`]: ({ body }) => [200, policy({ years: (body as { years: number }).years })],
    });
    renderApp('/settings/company-info', { initialData: signedIn(), server });
    const card = await section();
    expect(within(card).getByText(RETENTION_TEXT)).toBeInTheDocument();
    expect(await within(card).findByText('Nothing has been purged yet.')).toBeInTheDocument();
    const select = await yearsSelect();
    await waitFor(() => expect(select).toHaveValue('5 years (default)'));

    await user.click(select);
    const choices = await screen.findAllByRole('option');
    expect(choices).toHaveLength(10);
    expect(choices[0]).toHaveTextContent('1 year');
    expect(choices[9]).toHaveTextContent('10 years');
    await user.click(screen.getByRole('option', { name: '4 years' }));

    expect(await screen.findByText('Retention saved')).toBeInTheDocument();
    expect(screen.getByText('Evidence is kept for 4 years.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.calls(`PUT ${URL}`).map((call) => call.body)).toEqual([{ years: 4 }]);
  });

  it('below four years a dialog names the TCPA’s four years: cancel keeps the policy, confirm saves it', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      [`GET ${URL}`]: [200, policy({ years: 6 })],
      [`PUT ${URL}`]: ({ body }) => [
        200,
        policy({
          years: (body as { years: number }).years,
          confirmBelowFour: true,
          belowFourConfirmedAt: '2026-11-30T02:00:00.000Z',
        }),
      ],
    });
    renderApp('/settings/company-info', { initialData: signedIn(), server });
    const select = await yearsSelect();
    await waitFor(() => expect(select).toHaveValue('6 years'));

    await user.click(select);
    await user.click(await screen.findByRole('option', { name: '3 years' }));
    const dialog = await screen.findByRole('dialog', { name: 'Keep evidence for less than four years?' });
    expect(dialog).toHaveTextContent("TCPA's four-year limitation period");
    expect(dialog).toHaveTextContent('28 U.S.C. §1658(a)');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(select).toHaveValue('6 years');
    expect(server.calls(`PUT ${URL}`)).toHaveLength(0);

    await user.click(select);
    await user.click(await screen.findByRole('option', { name: '3 years' }));
    const again = await screen.findByRole('dialog', { name: 'Keep evidence for less than four years?' });
    await user.click(within(again).getByRole('button', { name: 'Keep 3 years' }));
    expect(await screen.findByText('Retention saved')).toBeInTheDocument();
    expect(server.calls(`PUT ${URL}`).map((call) => call.body)).toEqual([
      { years: 3, confirmBelowFour: true },
    ]);
    expect(
      await screen.findByText(/Below the TCPA’s four-year limitation period: confirmed/),
    ).toBeInTheDocument();
  });

  it('shows the last purge, and the server’s refusal at the select', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      [`GET ${URL}`]: [
        200,
        policy({
          lastPurge: {
            ranAt: '2026-11-29T04:23:00.000Z',
            cutoff: '2021-11-29T04:23:00.000Z',
            years: 5,
            removed: { verifications: 1204, attempts: 2500 },
            held: 3,
          },
        }),
      ],
      [`PUT ${URL}`]: [
        400,
        { years: ['Ensure this value is less than or equal to 10.'], MainCode_: 'validation_error' },
      ],
    });
    renderApp('/settings/company-info', { initialData: signedIn(), server });
    const card = await section();
    expect(await within(card).findByTestId('last-purge')).toHaveTextContent(
      /1,204 verifications removed, 3 kept under legal holds/,
    );
    const select = await yearsSelect();
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: '7 years' }));
    expect(await screen.findByText('Ensure this value is less than or equal to 10.')).toBeInTheDocument();
    expect(select).toHaveValue('5 years (default)');
  });

  it('a read that fails says so; members read it, only owners change it', async () => {
    const failing = createFakeServer({ [`GET ${URL}`]: [500, { detail: 'Server error.' }] });
    const first = renderApp('/settings/company-info', { initialData: signedIn(), server: failing });
    expect(await within(await section()).findByRole('alert')).toHaveTextContent(
      'The retention policy could not be loaded',
    );
    first.unmount();

    const server = createFakeServer({ [`GET ${URL}`]: [200, policy({ years: 7 })] });
    renderApp('/settings/company-info', { initialData: signedIn(member), server });
    const card = await section();
    expect(await within(card).findByText('7 years')).toBeInTheDocument();
    expect(within(card).getByText('Only owners can change it.')).toBeInTheDocument();
    expect(within(card).queryByRole('combobox')).toBeNull();
  });
});
