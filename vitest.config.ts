import { defineConfig } from 'vitest/config';

/**
 * One Vitest run, two projects: the server (API tests through app.inject on a real database) and the web app
 * (components in jsdom). `TEST_DATABASE_URL` switches the server project from PGlite to a PostgreSQL server.
 */
export default defineConfig({
  test: {
    projects: ['apps/server/vitest.config.ts', 'apps/web/vitest.config.ts', 'packages/*/vitest.config.ts'],
  },
});
