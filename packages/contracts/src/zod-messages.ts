import { z } from 'zod';

/** Names of received values as the spec's generic messages print them ("Expected string, received number"). */
function receivedType(input: unknown): string {
  if (input === undefined) return 'undefined';
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'number' && Number.isNaN(input)) return 'nan';
  return typeof input;
}

/**
 * The generic schema messages of SPEC §5 (Required; Expected X, received Y; Invalid email; String must contain at
 * least N character(s); Number must be greater than or equal to N; Invalid enum value). Installed once per process by
 * both the server and the web app, so the same input gets the same words on both sides.
 */
export const specErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'Required';
      return `Expected ${issue.expected}, received ${receivedType(issue.input)}`;
    case 'too_small': {
      const n = Number(issue.minimum);
      if (issue.origin === 'string') {
        return n === 1 && issue.inclusive !== false
          ? 'Required'
          : `String must contain at least ${n} character(s)`;
      }
      if (issue.origin === 'array' || issue.origin === 'set')
        return `Array must contain at least ${n} element(s)`;
      return issue.inclusive === false
        ? `Number must be greater than ${n}`
        : `Number must be greater than or equal to ${n}`;
    }
    case 'too_big': {
      const n = Number(issue.maximum);
      if (issue.origin === 'string') return `String must contain at most ${n} character(s)`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return `Array must contain at most ${n} element(s)`;
      if (issue.origin === 'file') return `File is larger than ${n} bytes`;
      return issue.inclusive === false
        ? `Number must be less than ${n}`
        : `Number must be less than or equal to ${n}`;
    }
    case 'invalid_format':
      if (issue.format === 'email') return 'Invalid email';
      if (issue.format === 'date') return 'Invalid date';
      return `Invalid ${issue.format}`;
    case 'invalid_value':
      return `Invalid enum value. Expected ${issue.values.map((v) => `'${String(v)}'`).join(' | ')}`;
    case 'unrecognized_keys':
      return `Unrecognized key(s) in object: ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
    default:
      return undefined;
  }
};

export function installSpecErrorMessages(): void {
  z.config({ customError: specErrorMap });
}
