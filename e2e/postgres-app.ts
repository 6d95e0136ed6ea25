import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createE2eDatabase, dropE2eDatabase, e2eDatabaseUrl } from './postgres.ts';

/**
 * The browser tests' fourth app (playwright.config.ts), with its PostgreSQL database (e2e/postgres.ts) living as long
 * as it does: creates the database, runs the app exactly as `node apps/server/src/server.ts` with DATABASE_URL naming
 * it (the app migrates it on start), and once the app has shut down (Playwright's SIGTERM reaches both processes; the
 * app closes its connections), drops it.
 */
await createE2eDatabase();
const app = spawn(process.execPath, [join(import.meta.dirname, '../apps/server/src/server.ts')], {
  env: { ...process.env, DATABASE_URL: e2eDatabaseUrl() },
  stdio: 'inherit',
});
// The app handles the signal (close-with-grace); this process only waits for it to finish.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => {});
const code = await new Promise<number>((resolve) => app.on('exit', (exitCode) => resolve(exitCode ?? 1)));
await dropE2eDatabase();
process.exit(code);
