import pg from 'pg';

/**
 * The PostgreSQL database of the browser tests' fourth app (playwright.config.ts), the one whose evidence the retention
 * journey ages (e2e/purged-certificate.spec.ts). It lives on the server the server tests use (TEST_DATABASE_URL, the
 * same default as scripts/test.sh), under a name made once per run in the main process (workers inherit it):
 * e2e/postgres-app.ts creates it before that app starts and drops it after the app stops.
 */
const serverUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const PREFIX = 'vf_e2e_';

/** The run's database name: `vf_e2e_` and 12 hex digits, nothing to quote. */
export function e2eDatabaseName(): string {
  const name = process.env.E2E_POSTGRES_DATABASE ?? '';
  if (!new RegExp(`^${PREFIX}[0-9a-f]{12}$`).test(name)) throw new Error(`not an e2e database name: ${name}`);
  return name;
}

export function newE2eDatabaseName(random: string): string {
  return `${PREFIX}${random}`;
}

/** The connection string of the run's database. */
export function e2eDatabaseUrl(): string {
  const url = new URL(serverUrl);
  url.pathname = `/${e2eDatabaseName()}`;
  return url.toString();
}

async function onServer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function createE2eDatabase(): Promise<void> {
  await onServer(`CREATE DATABASE "${e2eDatabaseName()}"`);
}

/** Drops the run's database (FORCE: a connection the stopped app left behind does not keep it). */
export async function dropE2eDatabase(): Promise<void> {
  await onServer(`DROP DATABASE IF EXISTS "${e2eDatabaseName()}" WITH (FORCE)`);
}
