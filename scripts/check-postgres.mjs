// Exits 0 when the PostgreSQL server of TEST_DATABASE_URL answers, 1 (with the reason) otherwise.
import pg from 'pg';

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.error('TEST_DATABASE_URL is not set.');
  process.exit(1);
}
const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
try {
  await client.connect();
  const { rows } = await client.query('show server_version');
  console.log(`PostgreSQL ${rows[0].server_version} answers.`);
  await client.end();
} catch (error) {
  console.error(`PostgreSQL check failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
