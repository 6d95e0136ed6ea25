/**
 * After `vite build`: writes a Brotli (.br) and a gzip (.gz) copy beside every text asset of apps/web/dist/assets, so
 * the server sends compressed files without compressing on each request (@fastify/static `preCompressed`).
 * Compressed once at the highest levels: the build pays, every phone on a slow network profits.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

// The assets folder of a build (default: apps/web/dist/assets; scripts/build-web.mjs passes its own output's).
const assets = process.argv[2] ?? join(import.meta.dirname, '..', 'apps', 'web', 'dist', 'assets');
const compressible = /\.(js|css|svg|json|txt|map)$/;
let files = 0;
for (const name of readdirSync(assets)) {
  if (!compressible.test(name) || name.endsWith('.map')) continue;
  const bytes = readFileSync(join(assets, name));
  writeFileSync(join(assets, `${name}.gz`), gzipSync(bytes, { level: 9 }));
  writeFileSync(
    join(assets, `${name}.br`),
    brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  );
  files++;
}
console.log(`precompressed ${files} assets (br + gz)`);
