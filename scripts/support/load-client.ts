/**
 * The load client's transport and bookkeeping: keep-alive HTTP over node:http (no extra dependency, and cheap enough:
 * the client's own CPU share is measured and printed), per-endpoint counts, latencies and status codes.
 */
import http from 'node:http';

/** One server process: a keep-alive agent holding at most `sockets` connections to it. */
export class Target {
  readonly agent: http.Agent;
  readonly host: string;
  readonly port: number;
  readonly url: string;
  constructor(url: string, sockets: number) {
    this.url = url;
    const parsed = new URL(url);
    this.host = parsed.hostname;
    this.port = Number(parsed.port);
    // LIFO keeps the busiest sockets warm; maxSockets is the connection count this process gets.
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets, scheduling: 'lifo' });
  }
}

export type Reply = { status: number; setCookie: string[]; body: string };

export type RequestSpec = {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  /** Read the body (pages for the CSRF token, JSON for ids); otherwise it is drained unread. */
  read: boolean;
};

/** Longer than any sane answer under this load; a request that takes longer is counted as an error. */
const REQUEST_TIMEOUT_MS = 30_000;

export function send(target: Target, spec: RequestSpec): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const payload = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const headers: Record<string, string | number> = { ...spec.headers };
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    const req = http.request(
      {
        agent: target.agent,
        host: target.host,
        port: target.port,
        method: spec.method,
        path: spec.path,
        headers,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const setCookie = res.headers['set-cookie'] ?? [];
        // Error bodies are always read: they say why, for the failure report.
        if (!spec.read && status < 400) {
          res.resume();
          res.on('end', () => resolve({ status, setCookie, body: '' }));
        } else {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status, setCookie, body: Buffer.concat(chunks).toString('utf8') }));
        }
        res.on('error', reject);
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () =>
      req.destroy(new Error(`timeout after ${REQUEST_TIMEOUT_MS} ms`)),
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A cookie's value from Set-Cookie lines, or undefined. */
export function cookieFrom(setCookie: string[], name: string): string | undefined {
  for (const line of setCookie) {
    if (line.startsWith(`${name}=`)) return line.slice(name.length + 1).split(';', 1)[0];
  }
  return undefined;
}

class Samples {
  private data = new Float64Array(4096);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }
  sorted(): Float64Array {
    return this.data.slice(0, this.length).sort();
  }
}

export type EndpointStats = {
  requests: number;
  latencies: Samples;
  statuses: Map<number, number>;
  errors: Map<string, number>;
  /** Answers with a status the scenario did not intend, and errors: these fail the run. */
  unexpected: number;
  examples: string[];
};

/** Separates an endpoint from a variant of its query in a label (a second row: `endpoint · variant`). */
export const VARIANT = ' · ';

export class Recorder {
  readonly endpoints = new Map<string, EndpointStats>();
  recording = false;

  private stats(label: string): EndpointStats {
    let s = this.endpoints.get(label);
    if (!s) {
      s = {
        requests: 0,
        latencies: new Samples(),
        statuses: new Map(),
        errors: new Map(),
        unexpected: 0,
        examples: [],
      };
      this.endpoints.set(label, s);
    }
    return s;
  }

  /**
   * Sends and records under `label`; answers the reply when its status is one of `expect`, otherwise undefined (the
   * scenario stops: what follows depended on this step). Warm-up requests are sent but not recorded. A `variant`
   * is also recorded under `label · variant`.
   */
  async call(
    target: Target,
    label: string,
    spec: RequestSpec,
    expect: readonly number[],
    variant?: string,
  ): Promise<Reply | undefined> {
    const recording = this.recording;
    const labels = variant ? [label, `${label}${VARIANT}${variant}`] : [label];
    const started = performance.now();
    try {
      const reply = await send(target, spec);
      const elapsed = performance.now() - started;
      const expected = expect.includes(reply.status);
      if (recording) {
        for (const s of labels.map((l) => this.stats(l))) {
          s.requests += 1;
          s.latencies.push(elapsed);
          s.statuses.set(reply.status, (s.statuses.get(reply.status) ?? 0) + 1);
          if (expected) continue;
          s.unexpected += 1;
          if (s.examples.length < 5) {
            s.examples.push(`${reply.status} ${spec.method} ${spec.path}: ${reply.body.slice(0, 300)}`);
          }
        }
      }
      return expected ? reply : undefined;
    } catch (error) {
      if (recording) {
        const message = error instanceof Error ? error.message : String(error);
        for (const s of labels.map((l) => this.stats(l))) {
          s.requests += 1;
          s.errors.set(message, (s.errors.get(message) ?? 0) + 1);
          s.unexpected += 1;
          if (s.examples.length < 5) s.examples.push(`error ${spec.method} ${spec.path}: ${message}`);
        }
      }
      return undefined;
    }
  }
}

export type EndpointRow = {
  endpoint: string;
  requests: number;
  throughput: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  statuses: string;
  unexpected: number;
};

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * The whole mix's latencies (every endpoint's requests together, a variant's counted once under its endpoint): what a
 * side-by-side comparison of two runs reads, e.g. the load with and without a background job.
 */
export function mixPercentiles(recorder: Recorder): {
  requests: number;
  p50: number;
  p95: number;
  p99: number;
} {
  const parts = [...recorder.endpoints]
    .filter(([endpoint]) => !endpoint.includes(VARIANT))
    .map(([, s]) => s.latencies.sorted());
  const all = new Float64Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  all.sort();
  return {
    requests: all.length,
    p50: percentile(all, 50),
    p95: percentile(all, 95),
    p99: percentile(all, 99),
  };
}

export function summarize(recorder: Recorder, seconds: number): EndpointRow[] {
  return [...recorder.endpoints].map(([endpoint, s]) => {
    const sorted = s.latencies.sorted();
    const statuses = [...s.statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}: ${n}`)
      .concat([...s.errors].map(([message, n]) => `${message}: ${n}`));
    return {
      endpoint,
      requests: s.requests,
      throughput: s.requests / seconds,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      max: sorted.length ? (sorted[sorted.length - 1] ?? Number.NaN) : Number.NaN,
      statuses: statuses.join(', '),
      unexpected: s.unexpected,
    };
  });
}
