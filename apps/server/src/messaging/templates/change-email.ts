import type { EmailMessage } from '../email.ts';
import { oneLine, renderHtml } from './layout.ts';

/** To the NEW address: the link that confirms the change. */
export function changeEmailMessage(options: {
  to: string;
  name: string;
  fromEmail: string;
  link: string;
  validForDays: number;
}): EmailMessage {
  const subject = 'Confirm your new e-mail address for Veriform';
  const name = oneLine(options.name);
  const greeting = name ? `Hi ${name},` : 'Hi,';
  const intro = `You asked to change the e-mail address of your Veriform login from ${options.fromEmail} to this address. Open the link below to confirm the change.`;
  const validity = `The link works for ${options.validForDays} days and only once; a newer request replaces it.`;
  const footer =
    'If you did not ask for this, you can ignore this message: nothing changes without the link.';
  return {
    to: options.to,
    subject,
    text: [greeting, '', intro, '', options.link, '', validity, '', footer, ''].join('\n'),
    html: renderHtml({
      title: subject,
      paragraphs: [greeting, intro],
      action: { label: 'Confirm new e-mail address', url: options.link },
      footer: `${validity} ${footer}`,
    }),
  };
}

/** To the OLD address once the change is done: a heads-up, in case it was not the owner. */
export function emailChangedMessage(options: {
  to: string;
  name: string;
  newEmail: string;
  supportEmail: string;
}): EmailMessage {
  const subject = 'Your Veriform e-mail address was changed';
  const name = oneLine(options.name);
  const greeting = name ? `Hi ${name},` : 'Hi,';
  const intro = `The e-mail address of your Veriform login was changed from ${options.to} to ${options.newEmail}. From now on, log in and receive messages with the new address.`;
  const warning = `If you did not make this change, contact ${options.supportEmail} right away.`;
  return {
    to: options.to,
    subject,
    text: [greeting, '', intro, '', warning, ''].join('\n'),
    html: renderHtml({ title: subject, paragraphs: [greeting, intro, warning] }),
  };
}
