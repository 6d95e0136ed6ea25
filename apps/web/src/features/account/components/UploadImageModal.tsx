import { ImageUploadModal } from '../../../components/ImageUploadModal';
import { PROFILE_IMAGE_FIELD, useUploadProfileImageMutation } from '../../users/api';

/** The profile picture's dialog: Save uploads it and replaces the session's user. */
export function UploadImageModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const upload = useUploadProfileImageMutation();
  return (
    <ImageUploadModal opened={opened} onClose={onClose} upload={upload} fieldName={PROFILE_IMAGE_FIELD} />
  );
}
