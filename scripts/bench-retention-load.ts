/**
 * Purging must not hurt the living (issue #37 item 4): the load mix (`scripts/load.ts`) on a copy of a seeded
 * database, once alone and once while a retention purge or an erasure runs beside it, side by side; prints each arm's
 * p50/p95/p99 and the ratio of the p95s (the issue's bar: within 1.2×).
 *
 *     node scripts/seed-verifications.ts --database-url postgres://postgres@127.0.0.1:5432/vf_scale \
 *       --verifications 10000000 --days 2400 --defer-indexes
 *     node scripts/seed-verifications.ts --database-url postgres://postgres@127.0.0.1:5432/vf_scale \
 *       --verifications 0 --account 1 --restore-indexes
 *     npm run build
 *     node scripts/bench-retention-load.ts --database-url postgres://postgres@127.0.0.1:5432/vf_scale \
 *       --work purge|erasure [--account 1] [--years 5] [--matches 10000] [--duration 120] [--warmup 10] \
 *       [--connections 200] [--processes 2] [--rounds 1] [--same-copy]
 *
 * Each arm runs on a fresh copy of `--database-url` (CREATE DATABASE … TEMPLATE: the work destroys what it removes, and
 * both arms must start from the same rows), dropped afterwards; the template must have no other connection. The work
 * starts when the mix's warm-up ends, so the measured window is the work's first `--duration` seconds; the script says
 * how much of the window the work covered (the whole window, when the work outlasts it, is the strict case). A work
 * still running when the window ends is stopped there, unless `--wait-for-work` (then its own total is printed).
 * `--rounds N` runs "alone, then beside the work" N times in turn and compares the medians (one pair is noisy);
 * `--same-copy` (erasure only) runs every arm on one copy, made once, instead of a copy per arm.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { repoRoot } from '../apps/server/src/config.ts';

const { values: args } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    work: { type: 'string' },
    account: { type: 'string', default: '1' },
    years: { type: 'string', default: '5' },
    matches: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '120' },
    warmup: { type: 'string', default: '10' },
    connections: { type: 'string', default: '200' },
    processes: { type: 'string', default: '2' },
    'wait-for-work': { type: 'boolean', default: false },
    rounds: { type: 'string', default: '1' },
    'same-copy': { type: 'boolean', default: false },
  },
});
const template = args['database-url'];
if (!template)
  throw new Error('--database-url (the seeded PostgreSQL database, used as a template) is required');
const work = args.work;
if (work !== 'purge' && work !== 'erasure') throw new Error('--work must be purge or erasure');
const rounds = Number(args.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a positive integer');
// An erasure changes 10,000 of 10M verifications (and the next run picks the next 10,000), so its arms may share one
// copy; a purge removes what the next run would, so each of its arms needs a fresh one.
const sameCopy = args['same-copy'];
if (sameCopy && work === 'purge')
  throw new Error('--same-copy is for --work erasure: a purge changes its copy');

type Latency = { p50: number; p95: number; p99: number };
type Arm = { latency: Latency; workSeconds: number | null; workOutput: string };

/** The same server as `template`, another database. */
function databaseUrl(name: string): string {
  const url = new URL(template as string);
  url.pathname = `/${name}`;
  return url.toString();
}
const templateName = new URL(template).pathname.slice(1);

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl('postgres') });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Runs a repository script with the pinned Node; resolves with its output once it exits 0. */
function script(
  file: string,
  scriptArgs: string[],
  onLine?: (line: string) => void,
): { child: ChildProcess; done: Promise<string> } {
  const child = spawn(process.execPath, [join(repoRoot, 'scripts', file), ...scriptArgs], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const take = (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    for (const line of text.split('\n')) if (line) onLine?.(line);
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  const done = new Promise<string>((resolve, reject) => {
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${file} exited ${code}:\n${output.slice(-3000)}`)),
    );
  });
  return { child, done };
}

function latencyOf(output: string): Latency {
  const found = output.match(
    /the mix's latency \(every request\): p50 ([\d.]+) ms, p95 ([\d.]+) ms, p99 ([\d.]+) ms/,
  );
  if (!found) throw new Error(`no mix latency in load.ts's output:\n${output.slice(-3000)}`);
  return { p50: Number(found[1]), p95: Number(found[2]), p99: Number(found[3]) };
}

async function makeCopy(copy: string): Promise<void> {
  const copying = performance.now();
  await admin(async (client) => {
    await client.query(`drop database if exists "${copy}"`);
    await client.query(`create database "${copy}" template "${templateName}"`);
  });
  console.log(`${copy}: copied the template in ${((performance.now() - copying) / 1000).toFixed(0)} s`);
}

async function arm(name: string, withWork: boolean, shared: string | null): Promise<Arm> {
  const copy = shared ?? `${templateName}_${name}`;
  if (!shared) await makeCopy(copy);
  const url = databaseUrl(copy);
  // The work starts first and prepares (its app built, its rows chosen) before the mix does, so none of that is in the
  // measured window; it waits for "go", sent when the mix's warm-up ends.
  const job: {
    started: number;
    run: Promise<string> | null;
    seconds: number | null;
    go: () => void;
    stop: () => void;
  } = {
    started: 0,
    run: null,
    seconds: null,
    go: () => {},
    stop: () => {},
  };
  if (withWork) {
    const common = ['--database-url', url, '--account', String(args.account), '--wait-for-go'];
    const [file, ...rest] =
      work === 'purge'
        ? ['bench-retention.ts', ...common, '--years', String(args.years)]
        : ['bench-erasure.ts', ...common, '--matches', String(args.matches)];
    let ready = () => {};
    const isReady = new Promise<void>((resolve) => {
      ready = resolve;
    });
    const running = script(file as string, rest, (line) => {
      if (line === 'ready') ready();
    });
    job.run = running.done.then((output) => {
      job.seconds = (performance.now() - job.started) / 1000;
      return output;
    });
    await Promise.race([isReady, job.run]);
    job.go = () => {
      job.started = performance.now();
      running.child.stdin?.write('go\n');
    };
    job.stop = () => {
      running.child.kill('SIGTERM');
    };
  }
  const load = script(
    'load.ts',
    [
      '--database-url',
      url,
      '--account',
      String(args.account),
      '--duration',
      String(args.duration),
      '--warmup',
      String(args.warmup),
      '--connections',
      String(args.connections),
      '--processes',
      String(args.processes),
    ],
    (line) => {
      if (line.startsWith('warm-up done')) job.go();
    },
  );
  const loadOutput = await load.done;
  const windowEnded = performance.now();
  // load.ts's whole report (per path, CPU shares, what the database's sessions waited on), kept for reading.
  const report = join(tmpdir(), `bench-retention-load-${name}.log`);
  await writeFile(report, loadOutput);
  // A work that outlasts the window is stopped there (its copy is dropped anyway), unless --wait-for-work.
  const stillRunning = job.run !== null && job.seconds === null;
  if (stillRunning && !args['wait-for-work']) job.stop();
  const workOutput = job.run
    ? await job.run.catch((error: unknown) =>
        stillRunning ? '(stopped at the window’s end)' : Promise.reject(error),
      )
    : '';
  const latency = latencyOf(loadOutput);
  const finished = stillRunning && !args['wait-for-work'] ? null : job.seconds;
  const covered =
    finished === null ? 0 : Math.min(1, (finished * 1000) / Math.max(1, windowEnded - job.started));
  console.log(
    `${name}: mix p50 ${latency.p50} ms, p95 ${latency.p95} ms, p99 ${latency.p99} ms (report: ${report})` +
      (withWork
        ? finished === null
          ? `; the ${work} was still running when the window ended (covered all of it) and was stopped`
          : `; the ${work} took ${finished.toFixed(0)} s and covered ${(covered * 100).toFixed(0)} % of the window`
        : ''),
  );
  if (workOutput)
    console.log(
      workOutput
        .trim()
        .split('\n')
        .map((line) => `  ${line}`)
        .join('\n'),
    );
  if (!shared) await admin((client) => client.query(`drop database "${copy}"`));
  return { latency, workSeconds: finished, workOutput };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

// Rounds of "alone, then beside the work" in turn: one pair of runs differs by ±15 % on this machine with nothing
// changed (session 33: the mix alone measured 670–887 ms p95 on four copies), so the ratio is the medians'.
const shared = sameCopy ? `${templateName}_shared` : null;
if (shared) await makeCopy(shared);
const alone: Latency[] = [];
const beside: Latency[] = [];
for (let round = 1; round <= rounds; round += 1) {
  alone.push((await arm(`alone${rounds > 1 ? round : ''}`, false, shared)).latency);
  beside.push((await arm(`${work}${rounds > 1 ? round : ''}`, true, shared)).latency);
}
if (shared) await admin((client) => client.query(`drop database "${shared}"`));
const p95Alone = median(alone.map((l) => l.p95));
const p95Beside = median(beside.map((l) => l.p95));
const p99Ratio = median(beside.map((l) => l.p99)) / median(alone.map((l) => l.p99));
console.log(
  `\n${work} beside the mix: p95 ${p95Beside.toFixed(1)} ms against ${p95Alone.toFixed(1)} ms alone = ` +
    `${(p95Beside / p95Alone).toFixed(2)}× (bar: 1.2×); p99 ${p99Ratio.toFixed(2)}×` +
    (rounds > 1
      ? ` (medians of ${rounds} rounds; p95 alone ${alone.map((l) => l.p95).join(', ')}; beside ${beside.map((l) => l.p95).join(', ')})`
      : ''),
);
