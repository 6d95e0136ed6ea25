import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobDefinition } from '../../jobs/define.ts';
import { sendEmailChangeLink } from '../../jobs/definitions/send-email-change-link.ts';
import { sendEmailChangeRequestedNotice } from '../../jobs/definitions/send-email-change-requested-notice.ts';
import {
  changedAddresses,
  emailChangedAddressesSeal,
  sendEmailChangedNotice,
} from '../../jobs/definitions/send-email-changed-notice.ts';
import {
  resetPasswordAddressSeal,
  sendResetPasswordEmail,
} from '../../jobs/definitions/send-reset-password-email.ts';
import { sendVerifyEmail, verifyEmailAddressSeal } from '../../jobs/definitions/send-verify-email.ts';
import { useTestApp } from '../../test-support/app.ts';
import { newSignup, TestClient } from '../../test-support/client.ts';
import { type JobRow, jobsOf, jobsSettled } from '../../test-support/jobs.ts';
import { latestLink, outboxFor } from '../../test-support/outbox.ts';

/**
 * The auth e-mails are jobs (issue #14 item 2): stored by the write they follow, holding no link or token and no
 * address in clear, and queued alike whether or not an address has an account.
 */

const t = useTestApp();
let nextIp = 1;
const client = () => new TestClient(t.app, `10.11.${Math.floor(nextIp / 250)}.${nextIp++ % 250}`);
const PASSWORD = newSignup().password;
const newAddress = () => newSignup().email;

async function anonymous() {
  const c = client();
  await c.fetchCsrf();
  return c;
}

/** Runs `action`, lets its jobs finish, and answers the jobs of `definition` it added (oldest first). */
async function jobsAddedBy(definition: JobDefinition, action: () => Promise<unknown>): Promise<JobRow[]> {
  await jobsSettled(t.app);
  const before = new Set((await jobsOf(t.app, definition.name)).map((job) => job.id));
  await action();
  await jobsSettled(t.app);
  return (await jobsOf(t.app, definition.name)).filter((job) => !before.has(job.id));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each([
  {
    what: 'forgot password',
    url: '/api/auth/reset-password',
    definition: sendResetPasswordEmail,
    seal: resetPasswordAddressSeal,
    subject: 'Reset your Veriform password',
  },
  {
    what: 'resend the verification e-mail',
    url: '/api/auth/signup/resend-verification-email',
    definition: sendVerifyEmail,
    seal: verifyEmailAddressSeal,
    subject: 'Verify your e-mail address for Veriform',
  },
])('$what', ({ url, definition, seal, subject }) => {
  it('queues the same job for a known and an unknown address; only the known one gets mail', async () => {
    const { payload } = await client().signupNew();
    await outboxFor(t.app, payload.email);
    const unknownAddress = newAddress();

    const [known, ...moreKnown] = await jobsAddedBy(definition, async () =>
      expect((await (await anonymous()).post(url, { email: payload.email })).statusCode).toBe(200),
    );
    const [unknown, ...moreUnknown] = await jobsAddedBy(definition, async () =>
      expect((await (await anonymous()).post(url, { email: unknownAddress })).statusCode).toBe(200),
    );
    expect([moreKnown, moreUnknown]).toEqual([[], []]);
    expect(known).toMatchObject({ state: 'completed', output: { outcome: 'sent' } });
    expect(unknown).toMatchObject({ state: 'completed', output: { outcome: 'skipped' } });

    // Alike at rest: the address only sealed (to this kind of job), no link.
    for (const [job, address] of [
      [known, payload.email],
      [unknown, unknownAddress],
    ] as const) {
      expect(Object.keys(job?.data ?? {})).toEqual(['sealedEmail']);
      expect(JSON.stringify(job?.data)).not.toContain(address);
      const { sealedEmail } = definition.payload.parse(job?.data) as { sealedEmail: string };
      expect(t.app.services.sealer.open(sealedEmail, seal)).toBe(address);
    }
    const [message] = await outboxFor(t.app, payload.email);
    expect(message?.subject).toBe(subject);
    expect(await outboxFor(t.app, unknownAddress)).toEqual([]);
  });
});

describe('sign-up', () => {
  it("queues the verification e-mail in the sign-up's transaction: no job is stored, no user either", async () => {
    const payload = newSignup();
    const c = await anonymous();
    vi.spyOn(t.app.services.jobs, 'enqueue').mockRejectedValueOnce(new Error('job table unavailable'));
    expect((await c.post('/api/auth/signup', payload)).statusCode).toBe(500);
    const rows = await t.db.db.select().from(schema.users).where(eq(schema.users.email, payload.email));
    expect(rows).toEqual([]);
    // The address is still free: the sign-up can be made again, with its e-mail this time.
    expect((await c.post('/api/auth/signup', payload)).statusCode).toBe(200);
    await expect(latestLink(t.app, payload.email, 'verify-email')).resolves.toBeDefined();
  });

  it('ten sign-ups of one address at once: one user, one job, one e-mail, and no token in the job', async () => {
    const payload = newSignup();
    const clients = await Promise.all(Array.from({ length: 10 }, () => anonymous()));
    const jobs = await jobsAddedBy(sendVerifyEmail, async () => {
      const answers = await Promise.all(clients.map((c) => c.post('/api/auth/signup', payload)));
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, ...Array<number>(9).fill(400)]);
    });
    expect(jobs).toHaveLength(1);
    expect(await outboxFor(t.app, payload.email)).toHaveLength(1);
    const link = await latestLink(t.app, payload.email, 'verify-email');
    expect(JSON.stringify(jobs)).not.toContain(link.token);
  });
});

