import { z } from 'zod';

/**
 * Names people type (a user's name, a company's, a form's) travel into plain-text e-mails, SMS and CSV files: a line
 * break in one would start a line of our message that the sender wrote (issue #13 item 10f). Control characters and
 * the Unicode line and paragraph separators are refused; U+0000 is left to the server's own guard and its message.
 */
export const singleLineTexts = {
  controlCharacters: 'Line breaks and control characters are not allowed.',
} as const;

const LINE_BREAK_OR_CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;

export function hasLineBreakOrControl(value: string): boolean {
  return LINE_BREAK_OR_CONTROL.test(value.replaceAll('\u0000', ''));
}

/** A required name of at most `max` characters on one line, surrounding white space (trailing newlines too) trimmed. */
export function singleLineName(max: number) {
  return z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((value) => !hasLineBreakOrControl(value), singleLineTexts.controlCharacters);
}
