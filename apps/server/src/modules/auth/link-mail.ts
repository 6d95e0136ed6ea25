import type { Db } from '@veriform/db';
import type { Config } from '../../config.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import type { Sealer } from '../../lib/sealed.ts';
import type { TokenSigner } from '../../lib/tokens.ts';
import type { EmailMessage, Mailer } from '../../messaging/email.ts';
import { findUserByEmail, type UserRow } from '../users/index.ts';

/**
 * What each flow that mails a signed link needs (verification, password reset, e-mail change): the link is signed
 * with `tokens`, its e-mail is a job (`jobs`, with the address sealed by `sealer`), and asking is rate-limited.
 */
export type LinkMailDeps = {
  config: Config;
  db: Db;
  clock: Clock;
  tokens: TokenSigner;
  mailer: Mailer;
  jobs: JobQueue;
  sealer: Sealer;
  rateLimit: RateLimiter;
};

/**
 * A link job's work for an address that may or may not be a user's: `compose` writes the message (with a link minted
 * now) for the user who has it, or answers null when that user is owed nothing; without such a user nothing is sent
 * either, so the job that queued it said nothing about whether there is an account.
 */
export async function mailUserAt(
  deps: { db: Db; mailer: Mailer },
  email: string,
  compose: (user: UserRow) => EmailMessage | null,
): Promise<'sent' | 'skipped'> {
  const user = await findUserByEmail(deps.db, email);
  const message = user ? compose(user) : null;
  if (!message) return 'skipped';
  await deps.mailer.send(message);
  return 'sent';
}
