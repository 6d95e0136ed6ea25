import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { CERTIFICATE_UPLOAD_MAX_BYTES, type CertificateCheck } from '@veriform/contracts';
import { createProcessDatabase } from '@veriform/db/testing';
import { MAX_CERTIFICATE_JSON_BYTES, MAX_CERTIFICATE_JSON_VALUES } from '@veriform/verify-certificate';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  HttpClient,
  newClientIp,
  type ServerProcess,
  serverEnv,
  startServer,
  stopServer,
} from '../../test-support/server-process.ts';

/**
 * Issue #33 item 7: a certificate check's work is bounded before anything parses the upload, so the server's one
 * thread stays free for everyone else. The server runs in a process of its own (as production runs it); this
 * process sends ten worst-case checks at once and meanwhile asks `/healthz` again and again: every answer must come
 * within 100 ms. Before the bounds, a 2 MB upload nested a million levels deep held the thread for 1–6 s each.
 */

const HEALTH_WITHIN_MS = 100;
const CONCURRENT_CHECKS = 10;
const ROUNDS = 3;

const signature = ',"signature":{"alg":"Ed25519","keyId":"vfk_0000000000000000","value":"x"}}';

/** The file: as near the upload limit as a multipart body allows, nested in a certificate's field. */
function nestedCertificate(): Buffer {
  const levels = (CERTIFICATE_UPLOAD_MAX_BYTES - 1024) / 2;
  return Buffer.from(`{"certificate":{"a":${'['.repeat(levels)}${']'.repeat(levels)}}${signature}`);
}

/**
 * The costliest file within the bounds: as many long, distinct keys as allowed (the canonical form sorts them), at
 * the size limit. Parsed and canonicalised in full.
 */
function widestWithinBounds(): Buffer {
  const count = MAX_CERTIFICATE_JSON_VALUES - 10;
  const keyLength = Math.floor((MAX_CERTIFICATE_JSON_BYTES - 200) / count) - 6;
  const members = Array.from(
    { length: count },
    (_, i) => `"${String(count - i).padStart(keyLength, 'k')}":1`,
  ).join(',');
  return Buffer.from(`{"certificate":{${members}}${signature}`);
}

/** Asks for `/healthz` every 5 ms until told to stop; answers the time each answer took and its status. */
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
let stop = false;
parentPort.once('message', () => { stop = true; });
(async () => {
  // The first request loads fetch and opens the connection: not counted.
  await (await fetch(workerData.url)).arrayBuffer();
  parentPort.postMessage('ready');
  const times = [];
  const statuses = [];
  while (!stop) {
    const started = performance.now();
    const response = await fetch(workerData.url);
    await response.arrayBuffer();
    times.push(performance.now() - started);
    statuses.push(response.status);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  parentPort.postMessage({ times, statuses });
})();
`;

describe('certificate checks and the event loop', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'veriform-check-loop-'));
  let server: ServerProcess;
  let dropDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const created = await createProcessDatabase(inject('testDbTemplate'), join(dataDir, 'pglite'));
    dropDatabase = created.drop;
    server = await startServer(
      serverEnv({ databaseUrl: created.databaseUrl, dataDir }, randomBytes(32).toString('base64url')),
    );
  }, 90_000);

  afterAll(async () => {
    if (server) await stopServer(server);
    await dropDatabase?.();
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  /** Probes `/healthz` from a thread of its own while `work` runs; the time each answer took. */
  async function probeDuring(work: () => Promise<void>): Promise<number[]> {
    // Its own thread: this one is busy sending the uploads, which must not delay the probe.
    const prober = new Worker(PROBE, { eval: true, workerData: { url: `${server.url}/healthz` } });
    try {
      const messages: unknown[] = [];
      let wake: () => void = () => {};
      prober.on('message', (message: unknown) => {
        messages.push(message);
        wake();
      });
      const failed = new Promise<never>((_, reject) => prober.once('error', reject));
      const nextMessage = () =>
        Promise.race([
          failed,
          new Promise<unknown>((resolve) => {
            const take = () => {
              if (messages.length > 0) resolve(messages.shift());
              else wake = take;
            };
            take();
          }),
        ]);
      expect(await nextMessage()).toBe('ready');
      await work();
      prober.postMessage('stop');
      const { times, statuses } = (await nextMessage()) as { times: number[]; statuses: number[] };
      expect(new Set(statuses)).toEqual(new Set([200]));
      return times;
    } finally {
      await prober.terminate();
    }
  }

  async function tenChecks(files: Buffer[]): Promise<void> {
    const visitors = await Promise.all(
      Array.from({ length: CONCURRENT_CHECKS }, async () => {
        const visitor = new HttpClient(newClientIp());
        await visitor.refreshCsrf(server.url);
        return visitor;
      }),
    );
    const answers = await Promise.all(
      visitors.map((visitor, i) => {
        const form = new FormData();
        const file = files[i % files.length] ?? Buffer.alloc(0);
        form.append('file', new Blob([file], { type: 'application/json' }), 'certificate.json');
        return visitor.request(server.url, 'POST', '/api/public/certificates/verify', form);
      }),
    );
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json<CertificateCheck>().verdict).not.toBe('authentic');
    }
  }

  it(`/healthz answers within ${HEALTH_WITHIN_MS} ms (on a loaded machine: as with harmless uploads) during ${CONCURRENT_CHECKS} concurrent worst-case checks`, async () => {
    const files = [nestedCertificate(), widestWithinBounds()];
    expect(files[0]?.length).toBeGreaterThan(CERTIFICATE_UPLOAD_MAX_BYTES - 2048);
    expect(files[1]?.length).toBeLessThanOrEqual(MAX_CERTIFICATE_JSON_BYTES);
    // Warm: the first check makes the signing key.
    await tenChecks([Buffer.from('{}')]);

    // The test machine is shared (its two cores often run a dozen other processes), and there ten 2 MB uploads alone,
    // whatever their bytes, can hold an answer past 100 ms (measured at a load average of 14: up to 400 ms for files of
    // spaces, refused unread). So each round first measures that: the same ten uploads, sizes and requests, of
    // harmless bytes. The worst files must then be answered within 100 ms, or, on a machine so loaded that the
    // harmless ones are not, within twice their time. A server blocked by its checks (1–9 s each before the bounds)
    // fails every round; a round within bounds ends the test.
    const harmless = files.map((file) => Buffer.alloc(file.length, 0x20));
    const rounds: string[] = [];
    let passed = false;
    for (let round = 0; round < ROUNDS && !passed; round++) {
      const control = Math.max(...(await probeDuring(() => tenChecks(harmless))));
      const times = await probeDuring(() => tenChecks(files));
      expect(times.length).toBeGreaterThan(3);
      const worst = Math.max(...times);
      passed = worst < Math.max(HEALTH_WITHIN_MS, 2 * control);
      rounds.push(`${times.map(Math.round).join(', ')} (harmless files: at most ${Math.round(control)})`);
    }
    expect(passed, `health answers (ms), by round: ${rounds.join(' | ')}`).toBe(true);
  }, 180_000);
});
