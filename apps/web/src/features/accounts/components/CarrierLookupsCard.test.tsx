import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LookupSettings } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import {
  type Answer,
  createFakeServer,
  makeCompanyInfo,
  makeInitialData,
  makeMembership,
  makeUser,
} from '../../../test/fake-server';
import { renderApp } from '../../../test/render';
import { CARRIER_LOOKUPS_OWNERS_ONLY, CARRIER_LOOKUPS_TEXT } from './CarrierLookupsCard';

const ada = makeUser();
const owner = makeMembership();
const member = makeMembership({ role: 'member', canSearchData: true, canViewReports: true });
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });
const companyInfo = makeCompanyInfo({ ...owner.account, consentMaxAgeMonths: 12 });
const settings = (over: Partial<LookupSettings> = {}): LookupSettings => ({
  lineType: false,
  simSwap: false,
  simSwapWindowDays: 7,
  refuseOnSimSwap: false,
  reassignedChecks: false,
  reassignedMaxAgeDays: 30,
  monthlyCeiling: { lineType: 1000, simSwap: 1000, reassigned: 1000 },
  thisMonth: { lineType: 0, simSwap: 12, reassigned: 412 },
  ...over,
});

const LOOKUPS = 'GET /api/accounts/21/lookups';
const SAVE = 'PATCH /api/accounts/21/lookups';
const section = () => screen.findByRole('region', { name: 'Carrier lookups' });

function open(handlers: Parameters<typeof createFakeServer>[0], membership = owner) {
  const server = createFakeServer({ 'GET /api/accounts/21': [200, companyInfo], ...handlers });
  renderApp('/settings/company-info', { initialData: signedIn(membership), server });
  return server;
}

/** A promise the test settles: a request that stays in flight until then. */
function held() {
  let settle: (answer: Answer) => void = () => {};
  const answer = new Promise<Answer>((resolve) => {
    settle = resolve;
  });
  return { answer, settle };
}

