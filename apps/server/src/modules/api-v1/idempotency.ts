import { createHash, type Hash } from 'node:crypto';
import { pipeline, Transform } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { callerOf } from '../../plugins/caller.ts';
import { type Claim, createIdempotencyStore } from './idempotency-store.ts';
import { problem } from './responses.ts';

/**
 * `Idempotency-Key` on every API v1 POST (issue #15; ADR 17; the IETF httpapi draft, as Stripe has it). Registered
 * once in the v1 scope, it reaches every POST route added there after it, with no line in the route files:
 * - its `onRoute` declares the header and the 409/422 answers in the route's schema (so the OpenAPI document shows
 *   them), checks the header last among the route's preValidation hooks and claims the key as its last preHandler,
 *   so 401, 403, 429 and the body's validation errors come first and are never stored: nothing ran (Stripe does the
 *   same); a corrected request may reuse the key;
 * - preParsing hashes the raw body bytes as they are read (SHA-256 over method, path and body);
 * - the claim (idempotency-store.ts) is one atomic INSERT … ON CONFLICT: the first request runs, the same request
 *   again gets the stored answer (or 409 while the first runs), another request under the key 422;
 * - onSend keeps what the handler answered (2xx and 4xx) before it reaches the caller, and forgets a 5xx so a retry
 *   runs again.
 */

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
const KEY_MAX_LENGTH = 255;
const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;
const KEY_RULE = `1 to ${KEY_MAX_LENGTH} printable ASCII characters`;

