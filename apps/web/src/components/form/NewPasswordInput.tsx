import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import type { Ref } from 'react';
import { PasswordChecklist } from './PasswordChecklist';

/**
 * A new password's field (sign-up, reset, change): the live checklist is the field's description, so screen readers
 * announce it with the input; it sits under the error so the error stays next to the input.
 */
export function NewPasswordInput({
  password,
  ...props
}: Omit<PasswordInputProps, 'description' | 'autoComplete'> & {
  /** The value typed so far, which the checklist measures. */
  password: string;
  ref?: Ref<HTMLInputElement>;
}) {
  return (
    <PasswordInput
      autoComplete="new-password"
      required
      description={<PasswordChecklist password={password} />}
      descriptionProps={{ component: 'div' }}
      inputWrapperOrder={['label', 'input', 'error', 'description']}
      {...props}
    />
  );
}
