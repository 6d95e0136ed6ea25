/**
 * Bundles the production server into apps/server/dist/server.mjs, one ES module (ADR 0034):
 *   node scripts/build-server.mjs               always build (npm run build, the Docker image)
 *   node scripts/build-server.mjs --if-changed  build only when the server's sources changed since (npm start)
 * Node then loads one file instead of resolving and stripping ~1,500 modules at every start. Tests and `npm run dev`
 * run the TypeScript sources as they are (ADR 13). Left outside the bundle, loaded from node_modules as before:
 * native modules, modules that load files of their own package (PGlite's WebAssembly), what Sentry instruments when
 * it is on (pg), what only development or a rare path loads. The bundle is written beside a stamp of its sources'
 * SHA-256 (their files and the lockfile) and moved into place whole, so a running server never sees half a file.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { build } from 'esbuild';
import { sourcesHash } from './build-stamp.mjs';

const root = join(import.meta.dirname, '..');
const server = join(root, 'apps', 'server');
const dist = join(server, 'dist');
const bundle = join(dist, 'server.mjs');
const stampName = '.sources-sha256';

/** What the bundle is built from: the server's and the workspace packages' sources, tests aside, and the lockfile. */
const inputs = [
  join(server, 'src'),
  join(server, 'package.json'),
  ...['contracts', 'db', 'verify-certificate'].map((name) => join(root, 'packages', name, 'src')),
  join(root, 'package-lock.json'),
  import.meta.filename,
];
const skipped = /(^|\/)(node_modules|test-support)(\/|$)|\.test\.ts$/;

/**
 * Loaded from node_modules at run time: native addons (sharp, argon2, pg-native), packages that read files of their
 * own next to their code (PGlite's WebAssembly and data, Scalar's page), what Sentry instruments by hooking its import
 * (pg; Sentry itself, loaded only with a DSN), what development alone imports (vite) and a large client only an SMS
 * send loads (twilio).
 */
const external = [
  'sharp',
  '@node-rs/argon2',
  'pg',
  'pg-native',
  'pg-copy-streams',
  '@electric-sql/pglite',
  '@electric-sql/pglite/*',
  '@sentry/node',
  '@scalar/fastify-api-reference',
  'vite',
  'twilio',
];

/**
 * The URL of `file` at run time, from the bundle's own URL (the bundle can move with the checkout), through a helper of
 * the banner: `import.meta` written into a CommonJS module would make esbuild take it for an ES module.
 */
const urlOf = (file) => `__vfUrl(${JSON.stringify(relative(dist, file).split(sep).join('/'))})`;

/**
 * Each bundled module keeps its own location: `import.meta.url` (and `dirname`/`filename`, CommonJS's `__dirname`
 * and `__filename`) mean the file it was written in, not the bundle (the migrations folder, the job definitions).
 */
const ownLocation = {
  name: 'own-location',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.(m?[jt]s|cjs)$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!/import\.meta\.(url|dirname|filename)|__dirname|__filename/.test(source)) return undefined;
      const url = urlOf(args.path);
      let contents = source
        .replaceAll('import.meta.url', url)
        .replaceAll('import.meta.filename', `__vfPath(${url})`)
        .replaceAll('import.meta.dirname', `__vfDirname(__vfPath(${url}))`);
      if (/__dirname|__filename/.test(source) && !/\.m[jt]s$/.test(args.path)) {
        contents = `var __filename = __vfPath(${url}), __dirname = __vfDirname(__filename);\n${contents}`;
      }
      const loader = /\.m?ts$/.test(args.path) ? 'ts' : 'js';
      return { contents, loader, resolveDir: dirname(args.path) };
    });
  },
};

/** The job definitions are found by reading their directory at start (jobs/registry.ts): all of them go in. */
async function bundleServer(outfile) {
  await build({
    entryPoints: [join(server, 'src', 'server.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    external,
    plugins: [ownLocation],
    // CommonJS dependencies inside an ES module: `require` for Node's built-ins, the helpers own-location writes.
    banner: {
      js: [
        "import { createRequire as __vfCreateRequire } from 'node:module';",
        "import { dirname as __vfDirname } from 'node:path';",
        "import { fileURLToPath as __vfPath } from 'node:url';",
        'const require = __vfCreateRequire(import.meta.url);',
        'const __vfUrl = (path) => new URL(path, import.meta.url).href;',
      ].join('\n'),
    },
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
  });
}

const ifChanged = process.argv.includes('--if-changed');
const hash = sourcesHash(root, inputs, skipped);
const stamp = join(dist, stampName);
if (ifChanged && existsSync(bundle) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) {
  console.log('The server bundle is up to date (apps/server/dist).');
} else {
  mkdirSync(dist, { recursive: true });
  const out = join(dist, `.out-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  await bundleServer(join(out, 'server.mjs'));
  await writeFile(join(out, stampName), hash);
  for (const name of readdirSync(out)) renameSync(join(out, name), join(dist, name));
  rmSync(out, { recursive: true, force: true });
}
