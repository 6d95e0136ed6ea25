import type { EmailMessage } from '../email.ts';
import { greeting, renderHtml } from './layout.ts';

/**
 * To the OLD address as soon as a change is requested: whoever holds the mailbox hears of it before anything changes,
 * and can call it off with the link (a stolen session and password would otherwise move the login away quietly).
 */
export function emailChangeRequestedMessage(options: {
  to: string;
  name: string;
  toEmail: string;
  cancelLink: string;
  validForDays: number;
  supportEmail: string;
}): EmailMessage {
  const subject = 'A change of your Veriform e-mail address was requested';
  const hi = greeting(options.name);
  const intro = `Someone logged in to your Veriform account asked to change its e-mail address from ${options.to} to ${options.toEmail}. Nothing changes until that address confirms it.`;
  const ifYou = 'If this was you, there is nothing to do here.';
  const ifNot = `If it was not you, cancel the change with the link below (it works for ${options.validForDays} days), then change your password: whoever asked knew it.`;
  const help = `Questions? Write to ${options.supportEmail}.`;
  return {
    to: options.to,
    subject,
    text: [hi, '', intro, '', ifYou, '', ifNot, '', options.cancelLink, '', help, ''].join('\n'),
    html: renderHtml({
      title: subject,
      paragraphs: [hi, intro, ifYou, ifNot],
      action: { label: 'Cancel the change', url: options.cancelLink },
      footer: help,
    }),
  };
}
