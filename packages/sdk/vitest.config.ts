import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

/** The SDK's own unit tests, with a fake fetch; its tests against the real server are apps/server's sdk.test.ts. */
export default defineProject({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: { name: 'sdk', environment: 'node', include: ['src/**/*.test.ts'] },
});
