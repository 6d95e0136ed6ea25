import { Avatar, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { initialsFor } from '../../../components/shell/nav';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useDeleteProfileImageMutation } from '../../users/api';
import { UploadImageModal } from './UploadImageModal';

/** SPEC §2: the profile picture (uploaded image, else initials) with Upload picture and Delete picture. */
export function ProfileImageRow() {
  const { user } = useSession();
  const [uploadOpened, upload] = useDisclosure(false);
  const remove = useDeleteProfileImageMutation();

  const deletePicture = () =>
    remove.mutate(undefined, {
      onError: (error) => notify.error('Failed to Delete Picture', errorDisplayText(error)),
    });

  return (
    <Group gap="lg" wrap="nowrap" align="flex-start">
      <Avatar
        src={user.uploadedProfileImage}
        size={88}
        radius={88}
        color="indigo"
        alt={user.uploadedProfileImage ? 'Profile picture' : undefined}
        data-testid="profile-avatar"
      >
        {initialsFor(user.name, user.email)}
      </Avatar>
      <Stack gap="xs" style={{ minWidth: 0 }}>
        <div>
          <Text fw={600} size="lg" truncate>
            {user.name || user.email}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Text c="dimmed" size="sm" truncate>
              {user.email}
            </Text>
            {user.emailIsVerified && (
              <Badge color="teal" variant="light" size="sm" style={{ flexShrink: 0 }}>
                Verified
              </Badge>
            )}
          </Group>
        </div>
        <Group gap="sm">
          <Button onClick={upload.open}>Upload picture</Button>
          {user.uploadedProfileImage && (
            <Button variant="default" color="red" onClick={deletePicture} loading={remove.isPending}>
              Delete picture
            </Button>
          )}
        </Group>
      </Stack>
      <UploadImageModal opened={uploadOpened} onClose={upload.close} />
    </Group>
  );
}