describe('Company Info: carrier lookups', { timeout: 20_000 }, () => {
  it('owners turn checks on, change a ceiling and save; the card shows what the server answered', async () => {
    const user = userEvent.setup();
    const server = open({
      [LOOKUPS]: [200, settings()],
      [SAVE]: ({ body }) => {
        const sent = body as { reassignedChecks: boolean; monthlyCeiling: { reassigned: number } };
        const answer: Answer = [
          200,
          settings({
            reassignedChecks: sent.reassignedChecks,
            monthlyCeiling: { lineType: 1000, simSwap: 1000, reassigned: sent.monthlyCeiling.reassigned },
            thisMonth: { lineType: 0, simSwap: 12, reassigned: 413 },
          }),
        ];
        return answer;
      },
    });
    const card = await section();
    expect(within(card).getByText(CARRIER_LOOKUPS_TEXT)).toBeInTheDocument();
    const checks = await within(card).findByRole('switch', {
      name: 'Check verified numbers for reassignment',
    });
    expect(checks).not.toBeChecked();
    // What each costs is the switch's description.
    expect(checks).toHaveAccessibleDescription(/billed by Twilio/);
    const ceiling = within(card).getByRole('textbox', { name: 'Reassignment checks a month, at most' });
    expect(ceiling).toHaveValue('1000');
    expect(ceiling).toHaveAccessibleDescription(/^412 of 1,000 this month\./);
    expect(within(card).getByRole('group', { name: 'Reassigned numbers' })).toContainElement(ceiling);

    await user.click(checks);
    await user.clear(ceiling);
    await user.type(ceiling, '2500');
    await user.click(within(card).getByRole('button', { name: 'Save carrier lookups' }));

    expect(await screen.findByText('Carrier lookups saved')).toBeInTheDocument();
    expect(server.calls(SAVE).map((call) => call.body)).toEqual([
      {
        lineType: false,
        simSwap: false,
        simSwapWindowDays: 7,
        refuseOnSimSwap: false,
        reassignedChecks: true,
        reassignedMaxAgeDays: 30,
        monthlyCeiling: { lineType: 1000, simSwap: 1000, reassigned: 2500 },
      },
    ]);
    // The answer is the read now: this month's count and the ceiling as saved, without another GET.
    await waitFor(() => expect(ceiling).toHaveAccessibleDescription(/^413 of 2,500 this month\./));
    expect(checks).toBeChecked();
    expect(server.calls(LOOKUPS)).toHaveLength(1);
  });

  it("shows the server's refusal beside its field, and saves nothing more", async () => {
    const user = userEvent.setup();
    const server = open({
      [LOOKUPS]: [200, settings()],
      [SAVE]: [
        400,
        {
          simSwapWindowDays: ['Number must be less than or equal to 90'],
          MainCode_: 'validation_error',
        },
      ],
    });
    const card = await section();
    const window = await within(card).findByRole('textbox', { name: 'Recent swap: within (days)' });
    await user.clear(window);
    await user.type(window, '120');
    await user.click(within(card).getByRole('button', { name: 'Save carrier lookups' }));

    expect(await within(card).findByText('Number must be less than or equal to 90')).toBeInTheDocument();
    expect(window).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(window).toHaveFocus());
    expect(server.calls(SAVE)).toHaveLength(1);
    expect(screen.queryByText('Carrier lookups saved')).not.toBeInTheDocument();
  });

  it('an empty number is refused before anything is sent', async () => {
    const user = userEvent.setup();
    const server = open({ [LOOKUPS]: [200, settings()] });
    const card = await section();
    const maxAge = await within(card).findByRole('textbox', { name: 'Check again after (days)' });
    await user.clear(maxAge);
    await user.click(within(card).getByRole('button', { name: 'Save carrier lookups' }));
    expect(await within(card).findByText('Enter a number.')).toBeInTheDocument();
    expect(maxAge).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls(SAVE)).toHaveLength(0);
  });

  it('while saving, the button is busy and a second press sends nothing', async () => {
    const user = userEvent.setup();
    const save = held();
    const server = open({ [LOOKUPS]: [200, settings()], [SAVE]: () => save.answer });
    const card = await section();
    await user.click(await within(card).findByRole('switch', { name: 'Record the line type and carrier' }));
    const button = within(card).getByRole('button', { name: 'Save carrier lookups' });
    await user.click(button);
    await waitFor(() => expect(button).toHaveAttribute('data-loading', 'true'));
    await user.click(button);
    expect(server.calls(SAVE)).toHaveLength(1);

    save.settle([200, settings({ lineType: true })]);
    expect(await screen.findByText('Carrier lookups saved')).toBeInTheDocument();
    await waitFor(() => expect(button).not.toHaveAttribute('data-loading'));
  });

  it('shows a skeleton while the settings load', async () => {
    const read = held();
    open({ [LOOKUPS]: () => read.answer });
    const card = await section();
    expect(within(card).getByRole('progressbar', { name: 'Loading carrier lookups' })).toBeInTheDocument();
    read.settle([200, settings()]);
    expect(await within(card).findByRole('switch', { name: 'Record the last SIM swap' })).toBeInTheDocument();
    expect(within(card).queryByRole('progressbar')).toBeNull();
  });

  it('says why when the settings cannot be read', async () => {
    open({ [LOOKUPS]: [500, { detail: 'Server down' }] });
    const card = await section();
    expect(await within(card).findByRole('alert')).toBeInTheDocument();
    expect(within(card).queryByRole('switch')).toBeNull();
  });

  it('members read that only owners manage them; the settings are not asked for', async () => {
    const server = open({ [LOOKUPS]: [403, { detail: 'Forbidden' }] }, member);
    const card = await section();
    expect(within(card).getByText(CARRIER_LOOKUPS_OWNERS_ONLY)).toBeInTheDocument();
    expect(within(card).queryByRole('alert')).toBeNull();
    expect(within(card).queryByRole('switch')).toBeNull();
    // The consent age's read has come back: the page settled, and still no lookups read.
    expect(await screen.findByText('12 months')).toBeInTheDocument();
    expect(server.calls(LOOKUPS)).toHaveLength(0);
  });
});
