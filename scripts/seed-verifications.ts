/**
 * Demo data for the activity log, the dashboard and the CSV export (issue #6): fills one account with N verifications
 * across forms, methods and dates, plus the matching verification attempts (the report's funnel), in set-based SQL.
 *
 *     npx tsx scripts/seed-verifications.ts --database-url postgres://postgres@127.0.0.1:5432/veriform_bench \
 *       --verifications 1000000 [--account 12] [--forms 12] [--days 400] [--chunk 100000]
 *
 * Without --database-url (and without DATABASE_URL) it writes into the embedded PGlite under DATA_DIR (./data), the
 * same folder `npm start` opens. The database is migrated first, so an empty one works. Without --account it creates an
 * owner (e-mail verified, a known password), an account and the forms, and prints the login.
 *
 * Rows are made by `INSERT … SELECT … FROM generate_series` in chunks (one statement each, with progress), never row by
 * row from Node: a million verifications take a few minutes on PostgreSQL. Instants are spread over the last `--days`
 * days (more of them recently, as a growing business has), with microseconds, so keyset paging on `created` meets
 * realistic ties and near-ties. Ends with VACUUM ANALYZE so the planner (and index-only scans) see the new rows.
 *
 * Tens of millions of rows (issue #20): every row pays for the tables' ~20 secondary indexes, which no longer fit in
 * memory. `--defer-indexes` drops them first (their definitions kept in the table `seed_deferred_indexes`, so several
 * runs can fill several accounts) and `--restore-indexes` builds them again at the end (one sort each, with a larger
 * maintenance_work_mem), then VACUUM ANALYZE: a run with `--verifications 0 --account N --restore-indexes` does
 * only that.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createDb, type DatabaseHandle, schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { createPasswords } from '../apps/server/src/lib/passwords.ts';

/** Passwords at the production cost (lib/passwords.ts), as the app hashes them. */
const { hashPassword } = createPasswords({ fast: false });

