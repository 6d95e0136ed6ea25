import type { UseFormReturnType } from '@mantine/form';
import { ApiValidationError } from '../../lib/api-client';
import { focusFirstInvalid } from './focus-first-invalid';

// Kept here too for the forms that import both; its own module serves the login form, which loads no API code first.
export { focusFirstInvalid };

/**
 * Puts a 400's field errors beside the matching inputs (the rest stay for the FormErrorAlert) and moves focus to the
 * first invalid input.
 */
export function showServerFieldErrors<Values extends Record<string, unknown>>(
  form: UseFormReturnType<Values>,
  error: unknown,
  fields: readonly string[],
  formElement: HTMLFormElement | null,
): void {
  if (!(error instanceof ApiValidationError)) return;
  const inline = Object.fromEntries(
    Object.entries(error.fieldErrors).filter(([field]) => fields.includes(field)),
  );
  form.setErrors(inline);
  focusFirstInvalid(formElement);
}
