import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, type DatabaseHandle, schema } from '@veriform/db';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PREFIX_LENGTH, generateApiKey, hashApiKey } from './modules/api-keys/key-format.ts';
import { verifyChain } from './modules/audit/chain.ts';
import { chainFromDatabase } from './modules/audit/sources.ts';
import {
  createEmptyPostgresDatabase,
  HttpClient,
  newClientIp,
  type ServerProcess,
  serverEnv,
  startServer,
  stopServer,
} from './test-support/server-process.ts';

/**
 * Two server processes, as production runs them behind a proxy, against one PostgreSQL database (issue #7 item 1):
 * each is `server.ts` in its own Node process with the same SECRET_KEY, talking over loopback HTTP. A session made
 * on one is valid on the other, a CSRF token from one is accepted by the other, the login and code-send limits count
 * requests to both, and every queued code is sent exactly once although both processes work the queue.
 *
 * PostgreSQL only: the embedded PGlite is one process's database by design (ADR 0001); the PostgreSQL run of the
 * server tests (scripts/test.sh step 4) runs this file.
 */

const serverUrl = process.env.TEST_DATABASE_URL;

describe.runIf(serverUrl)('two server processes on one PostgreSQL database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'veriform-mp-'));
  let a: ServerProcess;
  let b: ServerProcess;
  let database: DatabaseHandle;
  let dropDatabase: () => Promise<void>;

  beforeAll(async () => {
    const created = await createEmptyPostgresDatabase(serverUrl as string);
    dropDatabase = created.drop;
    const env = serverEnv({ databaseUrl: created.url, dataDir }, randomBytes(32).toString('base64url'));
    // Both start at once on an empty database: the migrations' advisory lock makes them take turns.
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
    database = createDb({ kind: 'postgres', url: created.url, poolSize: 2 });
  }, 90_000);

  afterAll(async () => {
    await Promise.all([a && stopServer(a), b && stopServer(b)]);
    await database?.close();
    await dropDatabase?.();
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('a session and a CSRF token made by one process work on the other', async () => {
    const browser = new HttpClient(newClientIp());
    await browser.refreshCsrf(a.url);
    const email = `mp-${randomBytes(4).toString('hex')}@example.com`;
    // A's token, B's answer.
    const signup = await browser.request(b.url, 'POST', '/api/auth/signup', {
      email,
      firstName: 'Ana',
      lastName: 'Two',
      password: 'Correct-horse-9',
      passwordConfirm: 'Correct-horse-9',
    });
    expect(signup.status, signup.text).toBe(200);
    // The signup rotated the CSRF secret (B set it); a token for it from A works on B and the other way round.
    await browser.refreshCsrf(a.url);
    const onA = await browser.request(a.url, 'POST', '/api/auth/refresh-me');
    expect(onA.status, onA.text).toBe(200);
    expect((onA.json().user as { email: string }).email).toBe(email);
    await browser.refreshCsrf(b.url);
    expect((await browser.request(a.url, 'POST', '/api/auth/refresh-me')).status).toBe(200);

    // Logged out on A: B no longer knows the session.
    await browser.request(a.url, 'POST', '/api/auth/logout');
    await browser.refreshCsrf(b.url);
    const after = await browser.request(b.url, 'POST', '/api/auth/refresh-me');
    // The anonymous viewer (SPEC §3 initial data: a user without id).
    expect(after.json().user).toMatchObject({ id: null, email: '' });
  });

  it('failed logins count across both processes', async () => {
    const browser = new HttpClient(newClientIp());
    await browser.refreshCsrf(a.url);
    const email = `mp-${randomBytes(4).toString('hex')}@example.com`;
    expect(
      (
        await browser.request(a.url, 'POST', '/api/auth/signup', {
          email,
          firstName: 'Bo',
          lastName: 'Two',
          password: 'Correct-horse-9',
          passwordConfirm: 'Correct-horse-9',
        })
      ).status,
    ).toBe(200);
    await browser.request(a.url, 'POST', '/api/auth/logout');
    // Five wrong passwords per address and client network per 15 minutes (ADR 12), alternating processes.
    const attacker = new HttpClient(newClientIp());
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const server = i % 2 === 0 ? a : b;
      await attacker.refreshCsrf(server.url);
      statuses.push(
        (
          await attacker.request(server.url, 'POST', '/api/auth/login', {
            email,
            password: `Wrong-${i}-pass`,
          })
        ).status,
      );
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    // The right password from that network is refused too, on either process; from another network it is not.
    for (const server of [a, b]) {
      expect(
        (
          await attacker.request(server.url, 'POST', '/api/auth/login', {
            email,
            password: 'Correct-horse-9',
          })
        ).status,
      ).toBe(429);
    }
    const owner = new HttpClient(newClientIp());
    await owner.refreshCsrf(b.url);
    expect(
      (await owner.request(b.url, 'POST', '/api/auth/login', { email, password: 'Correct-horse-9' })).status,
    ).toBe(200);
  });

  it('a burst of wrong passwords split over both processes checks exactly five', async () => {
    const email = `mp-burst-${randomBytes(4).toString('hex')}@example.com`;
    const attacker = new HttpClient(newClientIp());
    await attacker.refreshCsrf(a.url);
    const statuses = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const server = i % 2 === 0 ? a : b;
        return (
          await attacker.request(server.url, 'POST', '/api/auth/login', { email, password: `Wrong-${i}` })
        ).status;
      }),
    );
    expect(statuses.filter((status) => status !== 429)).toHaveLength(5);
  });

  it('audit events of one account written at once through both processes keep one valid chain', async () => {
    const browser = new HttpClient(newClientIp());
    await browser.refreshCsrf(a.url);
    const email = `audit-${randomBytes(4).toString('hex')}@example.com`;
    const signup = await browser.request(a.url, 'POST', '/api/auth/signup', {
      email,
      firstName: 'Chain',
      lastName: 'Two',
      password: 'Correct-horse-9',
      passwordConfirm: 'Correct-horse-9',
    });
    expect(signup.status, signup.text).toBe(200);
    await database.db
      .update(schema.users)
      .set({ emailIsVerified: true, emailVerifiedAsOf: new Date() })
      .where(eq(schema.users.email, email));
    await browser.refreshCsrf(a.url);
    const created = await browser.request(a.url, 'POST', '/api/accounts', { displayName: 'Chained Co' });
    expect(created.status, created.text).toBe(201);
    const accountId = (created.json().membership as { account: { id: number } }).account.id;
    await browser.refreshCsrf(b.url);
    // Twenty changes at once, half through each process: each writes its event in its own transaction.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        browser.request(i % 2 === 0 ? a.url : b.url, 'POST', '/api/api-keys', {
          account: accountId,
          name: `Key ${i}`,
          mode: 'test',
          scopes: ['forms:read'],
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(201));
    const check = await verifyChain(chainFromDatabase(database.db, accountId));
    expect(check.ok).toBe(true);
    const created20 = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(schema.auditEvents)
      .where(
        and(eq(schema.auditEvents.accountId, accountId), eq(schema.auditEvents.action, 'api_key.created')),
      );
    expect(created20[0]?.n).toBe(20);
  });

  it('an API key revoked through one process answers 401 on the other at its next request', async () => {
    const [account] = await database.db
      .insert(schema.accounts)
      .values({ displayName: 'Keyed Co' })
      .returning();
    if (!account) throw new Error('no account');
    const key = generateApiKey('live');
    const [row] = await database.db
      .insert(schema.apiKeys)
      .values({
        accountId: account.id,
        name: 'Two processes',
        mode: 'live',
        prefix: key.slice(0, API_KEY_PREFIX_LENGTH),
        secretHash: hashApiKey(key),
        scopes: ['forms:read'],
      })
      .returning();
    if (!row) throw new Error('no key');
    const list = (server: ServerProcess) =>
      fetch(`${server.url}/api/v1/forms`, { headers: { authorization: `Bearer ${key}` } });
    expect((await list(a)).status).toBe(200);
    expect((await list(b)).status).toBe(200);
    // What DELETE /api/api-keys/{id} writes, from whichever process took it: no process keeps keys in memory.
    await database.db
      .update(schema.apiKeys)
      .set({ revokedAt: new Date() })
      .where(eq(schema.apiKeys.id, row.id));
    expect((await list(b)).status).toBe(401);
    expect((await list(a)).status).toBe(401);
  });

  it('code sends are limited in total, and each queued code is sent once', async () => {
    // A live form per phone-limit step (one number may get a code from each form, 30 s apart per form).
    const [account] = await database.db
      .insert(schema.accounts)
      .values({ displayName: 'Two Processes Co' })
      .returning();
    if (!account) throw new Error('no account');
    const forms = await database.db
      .insert(schema.verifyForms)
      .values(
        Array.from({ length: 11 }, (_, i) => ({
          accountId: account.id,
          // The shape of a real public id: 16 URL-safe characters.
          publicId: randomBytes(12).toString('base64url'),
          name: `Form ${i}`,
          isLive: true,
        })),
      )
      .returning();
    const sendCode = async (
      server: ServerProcess,
      browser: HttpClient,
      publicId: string,
      cellPhone: string,
    ) => {
      await browser.refreshCsrf(server.url);
      return browser.request(server.url, 'POST', `/api/public/verify-forms/${publicId}/send-code`, {
        cellPhone,
        method: 'sms',
      });
    };

    // Per number and day: 10, whichever process and form is asked.
    const phone = '+12015550188';
    const perPhone: number[] = [];
    for (const [i, form] of forms.entries()) {
      perPhone.push(
        (await sendCode(i % 2 === 0 ? a : b, new HttpClient(newClientIp()), form.publicId, phone)).status,
      );
    }
    expect(perPhone).toEqual([...Array(10).fill(201), 429]);

    // Per client address and day: 50.
    const visitor = new HttpClient(newClientIp());
    const perIp: number[] = [];
    for (let i = 0; i < 51; i += 1) {
      const number = `+1201555${String(2000 + i).padStart(4, '0')}`;
      perIp.push(
        (await sendCode(i % 2 === 0 ? a : b, visitor, (forms[0] as { publicId: string }).publicId, number))
          .status,
      );
    }
    expect(perIp).toEqual([...Array(50).fill(201), 429]);

    // Both processes work the queue; 60 codes were accepted, so 60 messages, one per code, none twice.
    const sent = async () =>
      database.db
        .select({ to: schema.outboxMessages.to, text: schema.outboxMessages.text })
        .from(schema.outboxMessages)
        .where(eq(schema.outboxMessages.channel, 'sms'));
    const deadline = Date.now() + 30_000;
    while ((await sent()).length < 60 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    // A duplicate would come from a second worker taking a job already taken; give it time to show.
    await new Promise((r) => setTimeout(r, 1500));
    const messages = await sent();
    expect(messages).toHaveLength(60);
    expect(new Set(messages.map((m) => m.text)).size).toBe(60);
    expect(messages.filter((m) => m.to === phone)).toHaveLength(10);
  }, 60_000);
});
