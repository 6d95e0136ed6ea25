import type { EmailMessage } from '../email.ts';
import { greeting, linkMessage } from './layout.ts';

export function resetPasswordMessage(options: {
  to: string;
  name: string;
  link: string;
  validForHours: number;
}): EmailMessage {
  const hours = options.validForHours === 1 ? '1 hour' : `${options.validForHours} hours`;
  return linkMessage({
    to: options.to,
    subject: 'Reset your Veriform password',
    paragraphs: [
      greeting(options.name),
      'Someone (hopefully you) asked to reset the password of your Veriform login. Open the link below to choose a new one.',
    ],
    action: { label: 'Reset password', url: options.link },
    validity: `The link works for ${hours} and only once. Resetting the password logs you out everywhere.`,
    footer: 'If you did not ask for this, you can ignore this message: your password stays as it is.',
  });
}
