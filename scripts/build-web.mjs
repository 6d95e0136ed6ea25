/**
 * Builds the web app into apps/web/dist, safely beside a running server and another build:
 *   node scripts/build-web.mjs               always build (npm run build, the test run, the Docker image)
 *   node scripts/build-web.mjs --if-changed  build only when the web app's sources changed since dist was built (npm start)
 * Vite writes into a directory of this process's own, the assets are precompressed there, and only then is the result
 * moved into place, so a server never sees a half-written dist. One build at a time per checkout (a lock file, taken
 * over when its holder died), and a build that waited finds the other's fresh dist and skips.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { sourcesHash } from './build-stamp.mjs';

const root = join(import.meta.dirname, '..');
const web = join(root, 'apps', 'web');
const dist = join(web, 'dist');
const work = join(web, '.build');
const stampName = '.sources-sha256';

/** What the build reads: the web app's own files and the shared contracts, tests and outputs aside. */
const inputs = [web, join(root, 'packages', 'contracts', 'src'), join(root, 'package-lock.json')];
const skipped = /(^|\/)(node_modules|dist|\.build|\.vite)(\/|$)|\.test\.tsx?$|routeTree\.gen\.ts$/;

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const ifChanged = process.argv.includes('--if-changed');
mkdirSync(work, { recursive: true });
const release = await lockfile.lock(web, {
  lockfilePath: join(work, 'build.lock'),
  stale: 30_000,
  retries: { retries: 300, minTimeout: 500, maxTimeout: 1000 },
});
try {
  const hash = sourcesHash(root, inputs, skipped);
  const stamp = join(dist, stampName);
  const fresh =
    existsSync(join(dist, 'index.html')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash;
  if (ifChanged && fresh) {
    console.log('The web app is up to date (apps/web/dist).');
  } else {
    const out = join(work, `out-${process.pid}`);
    const old = join(work, `old-${process.pid}`);
    rmSync(out, { recursive: true, force: true });
    run('npx', ['vite', 'build', '--outDir', out], web);
    run(process.execPath, [join(root, 'scripts', 'precompress.mjs'), join(out, 'assets')], root);
    writeFileSync(join(out, stampName), hash);
    if (existsSync(dist)) renameSync(dist, old);
    renameSync(out, dist);
    rmSync(old, { recursive: true, force: true });
  }
} finally {
  await release();
}
