/**
 * Checks an account's audit log chain (issue #16 item 5), in the database or in a JSON Lines export:
 *
 *     npm run audit:verify -- --account 12 [--database-url postgres://…]   (else DATABASE_URL, else the embedded PGlite)
 *     npm run audit:verify -- --file audit-log-12-2026-11-24.jsonl
 *
 * Prints `OK, N events` and exits 0, or names the first event whose hash or link is wrong and exits 1. The rule it
 * checks is docs/decisions/0019-audit-log-hash-chain.md; anyone can re-implement it.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/database.ts';
import { type ChainCheck, verifyChain } from '../apps/server/src/modules/audit/chain.ts';
import { chainFromDatabase, chainFromJsonLines } from '../apps/server/src/modules/audit/sources.ts';

const { values: args } = parseArgs({
  options: { account: { type: 'string' }, file: { type: 'string' }, 'database-url': { type: 'string' } },
});

function report(check: ChainCheck): never {
  if (check.ok) {
    console.log(`OK, ${check.count} events`);
    process.exit(0);
  }
  console.log(`BROKEN at event ${check.sequence}: ${check.reason} (${check.count} events read)`);
  process.exit(1);
}

if (args.file) report(await verifyChain(chainFromJsonLines(args.file)));

const accountId = Number(args.account);
if (!Number.isInteger(accountId) || accountId < 1) {
  console.error('Usage: npm run audit:verify -- --account N [--database-url URL] | --file export.jsonl');
  process.exit(2);
}
const config = loadConfig({
  ...process.env,
  ...(args['database-url'] ? { DATABASE_URL: args['database-url'] } : {}),
  LOG_LEVEL: 'silent',
});
const database = openDatabase(config);
try {
  const check = await verifyChain(chainFromDatabase(database.db, accountId));
  await database.close();
  report(check);
} catch (error) {
  await database.close();
  throw error;
}