function positiveInt(name: string, raw: string | undefined): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got ${raw}`);
  return n;
}

/** The password printed for a created owner: known, so a person can log in and look at the data. */
export const SEED_PASSWORD = 'Bench-password-9!';

const formNames = [
  'Loan application',
  'Store card sign-up',
  'Insurance quote',
  'Patient intake',
  'Rental application',
  'SIM activation',
  'Newsletter consent',
  'Auto refinance',
  'Solicitud de préstamo',
  'Account recovery',
  'Pharmacy refill',
  'Event registration',
];
const categories = ['Lending', 'Retail', 'Insurance', 'Healthcare', 'Real estate', 'Telecom', ''];

function open(databaseUrl: string | undefined): DatabaseHandle {
  if (databaseUrl) return createDb({ kind: 'postgres', url: databaseUrl, poolSize: 2 });
  // The same folder as apps/server/src/database.ts opens for `npm start`.
  return createDb({ kind: 'pglite', dataDir: join(process.env.DATA_DIR ?? './data', 'pglite') });
}

export async function createOwnerAccount(
  handle: DatabaseHandle,
): Promise<{ accountId: number; email: string }> {
  const { db } = handle;
  const email = `owner-${randomBytes(4).toString('hex')}@bench.example.com`;
  const [user] = await db
    .insert(schema.users)
    .values({
      email,
      name: 'Benchmark Owner',
      passwordHash: await hashPassword(SEED_PASSWORD),
      emailIsVerified: true,
      emailVerifiedAsOf: new Date(),
    })
    .returning();
  const [account] = await db
    .insert(schema.accounts)
    .values({ displayName: 'Acme Lending & Co.' })
    .returning();
  if (!user || !account) throw new Error('could not create the owner and account');
  await db.insert(schema.memberships).values({
    userId: user.id,
    accountId: account.id,
    role: 'owner',
    canSearchData: true,
    canViewReports: true,
  });
  return { accountId: account.id, email };
}

/** Tops the account up to `formCount` forms (an existing account keeps its own). */
export async function ensureForms(
  handle: DatabaseHandle,
  accountId: number,
  formCount: number,
): Promise<number> {
  const { db } = handle;
  const existing = await db
    .select({ id: schema.verifyForms.id })
    .from(schema.verifyForms)
    .where(eq(schema.verifyForms.accountId, accountId));
  for (let i = existing.length; i < formCount; i++) {
    const name = formNames[i % formNames.length] ?? 'Form';
    await db.insert(schema.verifyForms).values({
      publicId: randomBytes(12).toString('base64url'),
      accountId,
      name: i < formNames.length ? name : `${name} ${Math.floor(i / formNames.length) + 1}`,
      isLive: i % 5 !== 4,
      language: name.startsWith('Solicitud') ? 'es' : 'en',
      category: categories[i % categories.length] ?? '',
    });
  }
  return Math.max(existing.length, formCount);
}

/**
 * One chunk: `count` verifications (one statement), then their attempts — one `verified` attempt each and, for ~30 %,
 * an earlier attempt that did not verify (replaced, locked or expired): ~1.3 codes sent per verification.
 * Forms are picked with a skew (a few forms take most of the traffic); methods ~70/30 SMS/e-mail; 1 % test numbers.
 */
export async function insertChunk(
  handle: DatabaseHandle,
  accountId: number,
  count: number,
  forms: number,
  days: number,
) {
  const { executeSql } = handle;
  await executeSql(
    `WITH f AS (
       SELECT row_number() OVER (ORDER BY id)::int AS fi, id, name, category
       FROM verify_forms WHERE account_id = $1
     ),
     s AS (
       SELECT g,
              1 + least($3::int - 1, floor(power(random(), 1.8) * $3::int)::int) AS fi,
              random() AS r_method, random() AS r_ref, random() AS r_test, random() AS r_country,
              now() - (power(random(), 1.4) * $4::int) * interval '1 day' AS created
       FROM generate_series(1, $2::int) AS g
     )
     INSERT INTO verifications (account_id, verify_form_id, cell_phone, external_ref_id, verify_form_name,
       verify_form_category, verification_method, email, is_test, code_sent_at, verified_at, attempts, ip,
       user_agent, created_at)
     SELECT $1, f.id,
            CASE WHEN s.r_country < 0.9
                 THEN '+1' || (201 + floor(random() * 780))::int::text || lpad(floor(random() * 1e7)::int::text, 7, '0')
                 ELSE '+52' || (55 + floor(random() * 40))::int::text || lpad(floor(random() * 1e8)::int::text, 8, '0')
            END,
            CASE WHEN s.r_ref < 0.8 THEN 'CRM-' || (100000 + floor(random() * 900000))::int::text ELSE '' END,
            f.name, f.category,
            CASE WHEN s.r_method < 0.7 THEN 'sms' ELSE 'email' END,
            CASE WHEN s.r_method < 0.7 THEN NULL ELSE 'person' || s.g || '@example.net' END,
            s.r_test < 0.01,
            s.created - (5 + random() * 115) * interval '1 second',
            s.created,
            1 + (random() < 0.15)::int,
            '203.0.113.' || (1 + floor(random() * 254))::int::text,
            'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X)',
            s.created
     FROM s JOIN f ON f.fi = s.fi`,
    [accountId, count, forms, days],
  );
}

/**
 * Attempts for the verifications inserted since `afterId` (ids only grow, so each chunk's rows are `id > afterId`),
 * with ids shaped as the app makes them (16 random bytes in base64url: 22 characters), which API v1 takes as cursors.
 */
export async function insertAttempts(handle: DatabaseHandle, accountId: number, afterId: number) {
  await handle.executeSql(
    `INSERT INTO verification_attempts (id, account_id, verify_form_id, cell_phone, method, email, external_ref_id,
       code_hash, status, is_test, wrong_tries, ip, user_agent, created_at, expires_at, sent_at, verified_at,
       verification_id)
     SELECT translate(rtrim(encode(uuid_send(gen_random_uuid()), 'base64'), '='), '+/', '-_'),
            v.account_id, v.verify_form_id, v.cell_phone, v.verification_method, v.email,
            v.external_ref_id, 'seed', CASE WHEN k = 1 THEN 'verified'
                                            WHEN v.id % 3 = 0 THEN 'locked' ELSE 'replaced' END,
            v.is_test, CASE WHEN k = 1 THEN v.attempts - 1 WHEN v.id % 3 = 0 THEN 5 ELSE 0 END,
            v.ip, v.user_agent,
            CASE WHEN k = 1 THEN v.code_sent_at ELSE v.code_sent_at - interval '3 minutes' END,
            CASE WHEN k = 1 THEN v.code_sent_at ELSE v.code_sent_at - interval '3 minutes' END + interval '10 minutes',
            CASE WHEN k = 1 THEN v.code_sent_at ELSE v.code_sent_at - interval '3 minutes' END,
            CASE WHEN k = 1 THEN v.verified_at END,
            CASE WHEN k = 1 THEN v.id END
     FROM verifications v
     CROSS JOIN LATERAL generate_series(1, CASE WHEN v.id % 10 < 3 THEN 2 ELSE 1 END) AS k
     WHERE v.account_id = $1 AND v.id > $2`,
    [accountId, afterId],
  );
}

export async function maxVerificationId(handle: DatabaseHandle): Promise<number> {
  const { rows } = await handle.executeSql('SELECT coalesce(max(id), 0)::text AS id FROM verifications', []);
  return Number((rows[0] as { id: string }).id);
}

const deferredTables = ['verifications', 'verification_attempts'];

/** Drops the non-unique indexes of the seeded tables, remembering their definitions (see the header). */
export async function deferIndexes(handle: DatabaseHandle): Promise<number> {
  await handle.executeSql(
    'CREATE TABLE IF NOT EXISTS seed_deferred_indexes (name text PRIMARY KEY, definition text NOT NULL)',
    [],
  );
  const { rows } = await handle.executeSql(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE i.indrelid::regclass::text = ANY($1::text[]) AND NOT i.indisunique AND NOT i.indisprimary`,
    [deferredTables],
  );
  for (const row of rows as { name: string; definition: string }[]) {
    await handle.executeSql(
      'INSERT INTO seed_deferred_indexes (name, definition) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [row.name, row.definition],
    );
    await handle.executeSql(`DROP INDEX ${quoteIdent(row.name)}`, []);
  }
  return rows.length;
}

