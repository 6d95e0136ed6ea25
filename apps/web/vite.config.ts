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
        // Loaded by main.tsx (src/main.tsx's comment says when).
        'app-main': fileURLToPath(new URL('./src/app-main.tsx', import.meta.url)),
      },
      output: {
        // Gzip compresses each file alone, so ~80 small chunks for one page cost ~10 KB of headers and imports besides
        // their code. The app's whole static graph (app-main.tsx, an input of its own so that its graph can be named)
        // is one `app` chunk; React with what every entry shares (the verify page, the login page's first paint, the
        // app) one `react` chunk. Neither may take a module of main.tsx or of the verify page, or those would load the
        // app (app shell 297.2 → 277.0 KB gzip, 2026-11-25). Route chunks stay automatic: merging them would make a page
        // load the code of routes it does not show.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|src[\\/]lib[\\/](error-reporting|page-title-text)|contracts[\\/]src[\\/](consent-text|client-config|page-data-element)/,
              priority: 2,
            },
            {
              name: 'app',
              tags: ['$initial'],
              test: (id: string) =>
                /[\\/](src|node_modules)[\\/]/.test(id) &&
                !/src[\\/](main\.tsx|verify[\\/]|lib[\\/](preload-error|first-paint-token))|public-verify-texts|page-data-element|\.css\b/.test(
                  id,
                ),
              priority: 1,
            },
          ],
        },
      },
    },
  },
});
