import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, type DatabaseHandle, schema } from '@veriform/db';
import { createProcessDatabase } from '@veriform/db/testing';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { solidImage } from './test-support/images.ts';
import {
  HttpClient,
  newClientIp,
  type ServerProcess,
  serverEnv,
  startServer,
  stopServer,
} from './test-support/server-process.ts';

/**
 * Crash safety (issue #7 item 3), on the engine of this run: PGlite in a data directory without TEST_DATABASE_URL,
 * a fresh PostgreSQL database with it. The server runs as its own process under write load — sign-ups, profile
 * pictures, verifications — and is killed with SIGKILL while requests are in flight. Every write it had answered
 * must be there when the database is opened again, and the server must start on it. SIGTERM must let requests and
 * jobs in flight finish, then exit cleanly.
 *
 * PGlite: PostgreSQL's WAL is written with write(2) before a commit is answered, so the operating system holds every
 * answered write when the process dies (proved here); Emscripten's NODEFS turns fsync into a no-op, so a machine crash
 * or power loss can lose the last commits (docs/deploy.md, ADR 0009).
 */

const serverUrl = process.env.TEST_DATABASE_URL;
const engine = serverUrl ? 'PostgreSQL' : 'PGlite';
const TEST_CODE = '424242';
const PASSWORD = 'Correct-horse-9';

type Acknowledged = { signups: string[]; uploads: { email: string; url: string }[]; verified: string[] };

