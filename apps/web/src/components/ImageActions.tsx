import { Button, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { UseMutationResult } from '@tanstack/react-query';
import { errorDisplayText } from '../lib/error-text';
import { notify } from '../lib/notify';
import { type ImageUploadAction, ImageUploadModal } from './ImageUploadModal';

/**
 * The buttons of one uploaded image (a company's logo, a form's banner): "Upload <noun>" opens the upload dialog,
 * "Delete <noun>" deletes it at once (offered only while there is one) and says how that went.
 */
export function ImageActions(props: {
  noun: string;
  hasImage: boolean;
  upload: ImageUploadAction;
  remove: UseMutationResult<unknown, Error, void>;
  fieldName: string;
  deleteNotices: { done: string; failed: string };
}) {
  const [uploadOpened, uploadDialog] = useDisclosure(false);
  const { remove, deleteNotices } = props;
  const deleteImage = () =>
    remove.mutate(undefined, {
      onSuccess: () => notify.success(deleteNotices.done),
      onError: (error) => notify.error(deleteNotices.failed, errorDisplayText(error)),
    });
  return (
    <>
      <Group gap="sm">
        <Button onClick={uploadDialog.open}>Upload {props.noun}</Button>
        <Button
          variant="default"
          color="red"
          onClick={deleteImage}
          loading={remove.isPending}
          disabled={!props.hasImage}
        >
          Delete {props.noun}
        </Button>
      </Group>
      <ImageUploadModal
        opened={uploadOpened}
        onClose={uploadDialog.close}
        upload={props.upload}
        fieldName={props.fieldName}
      />
    </>
  );
}
