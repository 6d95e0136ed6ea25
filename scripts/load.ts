/**
 * Load test (issue #7 item 2): a realistic mix of page loads, activity-log queries, public code sends and checks and
 * logins against N production server processes on one real PostgreSQL database, with many concurrent connections.
 *
 *     npx tsx scripts/load.ts --database-url postgres://postgres@127.0.0.1:5432/vf_load \
 *       [--duration 60] [--connections 200] [--processes 2] [--warmup 5] [--account ID] [--verifications 300000]
 *       [--login-rate 4] [--servers URL,URL] [--server-node-options='--cpu-prof --max-semi-space-size=8']
 *       [--only consumer|staff|login-page]
 *
 * 1. Prepares its data in that database through Drizzle (scripts/support/load-data.ts): an account with seeded
 *    verifications (or --account), members with sessions, users with a known password, test numbers with a fixed code.
 * 2. Starts the server processes (`server.ts`, NODE_ENV=production, TRUST_PROXY=127.0.0.1) and gives each its share
 *    of the connections, as a proxy with keep-alive upstream connections would.
 * 3. Runs one virtual user per connection for --warmup s (not recorded) then --duration s: each picks a visit —
 *    a consumer (the public page, send a code to a test number, check it; sometimes a wrong code first), a member on
 *    the activity log (the page, list queries with filters/sorts/pages, a detail, the report), someone opening the
 *    login page — while logins with the right password run at a fixed rate (--login-rate per second: argon2 is
 *    CPU-heavy by design) and one address is sent a wrong password every 2 s (the intended 400s, then 429s).
 *    Every visit comes from its own client address (X-Forwarded-For): the per-IP limits see separate people.
 * 4. Prints per endpoint: requests, req/s, p50/p95/p99/max latency and status counts; the CPU shares of the client,
 *    the servers, the database's PostgreSQL backends and the rest of the machine; what the database's sessions were
 *    doing (pg_stat_activity samples). Exits 1 on any 5xx, connection error or answer the scenario did not intend.
 *
 * --only runs one kind of visit instead of the mix (with --login-rate 0 for none of the fixed-rate logins): the
 * CPU per request of that path alone, or a profile of it.
 *
 * --server-node-options is the NODE_OPTIONS of the server processes only (a profiler, a heap setting under trial), so
 * the client runs the same in both arms of a comparison.
 *
 * --servers drives servers that are already running (started by hand, e.g. under `node --cpu-prof`) instead of
 * starting its own; they must run with NODE_ENV=production and TRUST_PROXY=127.0.0.1 on the same database.
 *
 * Needs the built web app (production serves apps/web/dist): `npm run build` first.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { RESEND_AFTER_SECONDS } from '@veriform/contracts';
import { createDb } from '@veriform/db';
import pg from 'pg';
import { repoRoot } from '../apps/server/src/config.ts';
import {
  type ServerProcess,
  serverEnv,
  startServer,
  stopServer,
} from '../apps/server/src/test-support/server-process.ts';
import {
  cookieFrom,
  type EndpointRow,
  mixPercentiles,
  Recorder,
  type Reply,
  summarize,
  Target,
  VARIANT,
} from './support/load-client.ts';
import { LOAD_PASSWORD, type LoadData, prepareLoadData } from './support/load-data.ts';

const { values: args } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    duration: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '5' },
    connections: { type: 'string', default: '200' },
    processes: { type: 'string', default: '2' },
    account: { type: 'string' },
    servers: { type: 'string' },
    'server-node-options': { type: 'string' },
    verifications: { type: 'string', default: '300000' },
    'login-rate': { type: 'string', default: '4' },
    staff: { type: 'string', default: '20' },
    'test-numbers': { type: 'string', default: '5000' },
    only: { type: 'string' },
  },
});
const visitKinds = ['consumer', 'staff', 'login-page'] as const;
type VisitKind = (typeof visitKinds)[number];
const isVisitKind = (value: string): value is VisitKind => (visitKinds as readonly string[]).includes(value);
/** --only: one kind of visit (CPU per request of that path, or a profile of it); the mix otherwise. */
const only: VisitKind | undefined = (() => {
  if (args.only === undefined) return undefined;
  if (!isVisitKind(args.only)) throw new Error(`--only must be ${visitKinds.join(', ')}; got ${args.only}`);
  return args.only;
})();
/** The mix: half consumers, 40 % members on the activity log, 10 % someone opening the login page. */
function mixedVisit(): VisitKind {
  const r = Math.random();
  return r < 0.5 ? 'consumer' : r < 0.9 ? 'staff' : 'login-page';
}

