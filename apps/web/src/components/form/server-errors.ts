import type { UseFormReturnType } from '@mantine/form';
import { ApiValidationError } from '../../lib/api-client';

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

/** After validation fails, put the keyboard on the first input that needs fixing. */
export function focusFirstInvalid(formElement: HTMLFormElement | null): void {
  if (!formElement) return;
  // Wait for React to render the error state (aria-invalid) before looking for it.
  window.setTimeout(() => {
    formElement.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, 0);
}
