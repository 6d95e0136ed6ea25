import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * zod's JSON Schema conversion, which every zod schema refers to (`toJSONSchema()`, `~standard.jsonSchema`) and the app
 * never calls: ~5 KB gzip of the first load of every app page. In the production build the two modules export the same
 * names as functions that answer a function that throws, so a call fails loudly instead of quietly converting nothing.
 * Development and the tests (their own configs) keep the real modules.
 */
const ZOD_JSON_SCHEMA = /[\\/]zod[\\/]v4[\\/]core[\\/](json-schema-processors|to-json-schema)\.js$/;

function withoutZodJsonSchema(id: string): string {
  const source = readFileSync(id, 'utf8');
  const names = new Set<string>();
  for (const match of source.matchAll(/^export (?:async )?(?:function\*?|const|let|class) (\w+)/gm))
    names.add(match[1] ?? '');
  for (const match of source.matchAll(/^export \{([^}]*)\}/gm))
    for (const part of (match[1] ?? '').split(','))
      names.add(
        part
          .trim()
          .split(/\s+as\s+/)
          .pop() ?? '',
      );
  names.delete('');
  const exports = [...names].map((name) => `export const ${name} = () => unavailable;`).join('\n');
  return `const unavailable = () => { throw new Error('zod JSON Schema is left out of the web build (apps/web/vite.config.ts)'); };\n${exports}\n`;
}

/**
 * Mantine components that import a whole library for one small piece, pointed at that piece alone
 * (src/lib/light-imports/): ScrollArea (in every Table) took @floating-ui/react for `useMergeRefs`, so a list page
 * loaded floating-ui's ~15 KB gzip before any menu or select; AppShell's bars took react-remove-scroll (~4 KB) for two
 * class names. Dialogs, menus and selects still import the libraries themselves, from their own chunks. Also zod's
 * JSON Schema conversion (above), in builds only.
 */
function lightImports(): Plugin {
  const lightImport = (name: string) =>
    fileURLToPath(new URL(`./src/lib/light-imports/${name}`, import.meta.url));
  const mantine = /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]/;
  return {
    name: 'veriform-light-imports',
    enforce: 'pre',
    resolveId(source, importer) {
      if (importer === undefined || !mantine.test(importer)) return null;
      if (source === '@floating-ui/react' && /ScrollArea[\\/]ScrollArea\.mjs$/.test(importer))
        return lightImport('floating-ui-merge-refs.ts');
      if (
        source === 'react-remove-scroll' &&
        /AppShell[\\/]AppShell(Header|Footer|Aside)[\\/]/.test(importer)
      )
        return lightImport('remove-scroll-class-names.ts');
      return null;
    },
    load(id) {
      return this.environment.config.command === 'build' && ZOD_JSON_SCHEMA.test(id)
        ? withoutZodJsonSchema(id)
        : null;
    },
  };
}

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
    lightImports(),
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
        // app (app shell 297.2 → 277.0 KB gzip, 2026-11-25). So a small module both use goes to `react` (the hosted
        // page's API paths: the app holds the declarations built from them). Route chunks stay automatic: merging them
        // would make a page load the code of routes it does not show.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|src[\\/]lib[\\/](error-reporting|page-title-text)|contracts[\\/]src[\\/](consent-text|client-config|page-data-element|public-verify-paths|revoke-link)/,
              priority: 2,
            },
            {
              name: 'app',
              tags: ['$initial'],
              test: (id: string) =>
                /[\\/](src|node_modules)[\\/]/.test(id) &&
                !/src[\\/](main\.tsx|verify[\\/]|lib[\\/](preload-error|first-paint-token))|public-(verify|revoke)-texts|page-data-element|\.css\b/.test(
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
