import { createInterface } from 'node:readline';
import { schema, transaction } from '@veriform/db';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../database.ts';
import { invitationKeyContext, sendInvitationEmail } from '../jobs/definitions/send-invitation-email.ts';
import { randomToken, sha256Hex } from '../lib/crypto.ts';

/**
 * A child process of jobs/durability.test.ts: the app as production builds it (the server's environment), then one
 * write — an invitation to the address given as argument — and its e-mail job in one transaction. It says
 * `between-write-and-commit` once both are written, then waits: the test either kills it there (SIGKILL) or writes a
 * line to its stdin, and it commits, says `committed`, waits for its worker to finish the job, and exits.
 */

const to = process.argv[2];
if (!to) throw new Error('usage: write-with-job.ts <invited address>');
const lines = createInterface({ input: process.stdin });
const go = new Promise<void>((resolve) => lines.once('line', () => resolve()));

const config = loadConfig();
const database = openDatabase(config);
await database.migrate();
const app = await buildApp(config, { db: database });
await app.ready();
const { db, jobs, sealer, clock } = app.services;

// Committed before the transaction under test: the account and its owner, who invites.
const [account] = await db.insert(schema.accounts).values({ displayName: 'Durable Co' }).returning();
const [owner] = await db
  .insert(schema.users)
  .values({ email: `owner-${to}`, name: 'Dura Ble', passwordHash: 'x' })
  .returning();
if (!account || !owner) throw new Error('seed rows not inserted');
await db.insert(schema.memberships).values({ userId: owner.id, accountId: account.id, role: 'owner' });

const jobId = await transaction(db, async (tx) => {
  const key = randomToken(32);
  const now = clock.now();
  const [invitation] = await tx
    .insert(schema.invitations)
    .values({
      accountId: account.id,
      email: to,
      role: 'member',
      keyHash: sha256Hex(key),
      invitedByUserId: owner.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + 7 * 24 * 60 * 60 * 1000),
      lastSentAt: now,
    })
    .returning();
  if (!invitation) throw new Error('invitation not inserted');
  const sealedKey = sealer.seal(key, invitationKeyContext(invitation.id));
  const id = await jobs.enqueue(sendInvitationEmail, { invitationId: invitation.id, sealedKey }, { tx });
  console.log('between-write-and-commit');
  await go;
  return id;
});
console.log('committed');

for (;;) {
  const { rows } = await database.executeSql('SELECT state::text AS state FROM pgboss.job WHERE id = $1', [
    jobId,
  ]);
  const [job] = rows as { state: string }[];
  if (job?.state === 'completed' || job?.state === 'failed') break;
  await new Promise((resolve) => setTimeout(resolve, 20));
}
lines.close();
await app.close();
await database.close();
