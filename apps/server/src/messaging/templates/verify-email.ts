import type { EmailMessage } from '../email.ts';
import { oneLine, renderHtml } from './layout.ts';

export function verifyEmailMessage(options: {
  to: string;
  name: string;
  link: string;
  validForDays: number;
}): EmailMessage {
  const subject = 'Verify your e-mail address for Veriform';
  const name = oneLine(options.name);
  const greeting = name ? `Hi ${name},` : 'Hi,';
  const intro = 'Please confirm that this is your e-mail address by opening the link below.';
  const validity = `The link works for ${options.validForDays} days and only once.`;
  const footer = 'If you did not sign up for Veriform, you can ignore this message.';
  return {
    to: options.to,
    subject,
    text: [greeting, '', intro, '', options.link, '', validity, '', footer, ''].join('\n'),
    html: renderHtml({
      title: subject,
      paragraphs: [greeting, intro],
      action: { label: 'Verify e-mail address', url: options.link },
      footer: `${validity} ${footer}`,
    }),
  };
}
