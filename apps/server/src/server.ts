import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './database.ts';

/** Entry point: config, database, migrations, listen; graceful shutdown. Everything else is in buildApp. */

async function main(): Promise<void> {
  const config = loadConfig();
  const database = openDatabase(config);
  await database.migrate();

  const app = await buildApp(config, { db: database });
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info(`${signal} received, shutting down`);
    await app.close();
    await database.close();
  });

  await app.listen({ port: config.port, host: config.host });
  const port = app.server.address();
  const actualPort = typeof port === 'object' && port ? port.port : config.port;
  console.log(`Veriform is running at http://localhost:${actualPort}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
