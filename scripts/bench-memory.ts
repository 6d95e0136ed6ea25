/**
 * Idle memory and start of the production server (issue #20 item 5): spawns `node [flags] apps/server/dist/server.mjs`
 * with NODE_ENV=production, times spawn → first 200 from `/readyz`, and reads the process's resident set (VmRSS, and
 * its anonymous and file-backed parts) from /proc at ready and again after `--idle` seconds without requests.
 * PostgreSQL runs on a database of its own (`--database-name`, created, migrated by an unmeasured first start, and
 * dropped at the end); PGlite on a temporary data directory (likewise migrated by a first start).
 *   npm run build && node scripts/bench-memory.ts [--server-url postgres://…/postgres] [--runs 3] [--idle 30]
 *     [--flags= --flags=--max-semi-space-size=8 …] [--engines postgres,pglite] [--requests 5000]
 * `--requests N`: after the idle reading, N requests of churn (see traffic()), `--idle` seconds more, a third reading:
 * what the young generation grows back to under traffic, which the semi-space size bounds.
 * (`--flags=` alone: no flags; the `=` is needed.) Without --flags: once bare and once with the flags of apps/server's `start` script (what production runs).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values } = parseArgs({
  options: {
    'server-url': { type: 'string' },
    'database-name': { type: 'string', default: 'vf_mem' },
    runs: { type: 'string', default: '3' },
    idle: { type: 'string', default: '30' },
    flags: { type: 'string', multiple: true },
    engines: { type: 'string', default: 'postgres,pglite' },
    port: { type: 'string', default: '4591' },
    requests: { type: 'string', default: '0' },
    // What `npm start` runs (built by `npm run build`); `--entry apps/server/src/server.ts` for the sources.
    entry: { type: 'string', default: join('apps', 'server', 'dist', 'server.mjs') },
  },
});
const runs = Number(values.runs);
const idleMs = Number(values.idle) * 1000;
const port = Number(values.port);
const requests = Number(values.requests);
const engines = (values.engines ?? '').split(',');
const repoRoot = join(import.meta.dirname, '..');
const server = values.entry;

/** The node flags of apps/server's `start` script: whatever stands between `node` and the entry point. */
function productionFlags(): string {
  const manifest: { scripts: { start: string } } = JSON.parse(
    readFileSync(join(repoRoot, 'apps', 'server', 'package.json'), 'utf8'),
  );
  const match = /\bnode\s+(.*?)\s*(src\/server\.ts|dist\/server\.mjs)/.exec(manifest.scripts.start);
  return match?.[1] ?? '';
}

const flagSets = values.flags ?? [...new Set(['', productionFlags()])];

type Memory = { rss: number; anon: number; file: number };

/** Resident set in MB, from the kernel's own accounting of the process. */
function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, anon: kb('RssAnon') / 1024, file: kb('RssFile') / 1024 };
}

async function readyAfter(child: ChildProcess, url: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Churn as traffic makes it, so the young generation grows to what the node flags allow: the SPA's page, the probes
 * and API v1's refusal without a key, 8 at a time (the generic rate limit answers 429 after 600: churn all the same).
 */
async function traffic(count: number): Promise<void> {
  const paths = ['/', '/healthz', '/api/v1/forms', '/login'];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const path = paths[next++ % paths.length] ?? '/';
      await (await fetch(`http://127.0.0.1:${port}${path}`)).arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/**
 * CPU time the process used (user + system, from /proc/<pid>/stat), in ms: on a busy machine start-to-ready mostly
 * measures the neighbours, its CPU time far less so.
 */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of the line, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

type Sample = { startMs: number; cpuMs: number; ready: Memory; idle: Memory; loaded: Memory | undefined };

async function measure(flags: string, env: Record<string, string>, idle: number): Promise<Sample> {
  const args = [...flags.split(/\s+/).filter(Boolean), server];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      SECRET_KEY: 'x'.repeat(48),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const { pid } = child;
    if (pid === undefined) throw new Error('the server did not start');
    const startMs = await readyAfter(child, `http://127.0.0.1:${port}/readyz`);
    const cpuMs = cpuMsOf(pid);
    const ready = memoryOf(pid);
    await new Promise((resolve) => setTimeout(resolve, idle));
    const idled = memoryOf(pid);
    if (requests === 0 || idle === 0) return { startMs, cpuMs, ready, idle: idled, loaded: undefined };
    await traffic(requests);
    await new Promise((resolve) => setTimeout(resolve, idle));
    return { startMs, cpuMs, ready, idle: idled, loaded: memoryOf(pid) };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

const summary: string[] = [];
const mb = (m: Memory) => `${m.rss.toFixed(0)} (${m.anon.toFixed(0)} + ${m.file.toFixed(0)})`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function series(engine: string, env: Record<string, string>) {
  await measure('', env, 0); // migrates (and installs pg-boss) once: not measured
  for (const flags of flagSets) {
    const samples: Sample[] = [];
    for (let i = 0; i < runs; i++) {
      const s = await measure(flags, env, idleMs);
      samples.push(s);
      const loaded = s.loaded ? ` ${mb(s.loaded)} |` : '';
      console.log(
        `| ${engine} | ${flags || '(none)'} | ${s.startMs.toFixed(0)} (CPU ${s.cpuMs}) | ${mb(s.ready)} | ${mb(s.idle)} |${loaded}`,
      );
    }
    const of = (pick: (s: Sample) => number) => median(samples.map(pick)).toFixed(0);
    const loaded = requests > 0 ? ` ${of((s) => s.loaded?.rss ?? Number.NaN)} |` : '';
    summary.push(
      `| ${engine} | ${flags || '(none)'} | ${of((s) => s.startMs)} (CPU ${of((s) => s.cpuMs)}) | ${of((s) => s.ready.rss)} | ${of((s) => s.idle.rss)} |${loaded}`,
    );
  }
}

const loadedColumn = requests > 0 ? ` after ${requests} requests and ${values.idle} s idle |` : '';
const rule = `| --- | --- | --- | --- | --- |${requests > 0 ? ' --- |' : ''}`;
console.log(
  `| engine | node flags | start to /readyz (its CPU), ms | RSS at ready, MB (anon + file) | after ${values.idle} s idle |${loadedColumn}`,
);
console.log(rule);

if (engines.includes('postgres')) {
  if (!values['server-url'])
    throw new Error('--server-url is needed for PostgreSQL (any database of the server)');
  const name = values['database-name'] ?? 'vf_mem';
  if (!/^vf_mem\w*$/.test(name))
    throw new Error('--database-name must start with vf_mem: it is dropped at the end');
  const admin = new pg.Client({ connectionString: values['server-url'] });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(values['server-url']);
    url.pathname = `/${name}`;
    await series('PostgreSQL', { DATABASE_URL: url.toString() });
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

if (engines.includes('pglite')) {
  const dataDir = mkdtempSync(join(tmpdir(), 'veriform-memory-'));
  try {
    await series('PGlite', { DATA_DIR: dataDir });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `\nMedians of ${runs} runs:\n| engine | node flags | start (CPU), ms | RSS at ready, MB | after idle, MB |${loadedColumn}`,
);
console.log(rule);
for (const row of summary) console.log(row);
