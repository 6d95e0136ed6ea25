import type { EmailMessage } from '../email.ts';
import { greeting, linkMessage } from './layout.ts';

export function verifyEmailMessage(options: {
  to: string;
  name: string;
  link: string;
  validForDays: number;
}): EmailMessage {
  return linkMessage({
    to: options.to,
    subject: 'Verify your e-mail address for Veriform',
    paragraphs: [
      greeting(options.name),
      'Please confirm that this is your e-mail address by opening the link below.',
    ],
    action: { label: 'Verify e-mail address', url: options.link },
    validity: `The link works for ${options.validForDays} days and only once.`,
    footer: 'If you did not sign up for Veriform, you can ignore this message.',
  });
}