/** Builds the indexes `deferIndexes` dropped, then refreshes statistics and the visibility map. */
export async function restoreIndexes(handle: DatabaseHandle): Promise<void> {
  const exists = await handle.executeSql(
    "SELECT to_regclass('seed_deferred_indexes') IS NOT NULL AS present",
    [],
  );
  if ((exists.rows[0] as { present: boolean }).present) {
    const { rows } = await handle.executeSql('SELECT name, definition FROM seed_deferred_indexes', []);
    for (const row of rows as { name: string; definition: string }[]) {
      const started = performance.now();
      // One statement on whichever pooled connection: the larger sort memory is set for its own transaction only.
      await handle.executeSql(
        `DO $seed$ BEGIN PERFORM set_config('maintenance_work_mem', '1GB', true); EXECUTE ${quoteLiteral(row.definition)}; END $seed$`,
        [],
      );
      console.log(`  index ${row.name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    await handle.executeSql('DROP TABLE seed_deferred_indexes', []);
  }
  await handle.executeSql('VACUUM (ANALYZE) verifications', []);
  await handle.executeSql('VACUUM (ANALYZE) verification_attempts', []);
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * Inserts `total` verifications (and their attempts) into the account in chunks, printing progress, then refreshes
 * the planner's statistics and the visibility map (VACUUM ANALYZE), as autovacuum would.
 */
export async function seedVerifications(
  handle: DatabaseHandle,
  options: {
    accountId: number;
    total: number;
    forms: number;
    days: number;
    chunk: number;
    /** Leave VACUUM ANALYZE to restoreIndexes (the indexes are deferred). */
    skipVacuum?: boolean;
  },
): Promise<void> {
  const { accountId, total, forms, days, chunk } = options;
  const started = performance.now();
  for (let done = 0; done < total; ) {
    const count = Math.min(chunk, total - done);
    const chunkStart = performance.now();
    const before = await maxVerificationId(handle);
    await insertChunk(handle, accountId, count, forms, days);
    await insertAttempts(handle, accountId, before);
    done += count;
    const elapsed = (performance.now() - started) / 1000;
    console.log(
      `  ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} ` +
        `(${Math.round(count / ((performance.now() - chunkStart) / 1000)).toLocaleString('en-US')} rows/s, ` +
        `${elapsed.toFixed(1)} s)`,
    );
  }
  if (options.skipVacuum) return;
  // Fresh statistics for the planner, and the visibility map for index-only scans (counts), as autovacuum would.
  await handle.executeSql('VACUUM (ANALYZE) verifications');
  await handle.executeSql('VACUUM (ANALYZE) verification_attempts');
}

async function main(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      'database-url': { type: 'string' },
      account: { type: 'string' },
      verifications: { type: 'string', default: '100000' },
      forms: { type: 'string', default: '12' },
      days: { type: 'string', default: '400' },
      chunk: { type: 'string', default: '100000' },
      'defer-indexes': { type: 'boolean', default: false },
      'restore-indexes': { type: 'boolean', default: false },
    },
  });
  const total = positiveInt('verifications', args.verifications);
  const formCount = Math.max(1, positiveInt('forms', args.forms));
  const days = Math.max(1, positiveInt('days', args.days));
  const chunk = Math.max(1, positiveInt('chunk', args.chunk));

  const handle = open(args['database-url'] ?? process.env.DATABASE_URL);
  try {
    const started = performance.now();
    await handle.migrate();
    let accountId: number;
    let login: string | undefined;
    if (args.account) {
      accountId = positiveInt('account', args.account);
      const [account] = await handle.db
        .select({ id: schema.accounts.id })
        .from(schema.accounts)
        .where(eq(schema.accounts.id, accountId));
      if (!account) throw new Error(`no account ${accountId}`);
    } else {
      const created = await createOwnerAccount(handle);
      accountId = created.accountId;
      login = created.email;
    }
    const forms = await ensureForms(handle, accountId, formCount);
    console.log(
      `account ${accountId}: ${forms} forms; inserting ${total} verifications in chunks of ${chunk}`,
    );
    if (args['defer-indexes']) console.log(`deferred ${await deferIndexes(handle)} indexes`);
    const deferred = args['defer-indexes'] || args['restore-indexes'];
    await seedVerifications(handle, { accountId, total, forms, days, chunk, skipVacuum: deferred });
    if (args['restore-indexes']) await restoreIndexes(handle);
    console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    console.log(`account id: ${accountId}`);
    if (login) console.log(`login: ${login} / ${SEED_PASSWORD}`);
  } finally {
    await handle.close();
  }
}

// Run only as a script: scripts/load.ts imports the functions above to prepare its own data.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
