/**
 * Provider error codes in words, with what the member can do (issue #18 item 5): Twilio's delivery errors
 * (https://www.twilio.com/docs/api/errors) and SMTP reply codes. The consumer's wording, in the form's language, is
 * a separate concern of the public page.
 */
export type DeliveryReason = { reason: string; nextStep: string };

const TWILIO_REASONS: Readonly<Record<string, DeliveryReason>> = {
  '30003': {
    reason: 'Unreachable: the phone may be off or out of coverage.',
    nextStep: 'Ask the person to try again later or use e-mail.',
  },
  '30004': {
    reason: 'Blocked: the recipient or their carrier blocks messages from us.',
    nextStep: 'Try e-mail instead.',
  },
  '30005': {
    reason: 'Unknown number: it does not exist or is no longer in service.',
    nextStep: 'Ask for the number again.',
  },
  '30006': {
    reason: 'Landline: this number cannot receive text messages.',
    nextStep: 'Ask for a mobile number.',
  },
  '30007': { reason: 'Blocked by the carrier’s filter.', nextStep: 'Try e-mail instead.' },
  '30008': {
    reason: 'Not delivered for an unknown reason (the carrier gave none).',
    nextStep: 'Send a new code, or try e-mail.',
  },
  '21610': {
    reason: 'Opted out: the person replied STOP to our messages.',
    nextStep: 'They must reply START to receive codes again, or use e-mail.',
  },
  '21211': { reason: 'Not a valid phone number.', nextStep: 'Ask for the number again.' },
  '21614': { reason: 'Not a mobile number.', nextStep: 'Ask for a mobile number.' },
  '21635': {
    reason: 'Landline: this number cannot receive text messages.',
    nextStep: 'Ask for a mobile number.',
  },
};

/** The reason of a provider error code, or null when we have no words for it (the code itself is still shown). */
export function deliveryReasonOf(channel: 'sms' | 'email', errorCode: string | null): DeliveryReason | null {
  if (errorCode === null) return null;
  if (channel === 'sms') return TWILIO_REASONS[errorCode] ?? null;
  // SMTP: 5xx is a refusal for good (most often a mailbox that does not exist).
  if (/^5\d\d$/.test(errorCode)) {
    return {
      reason: 'The mail server refused the address for good.',
      nextStep: 'Check the address, or use SMS.',
    };
  }
  return null;
}