const idempotencyKeySchema = z
  .string()
  .min(1)
  .max(KEY_MAX_LENGTH)
  .regex(PRINTABLE_ASCII)
  .meta({
    description: `Makes retrying this request safe: within 24 hours, the same key with the same request returns the first answer again (with \`Idempotent-Replayed: true\`) without acting twice. ${KEY_RULE}, e.g. a UUID; keys are per API key.`,
    example: 'f3b1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  });

const headersSchema = z.object({ [IDEMPOTENCY_KEY_HEADER]: idempotencyKeySchema.optional() });

const IN_USE = 'A request with this `Idempotency-Key` is still running: `idempotency_key_in_use`.';
const REUSED =
  'This `Idempotency-Key` was used with another request (path or body): `idempotency_key_reused`.';

/** The key of the request, null without one; a malformed one is a 400 on the header (RFC 6901 pointer). */
function idempotencyKeyOf(request: FastifyRequest): string | null {
  const value = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return null;
  if (typeof value === 'string' && idempotencyKeySchema.safeParse(value).success) return value;
  throw new AppError('validation_error', {
    fields: { [`headers.${IDEMPOTENCY_KEY_HEADER}`]: [`Must be ${KEY_RULE}.`] },
    problem: 'invalid_request',
  });
}

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
const hooksOf = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** The route's schema with the header declared and the 409/422 answers documented beside its own. */
function withIdempotencyDocs(schema: RouteOptions['schema']): RouteOptions['schema'] {
  const own = schema ?? {};
  const headers = own.headers;
  if (headers !== undefined && !(headers instanceof z.ZodObject)) {
    throw new Error('API v1 POST routes declare headers as a zod object (idempotency.ts extends it)');
  }
  const response = isRecord(own.response) ? own.response : {};
  const existing409 = response[409];
  const conflict =
    isRecord(existing409) && typeof existing409.description === 'string'
      ? `${existing409.description} Or the first request with this \`Idempotency-Key\` is still running: \`idempotency_key_in_use\`.`
      : IN_USE;
  return {
    ...own,
    headers: headers ? headers.extend(headersSchema.shape) : headersSchema,
    response: { ...response, 409: problem(conflict), 422: problem(REUSED) },
  };
}

type Stored = Claim & { settled: boolean };

/** The answer's bytes as they go out; null for a stream (never an API v1 answer), which is not kept. */
function bytesOf(payload: unknown): Buffer | null {
  if (payload === null || payload === undefined) return Buffer.alloc(0);
  if (typeof payload === 'string') return Buffer.from(payload);
  if (Buffer.isBuffer(payload)) return payload;
  return null;
}

function contentTypeOf(reply: FastifyReply): string | null {
  const value = reply.getHeader('content-type');
  return value === undefined ? null : String(value);
}

export function registerIdempotency(app: FastifyInstance): void {
  const store = createIdempotencyStore(app.services.db, app.services.clock);
  const hashes = new WeakMap<FastifyRequest, Hash>();
  const claims = new WeakMap<FastifyRequest, Stored>();

  // The raw bytes, not the parsed body: what the caller sent is what it sends again when it retries, and no two
  // requests that differ in any byte (a duplicate key, 1 against 1.0) are taken for the same one.
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (request.method !== 'POST' || request.headers[IDEMPOTENCY_KEY_HEADER] === undefined) return payload;
    const hash = createHash('sha256').update(`${request.method} ${request.url}\n`);
    hashes.set(request, hash);
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    // A client that aborts mid-body fails the parser as it would without the tap.
    pipeline(payload, tap, () => {});
    return tap;
  });

  const checkKey: Hook = async (request) => {
    idempotencyKeyOf(request);
  };

  const claimOrReplay: Hook = async (request, reply) => {
    const key = idempotencyKeyOf(request);
    if (key === null) return;
    const caller = await callerOf(request);
    const hash = hashes.get(request);
    if (caller?.type !== 'api_key' || !hash)
      throw new Error('Idempotency-Key without a key or a request hash');
    const apiKeyId = caller.key.keyId;
    const requestHash = hash.digest();
    // A row found missing was released or expired between the two statements: claim again.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const claim = await store.claim(apiKeyId, key, requestHash);
      if (claim) {
        claims.set(request, { ...claim, settled: false });
        return;
      }
      const existing = await store.find(apiKeyId, key, requestHash);
      if (!existing) continue;
      if (!existing.sameRequest) {
        throw new AppError('validation_error', {
          detail: `This Idempotency-Key was first used with another request (method, path or body); use a new key for a new request.`,
          problem: 'idempotency_key_reused',
        });
      }
      if (existing.state === 'running') break;
      const { statusCode, contentType, body } = existing.answer;
      reply.code(statusCode).header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      if (contentType) reply.type(contentType);
      return reply.send(body);
    }
    throw new AppError('validation_error', {
      detail: 'A request with this Idempotency-Key is still running; retry once it has answered.',
      problem: 'idempotency_key_in_use',
    });
  };

  app.addHook('onRoute', (route) => {
    if (![route.method].flat().includes('POST')) return;
    route.schema = withIdempotencyDocs(route.schema);
    route.preValidation = [...hooksOf(route.preValidation), checkKey];
    route.preHandler = [...hooksOf(route.preHandler), claimOrReplay];
  });

  // Before the answer leaves: once a caller holds an answer, a retry of it is a replay, never a 409.
  app.addHook('onSend', async (request, reply, payload) => {
    const claim = claims.get(request);
    if (!claim || claim.settled) return payload;
    claim.settled = true;
    const body = bytesOf(payload);
    try {
      if (reply.statusCode >= 500 || body === null) await store.release(claim);
      else
        await store.complete(claim, {
          statusCode: reply.statusCode,
          contentType: contentTypeOf(reply),
          body,
        });
    } catch (error) {
      // The answer stands; the row stays `running` until a retry takes it over (RUNNING_TAKEOVER_MS).
      request.log.error({ err: error }, 'idempotency key not stored');
    }
    return payload;
  });

  // An answer that left without passing onSend (a hijacked reply) cannot be replayed: let a retry run.
  app.addHook('onResponse', async (request) => {
    const claim = claims.get(request);
    if (!claim || claim.settled) return;
    claim.settled = true;
    await store.release(claim);
  });
}
