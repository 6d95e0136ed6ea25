import type { EmailMessage } from '../email.ts';
import { oneLine, renderHtml } from './layout.ts';

export function resetPasswordMessage(options: {
  to: string;
  name: string;
  link: string;
  validForHours: number;
}): EmailMessage {
  const subject = 'Reset your Veriform password';
  const name = oneLine(options.name);
  const greeting = name ? `Hi ${name},` : 'Hi,';
  const intro =
    'Someone (hopefully you) asked to reset the password of your Veriform login. Open the link below to choose a new one.';
  const hours = options.validForHours === 1 ? '1 hour' : `${options.validForHours} hours`;
  const validity = `The link works for ${hours} and only once. Resetting the password logs you out everywhere.`;
  const footer = 'If you did not ask for this, you can ignore this message: your password stays as it is.';
  return {
    to: options.to,
    subject,
    text: [greeting, '', intro, '', options.link, '', validity, '', footer, ''].join('\n'),
    html: renderHtml({
      title: subject,
      paragraphs: [greeting, intro],
      action: { label: 'Reset password', url: options.link },
      footer: `${validity} ${footer}`,
    }),
  };
}
