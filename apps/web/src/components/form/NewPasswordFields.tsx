import { PasswordInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { Ref } from 'react';
import { NewPasswordInput } from './NewPasswordInput';

/**
 * A new password and its confirmation (sign-up, reset, change), bound to the form's two fields: the first with its
 * live checklist (NewPasswordInput), the second a plain new-password input. Mantine's PasswordInput does not mark its
 * input invalid itself, so both say so.
 */
export function NewPasswordFields<
  Password extends string,
  Confirm extends string,
  Values extends Record<Password | Confirm, string>,
>(props: {
  form: UseFormReturnType<Values>;
  fields: { password: Password; confirm: Confirm };
  labels: { password: string; confirm: string };
  passwordRef?: Ref<HTMLInputElement>;
}) {
  const { form, fields, labels } = props;
  return (
    <>
      <NewPasswordInput
        ref={props.passwordRef}
        label={labels.password}
        password={form.values[fields.password]}
        {...form.getInputProps(fields.password)}
        aria-invalid={Boolean(form.errors[fields.password])}
      />
      <PasswordInput
        label={labels.confirm}
        autoComplete="new-password"
        required
        {...form.getInputProps(fields.confirm)}
        aria-invalid={Boolean(form.errors[fields.confirm])}
      />
    </>
  );
}
