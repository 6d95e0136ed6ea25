import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IMAGE_UPLOAD_MAX_BYTES, uploadTexts } from '@veriform/contracts';
import { describe, expect, it, vi } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../../test/fake-server';
import { renderWithRouter } from '../../../test/render';
import { UploadImageModal } from './UploadImageModal';

const ada = makeUser();
const initialData = makeInitialData({
  user: ada,
  memberships: [makeMembership()],
  currentMembership: makeMembership(),
});

function file(name: string, type: string, size = 1000): File {
  const result = new File(['x'], name, { type });
  Object.defineProperty(result, 'size', { value: size });
  return result;
}

async function choose(files: File[]) {
  const input = await screen.findByLabelText('Image file');
  // As a drop or the file picker would: the input's `accept` filter does not stop the dropzone's own checks.
  fireEvent.change(input, { target: { files } });
}

function setup(server = createFakeServer()) {
  const onClose = vi.fn();
  const view = renderWithRouter(<UploadImageModal opened onClose={onClose} />, { initialData, server });
  return { ...view, onClose, server };
}

describe('UploadImageModal (SPEC §2, §5)', () => {
  it('shows the title, the hint, Cancel, and Save disabled until a file is chosen', async () => {
    setup();
    const dialog = await screen.findByRole('dialog', { name: 'Upload image' });
    expect(within(dialog).getByText(uploadTexts.hint)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });

  it('rejects a file that is not an image with the spec message', async () => {
    setup();
    await choose([file('notes.txt', 'text/plain')]);
    expect(await screen.findByText(uploadTexts.wrongType)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('rejects an image over the size limit with the spec message', async () => {
    setup();
    await choose([file('huge.png', 'image/png', IMAGE_UPLOAD_MAX_BYTES + 1)]);
    expect(await screen.findByText(uploadTexts.tooLarge)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('accepts a valid image: preview, Save enabled; the upload replaces the user and closes', async () => {
    const updated = { ...ada, uploadedProfileImage: `/media/${'a'.repeat(64)}.webp` };
    const server = createFakeServer({
      'POST /api/users/1/update-uploaded-profile-image': [200, updated],
    });
    const { onClose, services } = setup(server);
    await choose([file('me.png', 'image/png', IMAGE_UPLOAD_MAX_BYTES)]);
    const save = screen.getByRole('button', { name: 'Save' });
    await waitFor(() => expect(save).toBeEnabled());
    expect(screen.getByRole('img', { name: 'Preview of the chosen image' })).toBeInTheDocument();
    expect(screen.getByText('me.png')).toBeInTheDocument();

    await userEvent.click(save);
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    const [request] = server.calls('POST /api/users/1/update-uploaded-profile-image');
    if (!request) throw new Error('no upload was sent');
    expect(request.body).toBeInstanceOf(FormData);
    expect((request.body as FormData).get('uploadedProfileImage')).toBeInstanceOf(File);
    expect(request.headers['Content-Type']).toBeUndefined();
    expect(services.session.get().user.uploadedProfileImage).toBe(updated.uploadedProfileImage);
  });

  it('shows the server’s refusal in the dialog and stays open', async () => {
    const server = createFakeServer({
      'POST /api/users/1/update-uploaded-profile-image': [
        400,
        { uploadedProfileImage: [uploadTexts.wrongType], MainCode_: 'validation_error' },
      ],
    });
    const { onClose } = setup(server);
    await choose([file('me.png', 'image/png')]);
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText(uploadTexts.wrongType)).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Upload image' })).toBeInTheDocument();
  });

  it('Cancel closes without uploading', async () => {
    const { onClose, server } = setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(server.requests).toHaveLength(0);
  });
});
