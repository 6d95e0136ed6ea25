/**
 * What a redaction (issue #33, ADR 25) hands to the modules that keep their own copies of the person (API v1's stored
 * Idempotency-Key answers): the attempts redacted, how to find and mask the person in a text, and how far back to look.
 */
export type PersonRedaction = {
  attempts: { id: string; cellPhone: string; email: string | null }[];
  /** Byte strings whose presence marks a stored answer as about the person (the attempt ids, the number). */
  needles: string[];
  /** Masks every spelling of the person in a text. */
  mask: (text: string) => string;
  /** When the first of the attempts was made: no answer about them is older (the created_at index bounds the scan). */
  since: Date;
};
