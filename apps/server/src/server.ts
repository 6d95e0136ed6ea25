import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig } from './config.ts';
import { flushErrorReports, initErrorReporting, reportError } from './lib/error-reporting.ts';

/** Entry point: config, error reporting, database, migrations, listen; graceful shutdown. Everything else is in buildApp. */

async function main(): Promise<void> {
  const config = loadConfig();
  // Before the app's modules load (imported below), so Sentry's instrumentation sees HTTP, Fastify and pg load.
  await initErrorReporting(config);
  const [{ buildApp }, { openDatabase }] = await Promise.all([import('./app.ts'), import('./database.ts')]);
  const database = openDatabase(config);
  await database.migrate();

  const app = await buildApp(config, { db: database });
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) {
      app.log.error({ err }, 'shutting down after an error');
      reportError(err);
    } else app.log.info(`${signal} received, shutting down`);
    await app.close();
    await database.close();
    await flushErrorReports();
  });

  await app.ready();
  await app.listen({ port: config.port, host: config.host });
  const port = app.server.address();
  const actualPort = typeof port === 'object' && port ? port.port : config.port;
  console.log(`Veriform is running at http://localhost:${actualPort}`);
}

main().catch(async (error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else {
    console.error(error);
    reportError(error);
    await flushErrorReports();
  }
  process.exit(1);
});
