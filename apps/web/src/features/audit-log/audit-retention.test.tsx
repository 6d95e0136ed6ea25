import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  createFakeServer,
  makeCompanyInfo,
  makeInitialData,
  makeMembership,
  makeUser,
} from '../../test/fake-server';
import { renderApp } from '../../test/render';
import { RETENTION_TEXT } from './components/AuditRetention';

const ada = makeUser();
const owner = makeMembership();
const member = makeMembership({ role: 'member', canSearchData: true, canViewReports: true });
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });
const info = (auditRetentionYears: number) => makeCompanyInfo({ ...owner.account, auditRetentionYears });
const emptyLog = [200, { count: 0, pageNumber: 1, pageSize: 25, results: [] }] as const;

const retentionSelect = () => screen.findByRole('combobox', { name: 'Keep events for' });

describe('Settings → Audit log: how long events are kept', () => {
  it('owners choose 1–7 years; the choice is saved at once, with a toast, and the log is read again', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'GET /api/audit-events': [...emptyLog],
      'GET /api/accounts/21': [200, info(2)],
      'PATCH /api/accounts/21': ({ body }) => [
        200,
        info((body as { auditRetentionYears: number }).auditRetentionYears),
      ],
    });
    renderApp('/settings/audit-log', { initialData: signedIn(), server });
    const select = await retentionSelect();
    await waitFor(() => expect(select).toHaveValue('2 years'));
    expect(screen.getByText(RETENTION_TEXT)).toBeInTheDocument();

    await user.click(select);
    const choices = await screen.findAllByRole('option');
    expect(choices.map((option) => option.textContent)).toEqual([
      '1 year',
      '2 years',
      '3 years',
      '4 years',
      '5 years',
      '6 years',
      '7 years',
    ]);
    const readsBefore = server.calls('GET /api/audit-events').length;
    await user.click(screen.getByRole('option', { name: '5 years' }));

    expect(await screen.findByText('Retention saved')).toBeInTheDocument();
    expect(screen.getByText('Audit events are kept for 5 years.')).toBeInTheDocument();
    expect(server.calls('PATCH /api/accounts/21').map((call) => call.body)).toEqual([
      { auditRetentionYears: 5 },
    ]);
    expect(select).toHaveValue('5 years');
    // The change is an event of its own: the list is fetched again to show it.
    await waitFor(() => expect(server.calls('GET /api/audit-events').length).toBeGreaterThan(readsBefore));
  });

  it("shows the server's refusal at the select and goes back to the saved value", async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'GET /api/audit-events': [...emptyLog],
      'GET /api/accounts/21': [200, info(3)],
      'PATCH /api/accounts/21': [
        400,
        {
          auditRetentionYears: ['Ensure this value is less than or equal to 7.'],
          MainCode_: 'validation_error',
        },
      ],
    });
    renderApp('/settings/audit-log', { initialData: signedIn(), server });
    const select = await retentionSelect();
    await waitFor(() => expect(select).toHaveValue('3 years'));

    await user.click(select);
    await user.click(await screen.findByRole('option', { name: '7 years' }));
    expect(await screen.findByText('Ensure this value is less than or equal to 7.')).toBeInTheDocument();
    expect(select).toHaveValue('3 years');
    expect(select).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Retention saved')).not.toBeInTheDocument();
  });

  it('choosing the saved value again sends nothing', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'GET /api/audit-events': [...emptyLog],
      'GET /api/accounts/21': [200, info(2)],
    });
    renderApp('/settings/audit-log', { initialData: signedIn(), server });
    const select = await retentionSelect();
    await waitFor(() => expect(select).toHaveValue('2 years'));
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: '2 years' }));
    expect(select).toHaveValue('2 years');
    expect(server.calls('PATCH /api/accounts/21')).toHaveLength(0);
  });

  it('members get the permission screen, not the setting', async () => {
    const server = createFakeServer({ 'GET /api/accounts/21': [200, info(2)] });
    renderApp('/settings/audit-log', { initialData: signedIn(member), server });
    expect(await screen.findByRole('heading', { name: /permission|access/i })).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Keep events for' })).not.toBeInTheDocument();
    expect(server.calls('GET /api/accounts/21')).toHaveLength(0);
  });
});
