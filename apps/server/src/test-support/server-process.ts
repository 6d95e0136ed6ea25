import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { repoRoot } from '../config.ts';

/**
 * The server as production runs it — `server.ts` in a Node process of its own, over loopback HTTP — for tests of what
 * only a real process shows: several processes on one database, SIGKILL and SIGTERM.
 */

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  /** Everything it printed (stdout and stderr), for failure messages. */
  output: string[];
  /** Resolves with the exit code (null when killed by a signal) once the process has ended. */
  exited: Promise<number | null>;
};

/** The environment of a test server: test mode (development outbox), loopback, one trusted proxy hop. */
export function serverEnv(database: { databaseUrl?: string; dataDir: string }, secretKey: string) {
  return {
    NODE_ENV: 'test',
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    DATA_DIR: database.dataDir,
    SECRET_KEY: secretKey,
    PUBLIC_URL: 'http://localhost',
    HOST: '127.0.0.1',
    PORT: '0',
    // Each simulated visitor sends its own X-Forwarded-For, so per-IP limits see separate people.
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
}

export function startServer(env: Record<string, string>): Promise<ServerProcess> {
  // The parent's DATABASE_URL (if any) must not leak into a PGlite server.
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, [join(repoRoot, 'apps/server/src/server.ts')], {
    cwd: repoRoot,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output.join('')}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      const match = /running at (http:\/\/localhost:\d+)/.exec(output.join(''));
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ url: match[1].replace('localhost', '127.0.0.1'), child, output, exited });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output.join('')}`));
    });
  });
}

/** Sends the signal and waits for the process to end; its exit code, or null when the signal killed it. */
export async function stopServer(
  server: ServerProcess,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<number | null> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  return server.exited;
}

/** A browser against a real server: a cookie jar, a CSRF token and a client address of its own. */
export class HttpClient {
  private readonly cookies = new Map<string, string>();
  csrfToken = '';
  readonly ip: string;
  constructor(ip: string) {
    this.ip = ip;
  }

  async request(base: string, method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = {
      'x-forwarded-for': this.ip,
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    };
    if (this.csrfToken) headers['x-csrftoken'] = this.csrfToken;
    let payload: string | FormData | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(`${base}${path}`, { method, headers, body: payload });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      const expired = attributes.some((a) => /^\s*max-age=0$/i.test(a));
      if (expired || value === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const text = await response.text();
    return { status: response.status, text, json: <T = Record<string, unknown>>() => JSON.parse(text) as T };
  }

  /** A token for the CSRF secret this jar holds now (POST /api/auth/csrf is the one exempt call). */
  async refreshCsrf(base: string): Promise<void> {
    this.csrfToken = '';
    this.csrfToken = (await this.request(base, 'POST', '/api/auth/csrf')).json<{
      csrfToken: string;
    }>().csrfToken;
  }
}

let ipCounter = 0;
/** A client address no other visitor of this test process has used. */
export function newClientIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

/** An empty PostgreSQL database on the test server, dropped by the returned function. */
export async function createEmptyPostgresDatabase(
  serverUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `vf_proc_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
