import { describe, expect, it } from 'vitest';
import { ApiValidationError, ServerError } from './api-client';
import { errorDisplayText, otherErrorsHeading } from './error-text';

describe('errorDisplayText', () => {
  it('prefers the first non-field error', () => {
    const error = new ApiValidationError({ email: 'Taken.' }, ['First.', 'Second.'], 'x');
    expect(errorDisplayText(error, { email: 'E-mail' })).toBe('First.');
  });

  it('shows the first field error as "Label: message"', () => {
    const error = new ApiValidationError({ email: 'Taken.', name: 'Required' }, [], undefined);
    expect(errorDisplayText(error, { email: 'E-mail' })).toBe('E-mail: Taken.');
    expect(errorDisplayText(error)).toBe('email: Taken.');
  });

  it('uses the message of other errors', () => {
    expect(errorDisplayText(new ServerError(500, undefined))).toBe(
      'An unexpected server error occurred. Please try again. If the issue continues please contact support.',
    );
  });

  it('names the non-field block', () => {
    expect(otherErrorsHeading(1)).toBe('Other Error');
    expect(otherErrorsHeading(2)).toBe('Other Errors');
  });
});
