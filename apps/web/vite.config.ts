import { fileURLToPath } from 'node:url';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The web app. No dev-server proxy: in development the Fastify server hosts Vite in middleware mode, so `/api` and the
 * initial page data come from the same origin in dev and production alike. Paths are absolute so that the config
 * works from any working directory (the server loads it from the repository root).
 */
export default defineConfig({
  root,
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // Loaders and pending components too, not only components: kept in the route files, they held every screen's
      // data layer and skeletons (and what those import) in the entry's static graph, which index.html preloads on
      // every page, the login page included (login 273.6 → 252.4 KB gzip, 2026-11-25).
      codeSplittingOptions: {
        defaultBehavior: [
          ['loader'],
          ['component'],
          ['pendingComponent'],
          ['errorComponent', 'notFoundComponent'],
        ],
      },
      routesDirectory: fileURLToPath(new URL('./src/routes', import.meta.url)),
      generatedRouteTree: fileURLToPath(new URL('./src/routeTree.gen.ts', import.meta.url)),
      quoteStyle: 'single',
      routeFileIgnorePattern: '\\.test\\.tsx?$',
    }),
    react(),
  ],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    // Two pages: the app, and the public verification page served at /f/{publicId}. The verify page is its own entry
    // (React only, no Mantine or router) so that phones download a fraction of the app's JavaScript.
    rolldownOptions: {
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        verify: fileURLToPath(new URL('./verify.html', import.meta.url)),
      },
    },
  },
});
