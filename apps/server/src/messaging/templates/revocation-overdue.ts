import type { EmailMessage } from '../email.ts';
import { oneLine, ownerNoticeMessage } from './layout.ts';

/**
 * To each owner of the account: revocations of consent passed their deadline without being acknowledged (issue #35;
 * FCC 24-24 gives 10 business days). One e-mail per sweep and owner, naming each number or address once.
 */
export function revocationOverdueMessage(options: {
  to: string;
  accountName: string;
  /** Each overdue revocation: who revoked (a masked number or an address) and its deadline. */
  revocations: { who: string; deadline: string }[];
  link: string;
}): EmailMessage {
  const accountName = oneLine(options.accountName);
  const n = options.revocations.length;
  const subject =
    n === 1
      ? `A revocation of consent is overdue at ${accountName}`
      : `${n} revocations of consent are overdue at ${accountName}`;
  const lines = options.revocations.map((r) => `${oneLine(r.who)}: deadline ${r.deadline}`);
  const paragraphs = [
    `${n === 1 ? 'A consumer revoked' : `${n} consumers revoked`} consent to be contacted by ${accountName}, and the deadline to honour ${n === 1 ? 'it' : 'them'} has passed without an acknowledgment:`,
    ...lines,
    'Stop every call and text to these numbers and addresses, then acknowledge each revocation in Activity Log → Revocations (or through the API), so your records show when it was honoured. The FCC requires revocations to be honoured within 10 business days.',
  ];
  return ownerNoticeMessage({
    to: options.to,
    subject,
    paragraphs,
    link: options.link,
    actionLabel: 'Open the revocations',
  });
}