function number(name: string, raw: string | undefined, min: number): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number ≥ ${min}, got ${raw}`);
  return n;
}

const databaseUrl = args['database-url'];
if (!databaseUrl) throw new Error('--database-url postgres://… is required (a real PostgreSQL server)');
const durationS = number('duration', args.duration, 1);
const warmupS = number('warmup', args.warmup, 0);
const connections = Math.floor(number('connections', args.connections, 1));
const processes = Math.floor(number('processes', args.processes, 1));
const loginRate = number('login-rate', args['login-rate'], 0);

// Production cookie names (`__Host-` prefix; see apps/server/src/plugins/cookies.ts).
const SESSION_COOKIE = '__Host-vf_session';
const CSRF_COOKIE = '__Host-vf_csrf';
const BROWSER_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const WRONG_PASSWORD_INTERVAL_MS = 2000;
/** The app's spacing between codes to one number through one form, plus a margin for clock and queueing. */
const PAIR_REUSE_MS = RESEND_AFTER_SECONDS * 1000 + 1000;

// ---- Client addresses ---------------------------------------------------------------------------------------------

/** Each visit's own address in 10.0.0.0/8, from a random start so a second run on the same database meets no old limits. */
let ipCounter = randomBytes(3).readUIntBE(0, 3);
function nextIp(): string {
  ipCounter = (ipCounter + 1) & 0xffffff;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

const pick = <T>(list: readonly T[]): T => {
  const item = list[Math.floor(Math.random() * list.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
};

// ---- Scenarios ----------------------------------------------------------------------------------------------------

type Visit = { target: Target; ip: string };

function pageHeaders(visit: Visit, cookie?: string): Record<string, string> {
  return {
    'x-forwarded-for': visit.ip,
    'user-agent': BROWSER_UA,
    accept: 'text/html,application/xhtml+xml',
    'accept-language': 'en-US,en;q=0.9',
    ...(cookie ? { cookie } : {}),
  };
}

function apiHeaders(visit: Visit, cookie: string, csrfToken?: string): Record<string, string> {
  return {
    'x-forwarded-for': visit.ip,
    'user-agent': BROWSER_UA,
    accept: 'application/json',
    cookie,
    ...(csrfToken ? { 'x-csrftoken': csrfToken } : {}),
  };
}

/** The token and the cookie a page hands out, as the web app reads them (initial data, Set-Cookie). */
function csrfOf(page: Reply): { token: string; cookie: string } | undefined {
  const token = /"csrfToken":"([^"]+)"/.exec(page.body)?.[1];
  const secret = cookieFrom(page.setCookie, CSRF_COOKIE);
  return token && secret ? { token, cookie: `${CSRF_COOKIE}=${secret}` } : undefined;
}

class Scenarios {
  /** (form, number) pairs in the order they are used: number-major, so one form's numbers come back rarely. */
  private pairCursor: number;
  private readonly pairLastUsed: Float64Array;
  private readonly pairCount: number;
  /** Parse failures of answers the scenario depends on (a 201 without an attempt id, a page without a token). */
  readonly malformed: string[] = [];

  private readonly recorder: Recorder;
  private readonly data: LoadData;

  constructor(recorder: Recorder, data: LoadData) {
    this.recorder = recorder;
    this.data = data;
    this.pairCount = data.testNumbers.length * data.livePublicIds.length;
    this.pairLastUsed = new Float64Array(this.pairCount).fill(-Infinity);
    this.pairCursor = Math.floor(Math.random() * this.pairCount);
  }

  private nextPair(): { publicId: string; cellPhone: string; code: string } {
    const k = this.pairCursor;
    this.pairCursor = (this.pairCursor + 1) % this.pairCount;
    const now = performance.now();
    if (now - (this.pairLastUsed[k] ?? -Infinity) < PAIR_REUSE_MS) {
      throw new Error('too few (form, test number) pairs for this send rate: raise --test-numbers');
    }
    this.pairLastUsed[k] = now;
    const numbers = this.data.testNumbers;
    const number = numbers[k % numbers.length];
    const publicId = this.data.livePublicIds[Math.floor(k / numbers.length)];
    if (!number || !publicId) throw new Error('pair out of range');
    return { publicId, ...number };
  }

  private problem(what: string): undefined {
    if (this.recorder.recording && this.malformed.length < 20) this.malformed.push(what);
    return undefined;
  }

  /** A consumer on the public page: page, send a code (to a test number: nothing is sent), type it back. */
  async consumer(visit: Visit): Promise<void> {
    const { publicId, cellPhone, code } = this.nextPair();
    const ref = `CRM-${100000 + Math.floor(Math.random() * 900000)}`;
    const page = await this.recorder.call(
      visit.target,
      'GET /f/{publicId} (page)',
      { method: 'GET', path: `/f/${publicId}?ref=${ref}`, headers: pageHeaders(visit), read: true },
      [200],
    );
    if (!page) return;
    const csrf = csrfOf(page);
    if (!csrf) return this.problem(`no CSRF token in /f/${publicId}`);
    const email = Math.random() < 0.3;
    const sent = await this.recorder.call(
      visit.target,
      'POST /api/public/verify-forms/{publicId}/send-code',
      {
        method: 'POST',
        path: `/api/public/verify-forms/${publicId}/send-code`,
        headers: apiHeaders(visit, csrf.cookie, csrf.token),
        body: email
          ? { cellPhone, method: 'email', email: `load-${ipCounter}@example.net`, externalRefId: ref }
          : { cellPhone, method: 'sms', externalRefId: ref },
        read: true,
      },
      [201],
    );
    if (!sent) return;
    const attemptId = (JSON.parse(sent.body) as { attemptId?: unknown }).attemptId;
    if (typeof attemptId !== 'string') return this.problem(`no attemptId in ${sent.body.slice(0, 200)}`);
    const check = (label: string, value: string, expect: number[]) =>
      this.recorder.call(
        visit.target,
        label,
        {
          method: 'POST',
          path: `/api/public/attempts/${attemptId}/check`,
          headers: apiHeaders(visit, csrf.cookie, csrf.token),
          body: { code: value },
          read: false,
        },
        expect,
      );
    // One consumer in ten mistypes first: the intended 400 ("wrong code, n tries left").
    if (Math.random() < 0.1) {
      const wrong = code === '000000' ? '111111' : '000000';
      if (!(await check('POST /api/public/attempts/{id}/check (wrong code)', wrong, [400]))) return;
    }
    await check('POST /api/public/attempts/{id}/check', code, [200]);
  }

  /** A member on the activity log: the page, a few queries (filters, sorts, pages), sometimes a detail, the report. */
  async staff(visit: Visit, sessionId: string): Promise<void> {
    const cookie = `${SESSION_COOKIE}=${sessionId}`;
    const { accountId } = this.data;
    const page = await this.recorder.call(
      visit.target,
      'GET /activity-log/ (page)',
      { method: 'GET', path: '/activity-log/', headers: pageHeaders(visit, cookie), read: true },
      [200],
    );
    if (!page) return;
    // The page answers 200 to anyone; its initial data says whether the session was recognised.
    if (!page.body.includes('"isAuthenticated":true'))
      return this.problem('/activity-log/ without the session');
    const headers = apiHeaders(visit, cookie);
    const queries = 2 + Math.floor(Math.random() * 3);
    for (let i = 0; i < queries; i++) {
      const { label, query } = listQuery(this.data);
      const params = new URLSearchParams({ account: String(accountId), tz: 'America/New_York', ...query });
      const reply = await this.recorder.call(
        visit.target,
        'GET /api/verifications',
        { method: 'GET', path: `/api/verifications?${params}`, headers, read: false },
        [200],
        label,
      );
      if (!reply) return;
    }
    if (Math.random() < 0.3 && this.data.verificationIds.length > 0) {
      const id = pick(this.data.verificationIds);
      const reply = await this.recorder.call(
        visit.target,
        'GET /api/verifications/{id}',
        { method: 'GET', path: `/api/verifications/${id}?account=${accountId}`, headers, read: false },
        [200],
      );
      if (!reply) return;
    }
    if (Math.random() < 0.5) {
      const preset = pick(['last7d', 'last7d', 'last30d']);
      await this.recorder.call(
        visit.target,
        'GET /api/verifications/report',
        {
          method: 'GET',
          path: `/api/verifications/report?account=${accountId}&tz=America%2FNew_York&created__date__preset=${preset}`,
          headers,
          read: false,
        },
        [200],
      );
    }
  }

  /** Someone opening the login page (and, with `email`, logging in with the right password). */
  async login(visit: Visit, email: string | undefined): Promise<void> {
    const page = await this.recorder.call(
      visit.target,
      'GET /auth/login/ (page)',
      { method: 'GET', path: '/auth/login/', headers: pageHeaders(visit), read: email !== undefined },
      [200],
    );
    if (!page || email === undefined) return;
    const csrf = csrfOf(page);
    if (!csrf) return this.problem('no CSRF token in /auth/login/');
    const reply = await this.recorder.call(
      visit.target,
      'POST /api/auth/login',
      {
        method: 'POST',
        path: '/api/auth/login',
        headers: apiHeaders(visit, csrf.cookie, csrf.token),
        body: { email, password: LOAD_PASSWORD },
        read: false,
      },
      [200],
    );
    if (reply && !cookieFrom(reply.setCookie, SESSION_COOKIE))
      this.problem('login answered 200 without a session');
  }

  /**
   * A script guessing one address's password: a token from POST /api/auth/csrf (it has no page), then a wrong
   * password. The first five answer 400 (invalid credentials), then 429 for 15 minutes (LOGIN_FAILURE_LIMITS).
   */
  async wrongPassword(visit: Visit): Promise<void> {
    const csrf = await this.recorder.call(
      visit.target,
      'POST /api/auth/csrf',
      { method: 'POST', path: '/api/auth/csrf', headers: apiHeaders(visit, ''), read: true },
      [200],
    );
    if (!csrf) return;
    const token = (JSON.parse(csrf.body) as { csrfToken?: unknown }).csrfToken;
    const secret = cookieFrom(csrf.setCookie, CSRF_COOKIE);
    if (typeof token !== 'string' || !secret)
      return this.problem('POST /api/auth/csrf gave no token or cookie');
    await this.recorder.call(
      visit.target,
      'POST /api/auth/login (wrong password)',
      {
        method: 'POST',
        path: '/api/auth/login',
        headers: apiHeaders(visit, `${CSRF_COOKIE}=${secret}`, token),
        body: { email: this.data.lockedEmail, password: 'not-the-password' },
        read: false,
      },
      [400, 429],
    );
  }
}

/** One of the activity log's typical queries (SPEC §2): defaults, filters, sorts, deeper pages, searches. */
function listQuery(data: LoadData): { label: string; query: Record<string, string> } {
  const sorts = [
    '-created',
    'created',
    'cellPhone',
    '-verifyFormName',
    'externalRefId',
    '-verifyFormCategory',
  ];
  const r = Math.random();
  if (r < 0.3) return { label: 'default', query: {} };
  if (r < 0.45) return { label: 'page', query: { pageNumber: String(2 + Math.floor(Math.random() * 9)) } };
  if (r < 0.6)
    return {
      label: 'preset',
      query: { created__date__preset: pick(['today', 'last7d', 'last30d', 'thisMonth']) },
    };
  if (r < 0.7) return { label: 'sort', query: { o: pick(sorts), pageSize: pick(['10', '25', '50']) } };
  if (r < 0.8) return { label: 'method', query: { verificationMethod__in: pick(['sms', 'email']) } };
  if (r < 0.9) {
    const number = pick(data.testNumbers).cellPhone;
    return { label: 'search', query: { q: pick([number.slice(-4), 'CRM-1234', 'loan', number]) } };
  }
  return {
    label: 'form',
    query: { verifyFormId__in: String(pick(data.formIds)), created__date__preset: 'last30d', o: pick(sorts) },
  };
}

// ---- CPU accounting -----------------------------------------------------------------------------------------------

/** Busy and total jiffies of the whole machine (/proc/stat), so the client's share is of what was really used. */
function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

/** utime + stime of a process in jiffies (/proc/<pid>/stat). */
function processTicks(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

const TICKS_PER_SECOND = 100;

/**
 * Watches the database's own sessions from a connection of its own: the CPU of the backends serving this database
 * (/proc/<pid>/stat of each backend pid), and what non-idle sessions are doing (pg_stat_activity samples), which
 * shows lock waits and connections held in open transactions.
 */
class DatabaseMonitor {
  private readonly client: pg.Client;
  private readonly waits = new Map<string, number>();
  private sampling = false;
  constructor(url: string) {
    this.client = new pg.Client({ connectionString: url });
  }
  async connect(): Promise<void> {
    await this.client.connect();
  }
  close(): Promise<void> {
    return this.client.end();
  }
  async backendTicks(): Promise<Map<number, number>> {
    const { rows } = await this.client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return new Map(rows.map((r) => [r.pid, processTicks(r.pid)]));
  }
  async sampleWaits(): Promise<void> {
    if (this.sampling) return;
    this.sampling = true;
    try {
      const { rows } = await this.client.query<{ what: string }>(
        `SELECT state || ' | ' || coalesce(wait_event_type || ':' || wait_event, '-') || ' | ' ||
                left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS what
         FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'`,
      );
      for (const { what } of rows) this.waits.set(what, (this.waits.get(what) ?? 0) + 1);
    } finally {
      this.sampling = false;
    }
  }
  topWaits(n: number): [string, number][] {
    return [...this.waits].sort((a, b) => b[1] - a[1]).slice(0, n);
  }
}

