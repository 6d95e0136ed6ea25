import { Button, Group, Image, List, Modal, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconPhoto, IconUpload, IconX } from '@tabler/icons-react';
import { IMAGE_UPLOAD_MAX_BYTES, imageUploadMimeTypes, uploadTexts } from '@veriform/contracts';
import { useEffect, useId, useState } from 'react';
import { ApiValidationError } from '../lib/api-client';
import { FormErrorAlert } from './form/FormErrorAlert';
import { rejectionMessages } from './upload-rejections';

/** What the dialog needs from an upload mutation (the profile picture's, a company logo's). */
export interface ImageUploadAction {
  mutate: (file: File, options: { onSuccess: () => void }) => void;
  isPending: boolean;
  error: unknown;
  reset: () => void;
}

/** A temporary address for showing the chosen file before it is uploaded. */
function usePreviewUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') {
      setUrl(null);
      return;
    }
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);
  return url;
}

interface ImageUploadModalProps {
  opened: boolean;
  onClose: () => void;
  upload: ImageUploadAction;
  /** The multipart field whose server errors belong to the file. */
  fieldName: string;
}

/**
 * SPEC §2, §5: "Upload image" dialog. Drag and drop or select one image (types and size checked here with the spec's
 * messages, and again by the server), preview it, then Save uploads it.
 */
export function ImageUploadModal({ opened, onClose, upload, fieldName }: ImageUploadModalProps) {
  const labels = { [fieldName]: 'Image file' };
  const [file, setFile] = useState<File | null>(null);
  const [rejections, setRejections] = useState<string[]>([]);
  const previewUrl = usePreviewUrl(file);
  const hintId = useId();
  const problemsId = useId();

  const close = () => {
    if (upload.isPending) return;
    setFile(null);
    setRejections([]);
    upload.reset();
    onClose();
  };

  const onDrop = (files: File[]) => {
    setFile(files[0] ?? null);
    setRejections([]);
    upload.reset();
  };

  const onReject = (refused: FileRejection[]) => {
    setFile(null);
    setRejections(rejectionMessages(refused));
    upload.reset();
  };

  const save = () => {
    if (!file) {
      setRejections([uploadTexts.required]);
      return;
    }
    upload.mutate(file, {
      onSuccess: () => {
        setFile(null);
        setRejections([]);
        upload.reset();
        onClose();
      },
    });
  };

  const serverFieldError =
    upload.error instanceof ApiValidationError ? upload.error.fieldErrors[fieldName] : undefined;
  const problems = serverFieldError ? [...rejections, serverFieldError] : rejections;

  return (
    <Modal opened={opened} onClose={close} title="Upload image" centered size="md">
      <Stack gap="md">
        <FormErrorAlert error={upload.error} labels={labels} inlineFields={[fieldName]} />
        <Dropzone
          onDrop={onDrop}
          onReject={onReject}
          accept={[...imageUploadMimeTypes]}
          maxSize={IMAGE_UPLOAD_MAX_BYTES}
          maxFiles={1}
          multiple={false}
          loading={upload.isPending}
          inputProps={{ 'aria-label': 'Image file', 'aria-describedby': `${hintId} ${problemsId}` }}
        >
          <Group justify="center" gap="md" mih={120} style={{ pointerEvents: 'none' }} wrap="nowrap">
            <Dropzone.Accept>
              <IconUpload size={40} stroke={1.5} aria-hidden="true" />
            </Dropzone.Accept>
            <Dropzone.Reject>
              <IconX size={40} stroke={1.5} aria-hidden="true" />
            </Dropzone.Reject>
            <Dropzone.Idle>
              <IconPhoto size={40} stroke={1.5} aria-hidden="true" />
            </Dropzone.Idle>
            <Stack gap={4}>
              <Text size="md" fw={500}>
                Drag an image here or click to select a file
              </Text>
              <Text size="sm" c="dimmed" id={hintId}>
                {uploadTexts.hint}
              </Text>
            </Stack>
          </Group>
        </Dropzone>
        <div id={problemsId} role="alert">
          {problems.length > 0 && (
            <List size="sm" c="red" spacing={2}>
              {problems.map((message) => (
                <List.Item key={message}>{message}</List.Item>
              ))}
            </List>
          )}
        </div>
        {file && (
          <Group gap="md" wrap="nowrap" data-testid="upload-preview">
            {previewUrl && (
              <Image
                src={previewUrl}
                alt="Preview of the chosen image"
                w={96}
                h={96}
                fit="cover"
                // Round, as the avatar will show it.
                radius={96}
              />
            )}
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {file.name}
            </Text>
          </Group>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={upload.isPending}>
            Cancel
          </Button>
          <Button onClick={save} disabled={!file} loading={upload.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