describe(`crash safety on ${engine}`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'veriform-crash-'));
  const secretKey = randomBytes(32).toString('base64url');
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  let publicId = '';
  let testNumbers: string[] = [];
  let picture: Buffer;

  /** The database as the server opens it, from this process (PGlite: only while no server runs). */
  const openDirectly = (): DatabaseHandle =>
    databaseUrl
      ? createDb({ kind: 'postgres', url: databaseUrl, poolSize: 2 })
      : createDb({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
  const start = (logLevel = 'warn') =>
    startServer({ ...serverEnv({ databaseUrl, dataDir }, secretKey), LOG_LEVEL: logLevel });

  beforeAll(async () => {
    const created = await createProcessDatabase(inject('testDbTemplate'), join(dataDir, 'pglite'));
    databaseUrl = created.databaseUrl;
    dropDatabase = created.drop;
    picture = await solidImage(64, 64, 'png');
    // A live form and test numbers (fixed code, nothing sent), so that verifications need no message.
    const database = openDirectly();
    try {
      await database.migrate();
      const [account] = await database.db
        .insert(schema.accounts)
        .values({ displayName: 'Crash Test Co' })
        .returning();
      if (!account) throw new Error('no account');
      publicId = randomBytes(12).toString('base64url');
      await database.db
        .insert(schema.verifyForms)
        .values({ accountId: account.id, publicId, name: 'Crash form', isLive: true });
      testNumbers = Array.from({ length: 400 }, (_, i) => `+1201555${String(3000 + i).padStart(4, '0')}`);
      await database.db
        .insert(schema.testPhoneNumbers)
        .values(testNumbers.map((cellPhone) => ({ accountId: account.id, cellPhone, code: TEST_CODE })));
    } finally {
      await database.close();
    }
  }, 60_000);

  afterAll(async () => {
    await dropDatabase?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** One visitor after another: sign up, upload a picture, verify a phone; records what the server answered. */
  async function visitorLoop(server: ServerProcess, acknowledged: Acknowledged, stop: () => boolean) {
    while (!stop()) {
      const browser = new HttpClient(newClientIp());
      try {
        await browser.refreshCsrf(server.url);
        const email = `crash-${randomBytes(5).toString('hex')}@example.com`;
        const signup = await browser.request(server.url, 'POST', '/api/auth/signup', {
          email,
          firstName: 'Kill',
          lastName: 'Nine',
          password: PASSWORD,
          passwordConfirm: PASSWORD,
        });
        if (signup.status !== 200) throw new Error(`signup ${signup.status} ${signup.text}`);
        acknowledged.signups.push(email);
        const userId = signup.json<{ user: { id: number } }>().user.id;

        await browser.refreshCsrf(server.url);
        const form = new FormData();
        form.append(
          'uploadedProfileImage',
          new Blob([new Uint8Array(picture)], { type: 'image/png' }),
          'me.png',
        );
        const upload = await browser.request(
          server.url,
          'POST',
          `/api/users/${userId}/update-uploaded-profile-image`,
          form,
        );
        if (upload.status !== 200) throw new Error(`upload ${upload.status} ${upload.text}`);
        acknowledged.uploads.push({
          email,
          url: upload.json<{ uploadedProfileImage: string }>().uploadedProfileImage,
        });

        const cellPhone = testNumbers.pop();
        if (!cellPhone) return;
        const sent = await browser.request(
          server.url,
          'POST',
          `/api/public/verify-forms/${publicId}/send-code`,
          {
            cellPhone,
            method: 'sms',
          },
        );
        if (sent.status !== 201) throw new Error(`send-code ${sent.status} ${sent.text}`);
        const { attemptId } = sent.json<{ attemptId: string }>();
        const checked = await browser.request(server.url, 'POST', `/api/public/attempts/${attemptId}/check`, {
          code: TEST_CODE,
        });
        if (checked.status !== 200) throw new Error(`check ${checked.status} ${checked.text}`);
        acknowledged.verified.push(attemptId);
      } catch (error) {
        // A request cut off by the kill has no answer: it was never acknowledged. Anything else is a failure.
        if (stop()) return;
        throw error;
      }
    }
  }

  it('SIGKILL during writes loses no answered write, and the database opens and serves again', async () => {
    const server = await start();
    const acknowledged: Acknowledged = { signups: [], uploads: [], verified: [] };
    let killed = false;
    const visitors = Array.from({ length: 6 }, () => visitorLoop(server, acknowledged, () => killed));
    // Kill once every kind of write has been answered a few times, with the six visitors in the middle of more.
    const deadline = Date.now() + 60_000;
    while (
      Math.min(acknowledged.signups.length, acknowledged.uploads.length, acknowledged.verified.length) < 5 &&
      Date.now() < deadline
    )
      await new Promise((r) => setTimeout(r, 20));
    killed = true;
    expect(await stopServer(server, 'SIGKILL')).toBeNull();
    await Promise.all(visitors);
    expect(acknowledged.verified.length).toBeGreaterThanOrEqual(5);

    const database = openDirectly();
    try {
      const users = await database.db
        .select({ email: schema.users.email, image: schema.users.uploadedProfileImage })
        .from(schema.users)
        .where(inArray(schema.users.email, acknowledged.signups));
      expect(users.map((u) => u.email).sort()).toEqual([...acknowledged.signups].sort());
      const imageOf = new Map(users.map((u) => [u.email, u.image]));
      for (const upload of acknowledged.uploads) expect(imageOf.get(upload.email)).toBe(upload.url);
      const hashes = acknowledged.uploads.map((u) => /([0-9a-f]{64})/.exec(u.url)?.[1] ?? '');
      const stored = await database.db
        .select({ sha256: schema.media.sha256 })
        .from(schema.media)
        .where(inArray(schema.media.sha256, hashes));
      expect(new Set(stored.map((m) => m.sha256))).toEqual(new Set(hashes));
      const attempts = await database.db
        .select({
          id: schema.verificationAttempts.id,
          verificationId: schema.verificationAttempts.verificationId,
        })
        .from(schema.verificationAttempts)
        .where(
          and(
            inArray(schema.verificationAttempts.id, acknowledged.verified),
            eq(schema.verificationAttempts.status, 'verified'),
          ),
        );
      expect(attempts).toHaveLength(acknowledged.verified.length);
      const [verifications] = await database.db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(schema.verifications)
        .where(
          inArray(
            schema.verifications.id,
            attempts.map((a) => a.verificationId ?? 0),
          ),
        );
      expect(verifications?.n).toBe(acknowledged.verified.length);
    } finally {
      await database.close();
    }

    // The server starts on what the crash left and serves a logged-in user.
    const again = await start();
    try {
      const browser = new HttpClient(newClientIp());
      await browser.refreshCsrf(again.url);
      const login = await browser.request(again.url, 'POST', '/api/auth/login', {
        email: acknowledged.signups[0],
        password: PASSWORD,
      });
      expect(login.status, login.text).toBe(200);
    } finally {
      expect(await stopServer(again)).toBe(0);
    }
  }, 120_000);

  it('SIGTERM finishes the requests and jobs in flight, then exits cleanly', async () => {
    // Info level: the server logs each request as it arrives, which tells the test they are in flight.
    const server = await start('info');
    const browsers = Array.from({ length: 4 }, () => new HttpClient(newClientIp()));
    await Promise.all(browsers.map((b) => b.refreshCsrf(server.url)));
    // Codes to real (non-test) numbers: each is a queued job that sends an SMS (the development outbox).
    const codes = await Promise.all(
      browsers.map((b, i) =>
        b.request(server.url, 'POST', `/api/public/verify-forms/${publicId}/send-code`, {
          cellPhone: `+1201555${String(7000 + i).padStart(4, '0')}`,
          method: 'sms',
        }),
      ),
    );
    expect(codes.map((c) => c.status)).toEqual([201, 201, 201, 201]);
    const signups = browsers.map((b) =>
      b.request(server.url, 'POST', '/api/auth/signup', {
        email: `term-${randomBytes(5).toString('hex')}@example.com`,
        firstName: 'Term',
        lastName: 'Fifteen',
        password: PASSWORD,
        passwordConfirm: PASSWORD,
      }),
    );
    const arrived = () =>
      server.output
        .join('')
        .split('\n')
        .filter((line) => line.includes('"url":"/api/auth/signup"')).length;
    const deadline = Date.now() + 20_000;
    while (arrived() < browsers.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(arrived()).toBe(browsers.length);

    server.child.kill('SIGTERM');
    // Every request that had arrived is answered in full.
    expect((await Promise.all(signups)).map((s) => s.status)).toEqual([200, 200, 200, 200]);
    expect(await server.exited).toBe(0);

    // No job was left half done: each code was sent, or waits in the queue for the next process.
    const database = openDirectly();
    try {
      const jobs = await database.executeSql(
        // A code's send is claimed from its attempt (ADR 33); its state read as the job it stands for.
        `select case send_state when 'queued' then 'created' else send_state end as state
         from verification_attempts where send_state is not null`,
      );
      expect(jobs.rows.filter((j) => (j as { state: string }).state === 'active')).toEqual([]);
      const sent = await database.db
        .select({ to: schema.outboxMessages.to })
        .from(schema.outboxMessages)
        .where(eq(schema.outboxMessages.channel, 'sms'));
      const waiting = jobs.rows.filter((j) => ['created', 'retry'].includes((j as { state: string }).state));
      expect(sent.length + waiting.length).toBeGreaterThanOrEqual(4);
    } finally {
      await database.close();
    }
  }, 120_000);
});
