import type {
  CreateAccountResponse,
  CreateInvitationRequest,
  Invitation,
  Membership,
  Role,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { newSignup, TestClient } from './client.ts';
import { latestInvitationKey } from './outbox.ts';

/** Companies and teams for tests: owners with an account, and people who joined by invitation. */

let ipCounter = 0;
/** A fresh client address per person, so per-IP limits of one test never touch another. */
export function nextIp(): string {
  ipCounter += 1;
  return `10.${40 + Math.floor(ipCounter / 60000)}.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

export type Person = { c: TestClient; userId: number; email: string; password: string };

/**
 * Marks the user's address verified, as the e-mailed link would (account actions need it: auth-guard's
 * requireVerifiedUser). Sessions read the user on every request, so the logged-in client sees it at once.
 */
export async function verifyEmailOf(app: FastifyInstance, userId: number): Promise<void> {
  const { clock, db } = app.services;
  await db
    .update(schema.users)
    .set({ emailIsVerified: true, emailVerifiedAsOf: clock.now() })
    .where(eq(schema.users.id, userId));
}

/** A signed-up, logged-in user, with a verified address unless `verified: false` (as right after signing up). */
export async function newPerson(
  app: FastifyInstance,
  email?: string,
  options: { verified?: boolean } = {},
): Promise<Person> {
  const c = new TestClient(app, nextIp());
  const { id, payload } = await c.signupNew(email ? { email } : {});
  if (options.verified !== false) await verifyEmailOf(app, id);
  return { c, userId: id, email: payload.email, password: payload.password };
}

export type Owner = Person & { membership: Membership; accountId: number };

/** A new user who creates an account (its owner). */
export async function newOwner(app: FastifyInstance, displayName = 'Acme Inc.'): Promise<Owner> {
  const person = await newPerson(app);
  const response = await person.c.post('/api/accounts', { displayName });
  if (response.statusCode !== 201) throw new Error(`create account: ${response.statusCode} ${response.body}`);
  const { membership } = response.json<CreateAccountResponse>();
  return { ...person, membership, accountId: membership.account.id };
}

export function invite(
  owner: { c: TestClient },
  accountId: number,
  email: string,
  options: Partial<Omit<CreateInvitationRequest, 'accountId' | 'email'>> = {},
) {
  return owner.c.post('/api/invitations', { accountId, email, role: 'member', ...options });
}

export type Joined = Person & { membership: Membership; invitation: Invitation };

/** Invites a new address, signs that person up and accepts: a member (or owner) of the owner's account. */
export async function join(
  app: FastifyInstance,
  owner: Owner,
  options: { role?: Role; canSearchData?: boolean; canViewReports?: boolean } = {},
): Promise<Joined> {
  const email = newSignup().email;
  const invited = await invite(owner, owner.accountId, email, options);
  if (invited.statusCode !== 201) throw new Error(`invite: ${invited.statusCode} ${invited.body}`);
  const key = await latestInvitationKey(app, email);
  // As from the invitation's sign-up page: unverified until the accept (the key proves the mailbox).
  const person = await newPerson(app, email, { verified: false });
  const accepted = await person.c.post('/api/invitations/accept', { key });
  if (accepted.statusCode !== 200) throw new Error(`accept: ${accepted.statusCode} ${accepted.body}`);
  return { ...person, membership: accepted.json().membership, invitation: invited.json<Invitation>() };
}
