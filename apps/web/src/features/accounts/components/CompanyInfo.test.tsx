import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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
const logo = `/media/${'b'.repeat(64)}.webp`;
/** What the account routes answer: the company info (the account, its phone countries, the log's retention). */
const companyInfo = makeCompanyInfo(owner.account);

describe('Company Info', () => {
  it('owners rename the company; the account menu follows', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'PATCH /api/accounts/21': ({ body }) => [
        200,
        { ...companyInfo, displayName: (body as { displayName: string }).displayName },
      ],
    });
    const { services } = renderApp('/settings/company-info', { initialData: signedIn(), server });
    const name = await screen.findByLabelText(/^Company name/);
    expect(name).toHaveValue('Acme Corp');
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Required')).toBeInTheDocument();
    expect(server.calls('PATCH /api/accounts/21')).toHaveLength(0);

    await user.type(name, 'Acme Holdings');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Company updated')).toBeInTheDocument();
    expect(server.calls('PATCH /api/accounts/21')[0]?.body).toEqual({ displayName: 'Acme Holdings' });
    expect(services.session.get().currentMembership?.account.displayName).toBe('Acme Holdings');
    expect(screen.getByRole('heading', { name: 'Acme Holdings' })).toBeInTheDocument();
  });

  it('owners upload a logo with the Upload image dialog and delete it', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'POST /api/accounts/21/update-uploaded-profile-image': [
        200,
        { ...companyInfo, uploadedProfileImage: logo },
      ],
      'PATCH /api/accounts/21/delete-uploaded-profile-image': [200, companyInfo],
    });
    const { services } = renderApp('/settings/company-info', { initialData: signedIn(), server });
    expect(await screen.findByRole('button', { name: 'Delete logo' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Upload logo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload image' });
    const file = new File(['x'], 'logo.png', { type: 'image/png' });
    fireEvent.change(within(dialog).getByLabelText('Image file'), { target: { files: [file] } });
    const save = within(dialog).getByRole('button', { name: 'Save' });
    await waitFor(() => expect(save).toBeEnabled());
    await user.click(save);
    await waitFor(() =>
      expect(services.session.get().currentMembership?.account.uploadedProfileImage).toBe(logo),
    );
    const [request] = server.calls('POST /api/accounts/21/update-uploaded-profile-image');
    if (!request) throw new Error('no upload was sent');
    expect((request.body as FormData).get('uploadedProfileImage')).toBeInstanceOf(File);
    expect(screen.getByRole('img', { name: 'Acme Corp logo' })).toHaveAttribute('src', logo);

    await user.click(screen.getByRole('button', { name: 'Delete logo' }));
    expect(await screen.findByText('Logo deleted')).toBeInTheDocument();
    expect(services.session.get().currentMembership?.account.uploadedProfileImage).toBeNull();
  });

  it('members see the company read-only', async () => {
    renderApp('/settings/company-info', { initialData: signedIn(member) });
    expect(await screen.findByRole('heading', { name: 'Acme Corp' })).toBeInTheDocument();
    expect(screen.getByText('Member')).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Company name/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload logo' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete logo' })).not.toBeInTheDocument();
  });
});
