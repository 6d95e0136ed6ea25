import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../../test/fake-server';
import { renderWithRouter } from '../../../test/render';
import { NameField } from './NameField';

const ada = makeUser();
const initialData = makeInitialData({
  user: ada,
  memberships: [makeMembership()],
  currentMembership: makeMembership(),
});

function setup(server = createFakeServer()) {
  const view = renderWithRouter(
    <>
      <NameField />
      <button type="button">Elsewhere</button>
    </>,
    { initialData, server },
  );
  return { ...view, server, user: userEvent.setup() };
}

const nameInput = () => screen.getByRole('textbox', { name: 'Name' });

describe('NameField (SPEC §2)', () => {
  it('is read-only until Edit name, then saves on Enter with a toast', async () => {
    const server = createFakeServer({
      'PATCH /api/users/1': ({ body }) => [200, { ...ada, name: (body as { name: string }).name }],
    });
    const { user, services } = setup(server);
    const input = await screen.findByRole('textbox', { name: 'Name' });
    expect(input).toHaveValue('Ada Lovelace');
    expect(input).toHaveAttribute('readonly');

    await user.click(screen.getByRole('button', { name: 'Edit name' }));
    expect(nameInput()).not.toHaveAttribute('readonly');
    expect(nameInput()).toHaveFocus();
    await user.clear(nameInput());
    await user.type(nameInput(), '  Augusta Ada King {Enter}');

    expect(await screen.findByText('Name updated')).toBeInTheDocument();
    expect(server.calls('PATCH /api/users/1')[0]?.body).toEqual({ name: 'Augusta Ada King' });
    expect(services.session.get().user.name).toBe('Augusta Ada King');
    expect(nameInput()).toHaveValue('Augusta Ada King');
    expect(nameInput()).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Edit name' })).toBeInTheDocument();
  });

  it('saves when Save name is clicked (the click does not revert first)', async () => {
    const server = createFakeServer({
      'PATCH /api/users/1': ({ body }) => [200, { ...ada, name: (body as { name: string }).name }],
    });
    const { user } = setup(server);
    await user.click(await screen.findByRole('button', { name: 'Edit name' }));
    await user.clear(nameInput());
    await user.type(nameInput(), 'Ada King');
    await user.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Name updated')).toBeInTheDocument();
    expect(server.calls('PATCH /api/users/1')[0]?.body).toEqual({ name: 'Ada King' });
    expect(nameInput()).toHaveValue('Ada King');
  });

  it('reverts to the saved name on blur without submitting', async () => {
    const { user, server } = setup();
    await user.click(await screen.findByRole('button', { name: 'Edit name' }));
    await user.clear(nameInput());
    await user.type(nameInput(), 'Somebody Else');
    await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(nameInput()).toHaveValue('Ada Lovelace');
    expect(nameInput()).toHaveAttribute('readonly');
    expect(server.calls('PATCH /api/users/1')).toHaveLength(0);
  });

  it('keeps focus-moves to Save name as editing (keyboard users tab to it)', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Edit name' }));
    await user.type(nameInput(), ' Jr');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Save name' })).toHaveFocus();
    expect(nameInput()).toHaveValue('Ada Lovelace Jr');
    await user.tab();
    await waitFor(() => expect(nameInput()).toHaveValue('Ada Lovelace'));
  });

  it('requires a name and shows the server’s field error', async () => {
    const server = createFakeServer({
      'PATCH /api/users/1': [400, { name: ['Ensure this field has no more than 150 characters.'] }],
    });
    const { user } = setup(server);
    await user.click(await screen.findByRole('button', { name: 'Edit name' }));
    await user.clear(nameInput());
    await user.type(nameInput(), '{Enter}');
    expect(await screen.findByText('Required')).toBeInTheDocument();
    expect(nameInput()).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls('PATCH /api/users/1')).toHaveLength(0);

    await user.type(nameInput(), 'Ada{Enter}');
    expect(await screen.findByText('Ensure this field has no more than 150 characters.')).toBeInTheDocument();
    expect(screen.queryByText('Name updated')).not.toBeInTheDocument();
  });
});
