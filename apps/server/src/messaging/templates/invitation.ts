import type { Role } from '@veriform/contracts';
import type { EmailMessage } from '../email.ts';
import { linkMessage, oneLine } from './layout.ts';

/** To the invited address: who invited them, to which company, with which role, and the link. */
export function invitationMessage(options: {
  to: string;
  inviterName: string;
  inviterEmail: string;
  accountName: string;
  role: Role;
  link: string;
  validForDays: number;
}): EmailMessage {
  const inviterName = oneLine(options.inviterName);
  const accountName = oneLine(options.accountName);
  const inviter = inviterName
    ? `${inviterName} (${options.inviterEmail})`
    : options.inviterEmail || 'Someone';
  const subject = `You are invited to join ${accountName} on Veriform`;
  const roleText = options.role === 'owner' ? 'an owner' : 'a member';
  const intro = `${inviter} invited you to join ${accountName} on Veriform as ${roleText}. Open the link below to accept: you can sign up with this address, or log in if you already have a Veriform login.`;
  return linkMessage({
    to: options.to,
    subject,
    paragraphs: ['Hi,', intro],
    action: { label: 'Accept the invitation', url: options.link },
    validity: `The invitation expires in ${options.validForDays} days and works only once.`,
    footer: 'If you were not expecting this, you can ignore this message.',
  });
}
