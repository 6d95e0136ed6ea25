import type { FileRejection } from '@mantine/dropzone';
import { uploadTexts } from '@veriform/contracts';

/**
 * The messages of SPEC §5 for files the dropzone refused, by reason (react-dropzone's own wording differs). Each
 * message appears once, however many files share it.
 */
export function rejectionMessages(rejections: readonly FileRejection[]): string[] {
  const messages = new Set<string>();
  for (const rejection of rejections) {
    for (const error of rejection.errors) {
      if (error.code === 'file-invalid-type') messages.add(uploadTexts.wrongType);
      else if (error.code === 'file-too-large') messages.add(uploadTexts.tooLarge);
      else if (error.code === 'too-many-files') messages.add(uploadTexts.tooMany);
      else messages.add(error.message);
    }
  }
  return [...messages];
}
