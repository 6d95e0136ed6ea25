import type { EmailMessage } from '../email.ts';
import { greeting, linkMessage, renderHtml } from './layout.ts';

/** To the NEW address: the link that confirms the change. */
export function changeEmailMessage(options: {
  to: string;
  name: string;
  fromEmail: string;
  link: string;
  validForDays: number;
}): EmailMessage {
  return linkMessage({
    to: options.to,
    subject: 'Confirm your new e-mail address for Veriform',
    paragraphs: [
      greeting(options.name),
      `You asked to change the e-mail address of your Veriform login from ${options.fromEmail} to this address. Open the link below to confirm the change.`,
    ],
    action: { label: 'Confirm new e-mail address', url: options.link },
    validity: `The link works for ${options.validForDays} days and only once; a newer request replaces it.`,
    footer: 'If you did not ask for this, you can ignore this message: nothing changes without the link.',
  });
}

/** To the OLD address once the change is done: a heads-up, in case it was not the owner. */
export function emailChangedMessage(options: {
  to: string;
  name: string;
  newEmail: string;
  supportEmail: string;
}): EmailMessage {
  const subject = 'Your Veriform e-mail address was changed';
  const hi = greeting(options.name);
  const intro = `The e-mail address of your Veriform login was changed from ${options.to} to ${options.newEmail}. From now on, log in and receive messages with the new address.`;
  const warning = `If you did not make this change, contact ${options.supportEmail} right away.`;
  return {
    to: options.to,
    subject,
    text: [hi, '', intro, '', warning, ''].join('\n'),
    html: renderHtml({ title: subject, paragraphs: [hi, intro, warning] }),
  };
}