// ---- Run ----------------------------------------------------------------------------------------------------------

const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(0)} %`;
const ms = (v: number) => (Number.isNaN(v) ? '–' : v < 10 ? v.toFixed(1) : v.toFixed(0));

function printTable(rows: EndpointRow[], first = 'endpoint'): void {
  console.log(`\n| ${first} | requests | req/s | p50 ms | p95 ms | p99 ms | max ms | statuses |`);
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    console.log(
      `| ${r.endpoint} | ${r.requests} | ${r.throughput.toFixed(1)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ` +
        `${ms(r.max)} | ${r.statuses} |`,
    );
  }
}

async function main(): Promise<number> {
  if (!existsSync(join(repoRoot, 'apps/web/dist/index.html'))) {
    throw new Error(
      'apps/web/dist is missing: run `npm run build` first (production serves the built web app)',
    );
  }
  const prepStarted = performance.now();
  const handle = createDb({ kind: 'postgres', url: databaseUrl as string, poolSize: 2 });
  let data: LoadData;
  try {
    data = await prepareLoadData(handle, {
      accountId: args.account ? Math.floor(number('account', args.account, 1)) : undefined,
      verifications: Math.floor(number('verifications', args.verifications, 0)),
      staff: Math.floor(number('staff', args.staff, 1)),
      loginUsers: 50,
      testNumbers: Math.floor(number('test-numbers', args['test-numbers'], 1)),
    });
  } finally {
    await handle.close();
  }
  console.log(
    `data ready in ${((performance.now() - prepStarted) / 1000).toFixed(1)} s: account ${data.accountId}, ` +
      `${data.livePublicIds.length} live forms × ${data.testNumbers.length} test numbers, ` +
      `${data.staffSessions.length} member sessions, ${data.loginEmails.length} login users`,
  );

  if (args.servers) {
    // Servers someone else started (a deployment, or processes run under a profiler): NODE_ENV=production and
    // TRUST_PROXY set to this client's address there; their CPU is not measured here.
    const urls = args.servers.split(',').map((u) => u.trim().replace(/\/$/, ''));
    console.log(`driving ${urls.length} running servers: ${urls.join(', ')}`);
    const targets = urls.map((url, i) => new Target(url, Math.ceil((connections - i) / urls.length)));
    return drive(data, [], targets);
  }

  const secretKey = randomBytes(48).toString('base64url');
  const servers: ServerProcess[] = [];
  try {
    for (let i = 0; i < processes; i++) {
      servers.push(
        await startServer({
          ...serverEnv({ databaseUrl, dataDir: join(tmpdir(), `veriform-load-${process.pid}`) }, secretKey),
          NODE_ENV: 'production',
          PUBLIC_URL: 'http://localhost',
          LOG_LEVEL: 'warn',
          ...(args['server-node-options'] ? { NODE_OPTIONS: args['server-node-options'] } : {}),
        }),
      );
    }
    console.log(`${processes} server processes: ${servers.map((s) => s.url).join(', ')}`);
    const targets = servers.map((s, i) => new Target(s.url, Math.ceil((connections - i) / processes)));
    return await drive(
      data,
      servers.map((s) => s.child.pid),
      targets,
    );
  } finally {
    const codes = await Promise.all(servers.map((s) => stopServer(s)));
    codes.forEach((code, i) => {
      if (code !== 0)
        console.error(`server ${i} exited with ${code}:\n${servers[i]?.output.join('').slice(-4000)}`);
    });
    // Warnings and errors the servers logged, but for the start-up notes that no mail or SMS provider is set (none
    // is needed: test numbers send nothing).
    const logged = servers
      .flatMap((s) => s.output.join('').split('\n'))
      .filter((l) => /"level":(40|50|60)/.test(l) && !/is not set|are not set/.test(l));
    if (logged.length > 0) {
      console.log(`\nserver warnings/errors logged: ${logged.length}; first ones:`);
      for (const line of logged.slice(0, 5)) console.log(`  ${line.slice(0, 500)}`);
    }
  }
}

/** Runs the virtual users against `targets`; `pids`: the server processes whose CPU is measured (none: not ours). */
async function drive(data: LoadData, pids: (number | undefined)[], targets: Target[]): Promise<number> {
  const recorder = new Recorder();
  const scenarios = new Scenarios(recorder, data);
  const started = performance.now();
  const measureFrom = started + warmupS * 1000;
  const stopAt = measureFrom + durationS * 1000;
  let nextLoginAt = started;
  let nextWrongAt = measureFrom;
  let loginIndex = 0;
  let fatal: Error | undefined;

  async function virtualUser(index: number): Promise<void> {
    // A connection belongs to one server process; sticky like a proxy's upstream keep-alive connection.
    const target = targets[index % targets.length] as Target;
    const sessionId = data.staffSessions[index % data.staffSessions.length] as string;
    while (performance.now() < stopAt && !fatal) {
      const now = performance.now();
      const visit = { target, ip: nextIp() };
      try {
        if (now >= nextWrongAt) {
          nextWrongAt += WRONG_PASSWORD_INTERVAL_MS;
          await scenarios.wrongPassword(visit);
        } else if (loginRate > 0 && now >= nextLoginAt) {
          // After a stall, no burst of logins to catch up: the rate is a steady trickle.
          nextLoginAt = Math.max(nextLoginAt, now - 1000) + 1000 / loginRate;
          loginIndex = (loginIndex + 1) % data.loginEmails.length;
          await scenarios.login(visit, data.loginEmails[loginIndex]);
        } else {
          const kind = only ?? mixedVisit();
          if (kind === 'consumer') await scenarios.consumer(visit);
          else if (kind === 'staff') await scenarios.staff(visit, sessionId);
          else await scenarios.login(visit, undefined);
        }
      } catch (error) {
        fatal = error instanceof Error ? error : new Error(String(error));
      }
    }
  }

  const monitor = new DatabaseMonitor(databaseUrl as string);
  await monitor.connect();
  let cpuAtStart = process.cpuUsage();
  let machineAtStart = machineTicks();
  let serversAtStart = pids.map(processTicks);
  let backendsAtStart = new Map<number, number>();
  const loadAtStart = loadavg();
  const loadSamples: number[] = [];
  const sampler = setInterval(() => loadSamples.push(loadavg()[0] ?? 0), 5000);
  const waitSampler = setInterval(() => {
    if (recorder.recording) void monitor.sampleWaits();
  }, 250);
  const startRecording = setTimeout(() => {
    recorder.recording = true;
    cpuAtStart = process.cpuUsage();
    machineAtStart = machineTicks();
    serversAtStart = pids.map(processTicks);
    void monitor.backendTicks().then((ticks) => {
      backendsAtStart = ticks;
    });
    console.log(`warm-up done; measuring ${durationS} s with ${connections} connections`);
  }, warmupS * 1000);

  await Promise.all(Array.from({ length: connections }, (_, i) => virtualUser(i)));
  clearTimeout(startRecording);
  clearInterval(sampler);
  clearInterval(waitSampler);
  const seconds = (performance.now() - measureFrom) / 1000;
  const cpu = process.cpuUsage(cpuAtStart);
  const machine = machineTicks();
  const serverTicks = pids.map((pid, i) => processTicks(pid) - (serversAtStart[i] ?? 0));
  const backendsAtEnd = await monitor.backendTicks();
  const loadAtEnd = loadavg();
  await monitor.close();
  if (fatal) throw fatal;
  let databaseTicks = 0;
  for (const [pid, ticks] of backendsAtEnd) databaseTicks += ticks - (backendsAtStart.get(pid) ?? 0);

  const all = summarize(recorder, seconds);
  const rows = all.filter((r) => !r.endpoint.includes(VARIANT));
  printTable(rows);
  printTable(
    all.filter((r) => r.endpoint.includes(VARIANT)).sort((a, b) => a.endpoint.localeCompare(b.endpoint)),
    'GET /api/verifications by query',
  );
  const total = rows.reduce((a, r) => a + r.requests, 0);
  console.log(`\nall: ${total} requests in ${seconds.toFixed(1)} s = ${(total / seconds).toFixed(0)} req/s`);
  const mix = mixPercentiles(recorder);
  console.log(
    `the mix's latency (every request): p50 ${mix.p50.toFixed(1)} ms, p95 ${mix.p95.toFixed(1)} ms, ` +
      `p99 ${mix.p99.toFixed(1)} ms`,
  );

  const wall = (machine.total - machineAtStart.total) / TICKS_PER_SECOND;
  const busy = (machine.busy - machineAtStart.busy) / TICKS_PER_SECOND;
  const client = (cpu.user + cpu.system) / 1e6;
  const serverCpu = serverTicks.reduce((a, b) => a + b, 0) / TICKS_PER_SECOND;
  const databaseCpu = databaseTicks / TICKS_PER_SECOND;
  const rest = busy - client - serverCpu - databaseCpu;
  console.log(
    `CPU over the run (${wall.toFixed(0)} core-s on all cores, ${busy.toFixed(0)} busy = ${pct(busy, wall)}): ` +
      `client ${client.toFixed(1)} s (${pct(client, busy)} of busy), ` +
      `servers ${serverCpu.toFixed(1)} s (${serverTicks.map((t) => (t / TICKS_PER_SECOND).toFixed(1)).join(' + ')}; ` +
      `${pct(serverCpu, busy)}), PostgreSQL backends of this database ${databaseCpu.toFixed(1)} s ` +
      `(${pct(databaseCpu, busy)}), the rest (other work on the machine, PostgreSQL's own processes) ` +
      `${rest.toFixed(1)} s (${pct(rest, busy)})`,
  );
  console.log(
    `load average: ${loadAtStart.map((v) => v.toFixed(2)).join(' ')} at start, ` +
      `${loadAtEnd.map((v) => v.toFixed(2)).join(' ')} at end; 1-min samples every 5 s: ` +
      `${loadSamples.map((v) => v.toFixed(1)).join(' ')}`,
  );

  console.log(
    '\nPostgreSQL sessions of this database not idle, sampled every 250 ms (state | wait | statement):',
  );
  for (const [what, n] of monitor.topWaits(10)) console.log(`  ${String(n).padStart(5)}  ${what}`);

  const failures = rows.filter((r) => r.unexpected > 0);
  for (const r of failures) {
    const stats = recorder.endpoints.get(r.endpoint);
    console.log(`\nUNEXPECTED on ${r.endpoint}: ${r.unexpected}`);
    for (const example of stats?.examples ?? []) console.log(`  ${example}`);
  }
  for (const problem of scenarios.malformed) console.log(`MALFORMED: ${problem}`);
  const ok = failures.length === 0 && scenarios.malformed.length === 0;
  console.log(ok ? '\nPASS: no 5xx, no errors, only intended 4xx' : '\nFAIL');
  return ok ? 0 : 1;
}

process.exitCode = await main();
