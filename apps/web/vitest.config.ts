import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

/** Component and unit tests of the web app, in jsdom. Run: `npx vitest run --project web`. */
export default defineProject({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // One module graph per worker instead of one per file: re-importing Mantine, TanStack and React for each of 31
    // files was most of the project's time (on the 2-core machine, 187 s → 72 s, 2026-11-24). Files share modules,
    // never state: each renders into a fresh document, and setup.ts restores globals, spies, storage and toasts.
    isolate: false,
    // A hang detector (Vitest's 5 s default failed slow-but-passing tests on the shared 2-core CI machine).
    testTimeout: 20_000,
  },
});