describe('changing the e-mail address', () => {
  async function requested() {
    const c = client();
    const { payload, id } = await c.signupNew();
    const toEmail = newAddress();
    let requestedAt = '';
    const [linkJob] = await jobsAddedBy(sendEmailChangeLink, async () => {
      const response = await c.post('/api/auth/change-email/request', { toEmail, password: PASSWORD });
      expect(response.statusCode).toBe(200);
      requestedAt = response.json<{ requestedAt: string }>().requestedAt;
    });
    return { c, email: payload.email, id, toEmail, requestedAt, linkJob };
  }

  it("queues the link and the old address's notice by the request, naming the request, not its links", async () => {
    const { id, email, toEmail, requestedAt, linkJob } = await requested();
    const [notice] = await jobsOf(t.app, sendEmailChangeRequestedNotice.name).then((jobs) =>
      jobs.filter((job) => sendEmailChangeRequestedNotice.payload.parse(job.data).userId === id),
    );
    for (const job of [linkJob, notice]) {
      expect(job).toMatchObject({
        state: 'completed',
        data: { userId: id, requestedAt },
        output: { outcome: 'sent' },
      });
    }
    const confirm = await latestLink(t.app, toEmail, 'change-email');
    const cancel = await latestLink(t.app, email, 'change-email-cancel');
    for (const secret of [confirm.token, cancel.token])
      expect(JSON.stringify([linkJob, notice])).not.toContain(secret);
  });

  it('five requests at once: one goes out, with one link job and one notice job', async () => {
    const c = client();
    const { id } = await c.signupNew();
    const [links, notices] = await Promise.all([
      jobsOf(t.app, sendEmailChangeLink.name),
      jobsOf(t.app, sendEmailChangeRequestedNotice.name),
    ]);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        c.post('/api/auth/change-email/request', { toEmail: newAddress(), password: PASSWORD }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 429, 429, 429, 429]);
    await jobsSettled(t.app);
    const mine = (jobs: JobRow[], before: JobRow[]) =>
      jobs.filter(
        (job) => !before.some((old) => old.id === job.id) && (job.data as { userId: number }).userId === id,
      );
    expect(mine(await jobsOf(t.app, sendEmailChangeLink.name), links)).toHaveLength(1);
    expect(mine(await jobsOf(t.app, sendEmailChangeRequestedNotice.name), notices)).toHaveLength(1);
  });

  it('a late link job sends nothing once its request was replaced or cancelled', async () => {
    const { c, email, toEmail, linkJob } = await requested();
    /** The job run again (a retry, or a job held up), as late as now. */
    const runAgain = (job: JobRow | undefined) =>
      jobsAddedBy(sendEmailChangeLink, () =>
        t.app.services.jobs.enqueue(sendEmailChangeLink, sendEmailChangeLink.payload.parse(job?.data)),
      );

    // Replaced by a newer request (to another address): the first request's job has nothing to send.
    t.clock.advance(31_000);
    const newer = newAddress();
    const [newerJob] = await jobsAddedBy(sendEmailChangeLink, async () => {
      const response = await c.post('/api/auth/change-email/request', { toEmail: newer, password: PASSWORD });
      expect(response.statusCode).toBe(200);
    });
    expect(await runAgain(linkJob)).toMatchObject([{ output: { outcome: 'skipped' } }]);
    expect(await outboxFor(t.app, toEmail)).toHaveLength(1);

    // Cancelled from the old address: the newer request's job sends nothing either.
    const cancel = await latestLink(t.app, email, 'change-email-cancel');
    const anon = await anonymous();
    const cancelled = await anon.post('/api/auth/change-email/cancel', {
      uidb64: cancel.uidb64,
      token: cancel.token,
    });
    expect(cancelled.statusCode).toBe(200);
    expect(await runAgain(newerJob)).toMatchObject([{ output: { outcome: 'skipped' } }]);
    expect(await outboxFor(t.app, newer)).toHaveLength(1);
  });

  it('two confirmations at once: one change, one "changed" notice to the old address, its addresses sealed', async () => {
    const { id, email, toEmail } = await requested();
    const link = await latestLink(t.app, toEmail, 'change-email');
    const clients = await Promise.all([anonymous(), anonymous()]);
    const jobs = await jobsAddedBy(sendEmailChangedNotice, async () => {
      const answers = await Promise.all(
        clients.map((c) =>
          c.post('/api/auth/change-email/confirm', { uidb64: link.uidb64, token: link.token }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    });
    expect(jobs).toMatchObject([{ state: 'completed', output: { outcome: 'sent' } }]);
    const [job] = jobs;
    expect(JSON.stringify(job?.data)).not.toContain(email);
    expect(JSON.stringify(job?.data)).not.toContain(toEmail);
    const { userId, sealedAddresses } = sendEmailChangedNotice.payload.parse(job?.data);
    expect(userId).toBe(id);
    const opened = t.app.services.sealer.open(sealedAddresses, emailChangedAddressesSeal(id));
    expect(changedAddresses.parse(JSON.parse(opened))).toEqual({ from: email, to: toEmail });
    const notices = (await outboxFor(t.app, email)).filter((message) => message.text.includes(toEmail));
    expect(notices.map((message) => message.subject)).toContain('Your Veriform e-mail address was changed');
  });
});
