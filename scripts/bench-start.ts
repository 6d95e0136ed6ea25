/**
 * Start-to-ready of a built app (issue #14): how long from spawning `node apps/server/dist/server.mjs` until `/readyz`
 * answers 200, on PostgreSQL (`--database-url`, migrated before the runs) and on PGlite (a data directory migrated by
 * the first, unmeasured start). The floor is a bare `node:http` server spawned the same way: what Node alone costs.
 *   npm run build && node scripts/bench-start.ts [--database-url postgres://…] [--runs 5] [--engines postgres,pglite]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    runs: { type: 'string', default: '5' },
    engines: { type: 'string', default: 'postgres,pglite' },
    // What `npm start` runs (built by `npm run build`); `--entry apps/server/src/server.ts` for the sources.
    entry: { type: 'string', default: join('apps', 'server', 'dist', 'server.mjs') },
  },
});
const runs = Number(values.runs);
const engines = (values.engines ?? '').split(',');
const repoRoot = join(import.meta.dirname, '..');
const port = 4590;

async function readyAfter(child: ChildProcess, url: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the process exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function measure(args: string[], env: Record<string, string>, path: string): Promise<number> {
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    return await readyAfter(child, `http://127.0.0.1:${port}${path}`);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function series(name: string, args: string[], env: Record<string, string>, path: string) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await measure(args, env, path));
  console.log(
    `${name.padEnd(22)} median ${median(times).toFixed(0)} ms  (${times.map((t) => t.toFixed(0)).join(', ')})`,
  );
  return median(times);
}

const server = [values.entry];
const production = { SECRET_KEY: 'x'.repeat(48), PUBLIC_URL: `http://localhost:${port}` };
const bare = `require('node:http').createServer((q, s) => s.end('ok')).listen(${port})`;
const floor = await series('bare node:http', ['-e', bare], {}, '/');

if (values['database-url'] && engines.includes('postgres')) {
  const env = { ...production, DATABASE_URL: values['database-url'] };
  await measure(server, env, '/readyz');
  const pg = await series('PostgreSQL', server, env, '/readyz');
  console.log(`PostgreSQL / bare: ${(pg / floor).toFixed(1)}x`);
}

if (engines.includes('pglite')) {
  const dataDir = mkdtempSync(join(tmpdir(), 'veriform-start-'));
  try {
    const env = { ...production, DATA_DIR: dataDir };
    const first = await measure(server, env, '/readyz');
    console.log(`PGlite, new data dir    ${first.toFixed(0)} ms (migrations and pg-boss install included)`);
    const pglite = await series('PGlite', server, env, '/readyz');
    console.log(`PGlite / bare: ${(pglite / floor).toFixed(1)}x`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
