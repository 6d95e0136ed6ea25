import { Button, Group, type MantineSize, Modal, Stack } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ReactNode } from 'react';
import type { FieldLabels } from '../../lib/error-text';
import { FormErrorAlert } from './FormErrorAlert';
import { useFormSubmit } from './use-form-submit';

/** What the modal reads of the mutation that saves it (a TanStack Query mutation fits). */
export interface FormModalMutation {
  isPending: boolean;
  error: unknown;
  reset: () => void;
}

interface FormModalProps<Values extends Record<string, unknown>, Result> {
  /** Modals mounted only while shown leave it out. */
  opened?: boolean;
  onClose: () => void;
  title: string;
  size?: MantineSize;
  /** The form's accessible name, where it has one of its own. */
  formLabel?: string;
  /** A `useForm` of @mantine/form, validated with the contract's zod schema (`schemaResolver`) where there is one. */
  form: UseFormReturnType<Values>;
  mutation: FormModalMutation;
  /** The labels of the fields, for the error block's "Label: message". */
  labels: FieldLabels;
  /** The fields whose server errors show beside their input; the others go to the error block. All labelled ones unless said. */
  inlineFields?: readonly string[];
  /** Saves the valid values; a failure stays in the mutation's error (and its field errors beside their inputs). */
  submit: (values: Values) => Promise<Result>;
  /** After a save: the form and the mutation are reset first (the answer held by the mutation is let go). */
  onDone: (result: Result) => void;
  submitLabel: ReactNode;
  submitColor?: string;
  /** Shown above the error block. */
  intro?: ReactNode;
  /** The fields, below the error block. */
  children: ReactNode;
}

/**
 * The one form modal: its fields in a `noValidate` form, the error block (SPEC §8) above them, Cancel and the submit
 * button below. The client's validation moves focus to the first invalid input; a 400's field errors go beside their
 * inputs (`showServerFieldErrors`) and the rest above. Closing while a save runs does nothing; closing resets the form
 * and the mutation. The field marked `data-autofocus` takes focus when it opens.
 */
export function FormModal<Values extends Record<string, unknown>, Result>({
  opened = true,
  onClose,
  title,
  size,
  formLabel,
  form,
  mutation,
  labels,
  inlineFields = Object.keys(labels),
  submit,
  onDone,
  submitLabel,
  submitColor,
  intro,
  children,
}: FormModalProps<Values, Result>) {
  const { formRef, onSubmit } = useFormSubmit(form, { isPending: mutation.isPending, inlineFields });

  const close = () => {
    if (mutation.isPending) return;
    form.reset();
    mutation.reset();
    onClose();
  };

  const handleSubmit = onSubmit(async (values) => {
    const result = await submit(values);
    form.reset();
    mutation.reset();
    onDone(result);
  });

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={title}
      centered
      size={size}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label={formLabel}>
        <Stack gap="md">
          {intro}
          <FormErrorAlert error={mutation.error} labels={labels} inlineFields={inlineFields} />
          {children}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={mutation.isPending}>
              Cancel
            </Button>
            <Button type="submit" color={submitColor} loading={mutation.isPending}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
