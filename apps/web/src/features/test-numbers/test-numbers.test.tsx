import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type TestPhoneNumber, testNumberTexts } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';
import { TEST_MODE_TEXT } from './components/TestNumbersCard';

const ada = makeUser();
const owner = makeMembership();
const member = makeMembership({ role: 'member', canSearchData: true, canViewReports: true });
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });

function makeNumber(over: Partial<TestPhoneNumber> = {}): TestPhoneNumber {
  return {
    id: 5,
    account: 21,
    cellPhone: '+12015550123',
    code: '424242',
    simulatedErrorCode: null,
    created: '2026-01-01T00:00:00Z',
    ...over,
  };
}

/** A server that keeps its list, so a refetch after a change shows the change. */
function server(initial: TestPhoneNumber[] = [makeNumber()]) {
  let numbers = [...initial];
  const fake = createFakeServer({
    'GET /api/test-phone-numbers': () => [200, { results: numbers }],
  });
  return {
    fake,
    add(number: TestPhoneNumber) {
      numbers = [...numbers, number];
    },
    remove(id: number) {
      numbers = numbers.filter((n) => n.id !== id);
    },
  };
}

const card = () => screen.findByRole('region', { name: 'Test numbers' });

describe('Company Info: test numbers', () => {
  it('owners add a number; the list shows it with its code', async () => {
    const user = userEvent.setup();
    const s = server([]);
    s.fake.on('POST /api/test-phone-numbers', ({ body }) => {
      const number = makeNumber({ id: 6, cellPhone: '+12015550188', code: (body as { code: string }).code });
      s.add(number);
      return [201, number];
    });
    renderApp('/settings/company-info', { initialData: signedIn(), server: s.fake });
    const section = await card();
    expect(within(section).getByText(TEST_MODE_TEXT)).toBeInTheDocument();
    expect(await within(section).findByText(/No test numbers yet/)).toBeInTheDocument();

    await user.type(within(section).getByRole('textbox', { name: /^Phone number/ }), '(201) 555-0188');
    await user.type(within(section).getByRole('textbox', { name: /^Code/ }), '135790');
    await user.click(within(section).getByRole('button', { name: 'Add test number' }));

    expect(await screen.findByText('Test number added')).toBeInTheDocument();
    expect(s.fake.calls('POST /api/test-phone-numbers')[0]?.body).toEqual({
      account: 21,
      cellPhone: '(201) 555-0188',
      code: '135790',
      simulatedErrorCode: null,
    });
    const table = await within(section).findByRole('table', { name: 'Test numbers' });
    expect(within(table).getByText('+1 (201) 555-0188')).toBeInTheDocument();
    expect(within(table).getByText('135790')).toBeInTheDocument();
    expect(within(section).getByRole('textbox', { name: /^Phone number/ })).toHaveValue('');
  });

  it('owners choose a simulated delivery failure; the list shows each number’s', async () => {
    const user = userEvent.setup();
    const s = server();
    s.fake.on('POST /api/test-phone-numbers', ({ body }) => {
      const { simulatedErrorCode } = body as { simulatedErrorCode: TestPhoneNumber['simulatedErrorCode'] };
      const number = makeNumber({ id: 6, cellPhone: '+12015550188', code: '135790', simulatedErrorCode });
      s.add(number);
      return [201, number];
    });
    renderApp('/settings/company-info', { initialData: signedIn(), server: s.fake });
    const section = await card();
    const table = await within(section).findByRole('table', { name: 'Test numbers' });
    expect(within(table).getByRole('columnheader', { name: 'Simulated delivery' })).toBeInTheDocument();
    expect(within(table).getByText('Delivered')).toBeInTheDocument();

    await user.type(within(section).getByRole('textbox', { name: /^Phone number/ }), '(201) 555-0188');
    await user.type(within(section).getByRole('textbox', { name: /^Code/ }), '135790');
    await user.click(within(section).getByRole('combobox', { name: /^Simulated delivery/ }));
    await user.click(await screen.findByRole('option', { name: 'Landline (30006)' }));
    await user.click(within(section).getByRole('button', { name: 'Add test number' }));

    expect(await screen.findByText('Test number added')).toBeInTheDocument();
    expect(s.fake.calls('POST /api/test-phone-numbers')[0]?.body).toMatchObject({
      simulatedErrorCode: '30006',
    });
    expect(await within(table).findByText('Landline (30006)')).toBeInTheDocument();
  });

  it('a refused number shows the server’s message beside the phone field; a bad code is caught before sending', async () => {
    const user = userEvent.setup();
    const s = server();
    s.fake.on('POST /api/test-phone-numbers', [
      400,
      { cellPhone: [testNumberTexts.duplicate], MainCode_: 'validation_error' },
    ]);
    renderApp('/settings/company-info', { initialData: signedIn(), server: s.fake });
    const section = await card();
    const phone = within(section).getByRole('textbox', { name: /^Phone number/ });
    const code = within(section).getByRole('textbox', { name: /^Code/ });

    await user.type(phone, '2015550123');
    await user.type(code, '123');
    await user.click(within(section).getByRole('button', { name: 'Add test number' }));
    expect(await within(section).findByText('The code has 6 digits.')).toBeInTheDocument();
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(s.fake.calls('POST /api/test-phone-numbers')).toHaveLength(0);

    await user.type(code, '456');
    await user.click(within(section).getByRole('button', { name: 'Add test number' }));
    expect(await within(section).findByText(testNumberTexts.duplicate)).toBeInTheDocument();
    await waitFor(() => expect(phone).toHaveAttribute('aria-invalid', 'true'));
    expect(phone).toHaveAccessibleDescription(expect.stringContaining(testNumberTexts.duplicate));
    // Shown beside the field only, not again in the form's error block.
    expect(within(section).queryByRole('alert')).not.toBeInTheDocument();
    expect(phone).toHaveValue('2015550123');
  });

  it('owners delete a number after confirming', async () => {
    const user = userEvent.setup();
    const s = server();
    s.fake.on('DELETE /api/test-phone-numbers/5', () => {
      s.remove(5);
      return [204];
    });
    renderApp('/settings/company-info', { initialData: signedIn(), server: s.fake });
    const section = await card();
    await user.click(
      await within(section).findByRole('button', { name: 'Delete test number +1 (201) 555-0123' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete test number +1 (201) 555-0123?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Test number deleted')).toBeInTheDocument();
    expect(s.fake.calls('DELETE /api/test-phone-numbers/5')).toHaveLength(1);
    expect(await within(section).findByText(/No test numbers yet/)).toBeInTheDocument();
  });

  it('a refused delete shows an error toast', async () => {
    const user = userEvent.setup();
    const s = server();
    s.fake.on('DELETE /api/test-phone-numbers/5', [
      403,
      { detail: 'You are not permitted to perform that action.' },
    ]);
    renderApp('/settings/company-info', { initialData: signedIn(), server: s.fake });
    const section = await card();
    await user.click(await within(section).findByRole('button', { name: /^Delete test number/ }));
    const dialog = await screen.findByRole('dialog', { name: /^Delete test number/ });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete the test number')).toBeInTheDocument();
    expect(screen.getByText('You are not permitted to perform that action.')).toBeInTheDocument();
  });

  it('members see the numbers and codes read-only, with what test mode does', async () => {
    const s = server();
    renderApp('/settings/company-info', { initialData: signedIn(member), server: s.fake });
    const section = await card();
    const table = await within(section).findByRole('table', { name: 'Test numbers' });
    expect(within(table).getByText('+1 (201) 555-0123')).toBeInTheDocument();
    expect(within(table).getByText('424242')).toBeInTheDocument();
    expect(within(section).getByText(TEST_MODE_TEXT)).toBeInTheDocument();
    expect(within(section).getByText('Only owners can add or delete test numbers.')).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Add test number' })).not.toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(within(section).queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('a failed load says so', async () => {
    const fake = createFakeServer({ 'GET /api/test-phone-numbers': [403, { detail: 'Nope.' }] });
    renderApp('/settings/company-info', { initialData: signedIn(), server: fake });
    const section = await card();
    expect(await within(section).findByRole('alert')).toBeInTheDocument();
  });
});
