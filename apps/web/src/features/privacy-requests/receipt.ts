import type { PrivacyRequest, PrivacyRequestAnswer } from '@veriform/contracts';

/**
 * The receipt of an answered request: what was asked, by whom, when it was due and what was done (the server's answer,
 * as it stands), as a JSON file the owner keeps or sends to the requester. Made in the browser from the request the
 * page already holds: the answer is the whole receipt, so the server needs no endpoint of its own for it. Its
 * identifiers are the request's own, masked once answered (the log keeps no more than the answer needs).
 */
export interface PrivacyRequestReceipt {
  receipt: 'veriform.privacy_request.receipt';
  requestId: string;
  type: PrivacyRequest['type'];
  law: PrivacyRequest['law'];
  requester: PrivacyRequest['requester'];
  phones: string[];
  emails: string[];
  receivedAt: string;
  dueAt: string;
  extendedAt: string | null;
  extensionReason: string | null;
  answeredAt: string;
  answer: PrivacyRequestAnswer;
}

/** Null until the request is answered: there is nothing to give a receipt for. */
export function privacyRequestReceipt(request: PrivacyRequest): PrivacyRequestReceipt | null {
  if (request.answer === null || request.answeredAt === null) return null;
  return {
    receipt: 'veriform.privacy_request.receipt',
    requestId: request.id,
    type: request.type,
    law: request.law,
    requester: request.requester,
    phones: request.phones,
    emails: request.emails,
    receivedAt: request.receivedAt,
    dueAt: request.dueAt,
    extendedAt: request.extendedAt,
    extensionReason: request.extensionReason,
    answeredAt: request.answeredAt,
    answer: request.answer,
  };
}

export function privacyRequestReceiptFileName(id: string): string {
  return `privacy-request-${id}-receipt.json`;
}

export function privacyRequestReceiptBlob(receipt: PrivacyRequestReceipt): Blob {
  return new Blob([`${JSON.stringify(receipt, null, 2)}\n`], { type: 'application/json' });
}
