import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, type DatabaseHandle, schema } from '@veriform/db';
import { createProcessDatabase } from '@veriform/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../config.ts';
import { serverEnv } from '../test-support/server-process.ts';
import { sendInvitationEmail } from './definitions/send-invitation-email.ts';

/**
 * A write and its job commit together (issue #14 item 2), on the engine of this run: PGlite in a data directory
 * without TEST_DATABASE_URL, a fresh PostgreSQL database with it, each a copy of the run's migrated template. A child
 * process (test-support/write-with-job.ts, the app as the server builds it) inserts an invitation and enqueues its
 * e-mail job in one transaction, then waits between the two writes and the commit. Killed there with SIGKILL, it
 * leaves neither behind; let go, it commits both and its worker sends the e-mail.
 */

const serverUrl = process.env.TEST_DATABASE_URL;
const engine = serverUrl ? 'PostgreSQL' : 'PGlite';

type Child = { child: ChildProcess; output: string[]; exited: Promise<number | null> };

function startChild(env: Record<string, string>, to: string): Child {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'apps/server/src/test-support/write-with-job.ts'), to],
    {
      cwd: repoRoot,
      env: { ...inherited, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output, exited };
}

async function said({ output, exited }: Child, line: string): Promise<void> {
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  // A busy machine can take most of a minute to start the child.
  const deadline = Date.now() + 150_000;
  while (!output.join('').includes(`${line}\n`)) {
    if (ended || Date.now() > deadline)
      throw new Error(`the child never said '${line}':\n${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe(`a write and its job on ${engine}`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'veriform-jobs-'));
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  const env = () => serverEnv({ databaseUrl, dataDir }, randomBytes(32).toString('base64url'));

  /** The database as the child opens it, from this process (PGlite: only while no child runs). */
  const openDirectly = (): DatabaseHandle =>
    databaseUrl
      ? createDb({ kind: 'postgres', url: databaseUrl, poolSize: 2 })
      : createDb({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });

  async function afterwards(to: string) {
    const database = openDirectly();
    try {
      const invitations = await database.db
        .select({ id: schema.invitations.id })
        .from(schema.invitations)
        .where(eq(schema.invitations.email, to));
      const jobs = await database.executeSql(
        `SELECT state::text AS state, output FROM pgboss.job WHERE name = $1
         UNION ALL SELECT state::text, output FROM pgboss.archive WHERE name = $1`,
        [sendInvitationEmail.name],
      );
      const outbox = await database.db
        .select({ text: schema.outboxMessages.text })
        .from(schema.outboxMessages)
        .where(eq(schema.outboxMessages.to, to));
      return { invitations, jobs: jobs.rows, outbox };
    } finally {
      await database.close();
    }
  }

  beforeAll(async () => {
    const created = await createProcessDatabase(inject('testDbTemplate'), join(dataDir, 'pglite'));
    databaseUrl = created.databaseUrl;
    dropDatabase = created.drop;
  });

  afterAll(async () => {
    await dropDatabase?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('SIGKILL between the writes and the commit leaves neither the write nor its job', async () => {
    const to = `killed-${randomBytes(4).toString('hex')}@example.com`;
    const child = startChild(env(), to);
    await said(child, 'between-write-and-commit');
    child.child.kill('SIGKILL');
    expect(await child.exited).toBeNull();

    expect(await afterwards(to)).toEqual({ invitations: [], jobs: [], outbox: [] });
  }, 180_000);

  it('once committed, both are there and the job runs: the e-mail goes out', async () => {
    const to = `committed-${randomBytes(4).toString('hex')}@example.com`;
    const child = startChild(env(), to);
    await said(child, 'between-write-and-commit');
    child.child.stdin?.write('commit\n');
    await said(child, 'committed');
    expect(await child.exited, child.output.join('')).toBe(0);

    const { invitations, jobs, outbox } = await afterwards(to);
    expect(invitations).toHaveLength(1);
    expect(jobs).toEqual([{ state: 'completed', output: { outcome: 'sent' } }]);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]?.text).toContain('invited you to join Durable Co on Veriform as a member.');
  }, 180_000);
});
