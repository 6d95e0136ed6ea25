import { type Db, schema } from '@veriform/db';
import type { Clock } from '../../lib/clock.ts';
import { randomToken } from '../../lib/crypto.ts';
import { latestCodeTextTo } from '../attempts/index.ts';
import { revocationDeadline } from './deadline.ts';
import { readReply } from './words.ts';

const { revocations } = schema;

/** A reply to a code text, as Twilio's inbound message names it (inbound-routes.ts). */
export type InboundReply = { messageSid: string; from: string; body: string };

export type RecordedReply =
  | { recorded: 'revocation' | 'possible'; revocationId: string; accountId: number }
  | { recorded: 'duplicate' }
  | { recorded: 'not_ours' };

/**
 * The revocations' records (issue #35). A reply to a code text becomes a revocation (per-se words) or a possible one
 * (anything else, for a member to decide) of the account whose code text to that number was the latest. The same
 * message delivered again (Twilio retries; a reply forwarded twice) is the same revocation: its MessageSid is unique.
 */
export function createRevocations(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  async function recordReply({ messageSid, from, body }: InboundReply): Promise<RecordedReply> {
    const answered = await latestCodeTextTo(db, from);
    if (!answered) return { recorded: 'not_ours' };
    const reading = readReply(body);
    const receivedAt = clock.now();
    const id = randomToken(16);
    const inserted = await db
      .insert(revocations)
      .values({
        id,
        accountId: answered.accountId,
        channel: 'sms_reply',
        phone: from,
        words: body,
        perSeWords: reading.words,
        status: reading.kind === 'revocation' ? 'open' : 'possible',
        providerMessageId: messageSid,
        attemptId: answered.attemptId,
        receivedAt,
        // The federal 10 business days, the day read in New York. Florida's 15 days for a STOP (s. 501.059) is never
        // earlier unless two holidays fall within, and waits for the area codes' data of the contactability verdict.
        deadline: revocationDeadline(receivedAt, 'federal'),
      })
      .onConflictDoNothing()
      .returning({ id: revocations.id });
    if (inserted.length === 0) return { recorded: 'duplicate' };
    return {
      recorded: reading.kind === 'revocation' ? 'revocation' : 'possible',
      revocationId: id,
      accountId: answered.accountId,
    };
  }

  return { recordReply };
}

export type Revocations = ReturnType<typeof createRevocations>;
