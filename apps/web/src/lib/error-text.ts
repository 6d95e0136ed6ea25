import { ApiValidationError } from './api-client';

export type FieldLabels = Readonly<Record<string, string>>;

/**
 * SPEC §8 display rule (toasts and one-line messages): the first non-field error, else the first field error as
 * "Label: message"; any other error shows its own message.
 */
export function errorDisplayText(error: unknown, labels: FieldLabels = {}): string {
  if (error instanceof ApiValidationError) {
    const first = error.nonFieldErrors[0];
    if (first !== undefined) return first;
    const field = Object.entries(error.fieldErrors)[0];
    if (field) return `${labels[field[0]] ?? field[0]}: ${field[1]}`;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

/** "Other Error" / "Other Errors": the heading of non-field errors in the form error block (SPEC §8). */
export function otherErrorsHeading(count: number): string {
  return count === 1 ? 'Other Error' : 'Other Errors';
}
