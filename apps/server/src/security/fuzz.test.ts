import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { insertVerification } from '../modules/verifications/test-helpers.ts';
import { nullCharacterPath } from '../plugins/null-characters.ts';
import { newApiKey } from '../test-support/api-v1/client.ts';
import { useTestApp } from '../test-support/app.ts';
import { TestClient } from '../test-support/client.ts';
import { createPublicForm } from '../test-support/public-verify.ts';
import { newOwner } from '../test-support/teams.ts';
import {
  extremeDateValues,
  fieldPaths,
  hostileBody,
  hostileValue,
  isRecord,
  loneSurrogateValues,
  nastyStrings,
  type Overrides,
  plausible,
  withField,
} from './arbitraries-from-zod.ts';
import { errorContractViolation } from './response-checks.ts';
import { fillPath, handParsedBodies, type RouteInfo, routeInventory } from './route-inventory.ts';
import { buildWorld, type World, worldParam } from './world.ts';

/**
 * Issue #7 item 4: every route of the app (read from the app itself, see route-inventory.ts) gets requests generated
 * from its zod contract and then broken — wrong types, missing and extra fields, nulls, 10k and 1 MB strings, NUL,
 * lone surrogates, bidi overrides, odd query strings (`a[]=1&a[b]=2`, duplicate keys, `%00`, bad percent-encoding),
 * bad JSON, wrong content types, hostile path segments — logged out, as an account owner and as a plain member, with
 * a valid CSRF token so they reach validation (sometimes without, to hit the CSRF check). The SPA's pages get hostile
 * paths and queries too. Every answer must be < 500 and, when it is an error, in the spec's format with no internals
 * (response-checks.ts).
 *
 * Fixed seeds and bounded runs keep it fast (2 × FUZZ_RUNS requests per route, default 30). Longer or other runs:
 * `FUZZ_RUNS=500 FUZZ_SEED=… npx vitest run apps/server/src/security/fuzz.test.ts`; `FUZZ_FULL=1` prints failing
 * requests whole, `FUZZ_VERBOSE=1` each route's status counts. A failure names the route, the seed, fast-check's
 * path and the request (not shrunk: hostile values are big, and the request replays as printed).
 */

const t = useTestApp();
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_707);

/**
 * Routes fuzzed last, because a valid request destroys part of the world; logout (which ends the owner's session)
 * the very last.
 */
const lastness = (route: RouteInfo) =>
  route.url === '/api/auth/logout' ? 2 : route.method === 'DELETE' ? 1 : 0;

/** Logged out, the account's owner, or a plain member of it (who meets the 403s). */
/** `apiKey`: a bearer key of the owner's account with every scope (API v1's caller; the session routes' too). */
type Caller = 'anonymous' | 'owner' | 'member' | 'apiKey';

type FuzzRequest = {
  caller: Caller;
  /** False: the X-CSRFToken header is left out (unsafe methods then answer 403). */
  csrf: boolean;
  url: string;
  payload?: string | Buffer;
  contentType?: string;
  /** Odd extra headers: a User-Agent that gets stored, cookie junk next to the real cookies, and the like. */
  extraHeaders: Record<string, string>;
};

let world: World;
let anonymous: TestClient;
let ipCounter = 0;

beforeAll(async () => {
  world = await buildWorld(t);
  anonymous = new TestClient(t.app, '10.66.0.1');
  await anonymous.fetchCsrf();
}, 60_000);

/** Hostile path segments, already on the wire (some percent-encodings are invalid on purpose). */
const hostileSegments = fc.oneof(
  fc.constantFrom(
    'abc',
    '0',
    '-1',
    '1.5',
    '1e3',
    '0x10',
    '99999999999',
    '%00',
    '%ZZ',
    '%E0%A4%A',
    '%uD800',
    '%2e%2e',
    '..',
    '%2F',
    '%20',
    'null',
    '__proto__',
    '9'.repeat(150),
  ),
  fc.constantFrom(...nastyStrings.filter((s) => s !== '')).map(encodeURIComponentLoosely),
);

/** encodeURIComponent, but a lone surrogate (which it refuses) goes out as its raw UTF-16 escape. */
function encodeURIComponentLoosely(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return escape(value);
  }
}

/** Query suffixes that trip parsers: nested keys, duplicates, NUL, bad and overlong encodings, prototype keys. */
const oddQueries = fc.constantFrom(
  'a[]=1&a[b]=2',
  'account[]=1&account[b]=2',
  'account=1&account=2&accountId=1&accountId=x',
  'account=%00&accountId=%00&q=%00&tz=%00',
  'q=%ZZ&tz=%E0%A4%A',
  'q=%F0%9F&o=%C0%AF',
  '&&&=&=&',
  '__proto__[x]=1&constructor[prototype][x]=1',
  `q=${'x'.repeat(10_000)}`,
  `tz=${'A'.repeat(5_000)}`,
  'pageSize=1e9&pageNumber=-1&page=NaN',
  'created__date__preset=custom&created__date__gte=9999-99-99&created__date__lte=0000-00-00',
  'verifyFormId__in=1,2,,x,-1,99999999999999&verificationMethod__in=all,sms,nope',
  'key=%00&ref=%uD800',
  'created__date__preset=custom&created__date__gte=0000-01-01&created__date__lte=0000-12-31',
  'tz=US/Pacific-New&created__date__preset=last7d',
  'tz=SystemV/AST4&created__date__preset=today',
  'tz=Etc/GMT%2B12&created__date__preset=yesterday',
);

/** Odd values for one key, sent on top of an otherwise valid query (the key then appears twice or gets odd). */
const oddQueryValues = fc.constantFrom(
  'q=a%00b',
  'tz=%00',
  'o=%00',
  'q=%uD800',
  'status=%00',
  'to=%00',
  'category__in=%00',
  'verifyFormCategory__in=%00',
);

/** A query object's values as they go on the wire: scalars as text, arrays as repeated keys, objects as JSON. */
function serializeQuery(query: unknown): string {
  if (!isRecord(query)) return '';
  const parts: string[] = [];
  const push = (key: string, value: unknown) =>
    parts.push(`${encodeURIComponentLoosely(key)}=${encodeURIComponentLoosely(asText(value))}`);
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) push(key, item);
    else push(key, value);
  }
  return parts.join('&');
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Bodies that are not JSON, or JSON that parsers disagree about. */
const brokenJson = fc.constantFrom(
  '{',
  '{"a":',
  '[',
  'nul',
  '{"a":1,}',
  "{'a':1}",
  '\uFEFF{}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"__proto__":{"isStaff":true}}',
  '{"constructor":{"prototype":{"isStaff":true}}}',
  '1e999999',
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
  '\u0000',
);

/** A JSON text with one of its keys repeated with another value (which one wins differs between parsers). */
function withDuplicateKey(body: unknown, value: unknown): string {
  const json = JSON.stringify(body) ?? 'null';
  if (!isRecord(body)) return json;
  const key = Object.keys(body)[0];
  if (key === undefined) return json;
  return `${json.slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}}`;
}

/** The body on the wire: usually JSON, sometimes broken, under a wrong content type, or missing. */
function encodedBody(
  body: fc.Arbitrary<unknown>,
): fc.Arbitrary<Pick<FuzzRequest, 'payload' | 'contentType'>> {
  return fc.oneof(
    {
      weight: 10,
      arbitrary: body.map((b) => ({ payload: JSON.stringify(b) ?? '', contentType: 'application/json' })),
    },
    { weight: 1, arbitrary: brokenJson.map((payload) => ({ payload, contentType: 'application/json' })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(body, hostileValue)
        .map(([b, v]) => ({ payload: withDuplicateKey(b, v), contentType: 'application/json' })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          body,
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data',
            'multipart/form-data; boundary=x',
            'application/xml',
            'application/json; charset=utf-16',
            'application/json; charset=latin1',
            'APPLICATION/JSON',
            'application/vnd.api+json',
            'application/json, text/plain',
            '*/*',
            'image/png',
          ),
        )
        .map(([b, contentType]) => ({
          payload: contentType.includes('urlencoded') ? 'a[]=1&a[b]=2&email=x' : (JSON.stringify(b) ?? ''),
          contentType,
        })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom({ contentType: 'application/json', payload: '' }, {}, { payload: '{}' }),
    },
  );
}

/** Multipart bodies that are not what the upload routes expect (the upload suites send real and hostile images). */
const junkMultipart = fc
  .oneof(
    fc.constant({ payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n' }),
    fc.constant({
      payload: '--x\r\nContent-Disposition: form-data; name="uploadedProfileImage"; filename="a.png"\r\n\r\n',
    }),
    fc.constant({ payload: 'not multipart at all' }),
    fc.string({ unit: 'binary-ascii', maxLength: 200 }).map((payload) => ({ payload })),
  )
  .map((b) => ({ ...b, contentType: 'multipart/form-data; boundary=x' }));

function bodyOf(
  route: RouteInfo,
  overrides: Overrides,
): fc.Arbitrary<Pick<FuzzRequest, 'payload' | 'contentType'>> {
  const schema = route.body ?? handParsedBodies[route.key];
  if (schema === 'multipart') return fc.oneof(junkMultipart, encodedBody(hostileValue));
  if (schema === 'none' || schema === undefined) {
    // A body nobody asked for must not matter either.
    return fc.oneof(
      { weight: 3, arbitrary: fc.constant({}) },
      { weight: 1, arbitrary: encodedBody(hostileValue) },
    );
  }
  return encodedBody(hostileBody(schema, overrides));
}

function pathOf(route: RouteInfo): fc.Arbitrary<string> {
  if (route.paramNames.length === 0) return fc.constant(route.url);
  const values = route.paramNames.map((name) => {
    const existing = worldParam(world, route, name);
    return existing === undefined
      ? hostileSegments
      : fc.oneof({ weight: 4, arbitrary: fc.constant(existing) }, { weight: 1, arbitrary: hostileSegments });
  });
  return fc
    .tuple(...values)
    .map((filled) =>
      fillPath(route.url, Object.fromEntries(route.paramNames.map((n, i) => [n, filled[i] ?? '']))),
    );
}

function queryOf(route: RouteInfo, overrides: Overrides): fc.Arbitrary<string> {
  const fromSchema = route.querystring
    ? fc.oneof(
        { weight: 3, arbitrary: plausible(route.querystring, overrides).map(serializeQuery) },
        { weight: 2, arbitrary: hostileBody(route.querystring, overrides).map(serializeQuery) },
      )
    : fc.constant('');
  return fc
    .tuple(fromSchema, fc.option(fc.oneof(oddQueries, oddQueryValues), { freq: 3 }))
    .map(([query, odd]) => [query, odd].filter(Boolean).join('&'));
}

/** Header values a client can send (printable Latin-1: Node refuses control characters in headers). */
const headerText = fc
  .string({ unit: 'binary-ascii', maxLength: 300 })
  .map((v) => v.replace(/[^\x20-\x7e\x80-\xff]/g, ''));

const oddHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    'user-agent': fc.oneof(
      headerText,
      fc.constant('A'.repeat(8_000)),
      fc.constant("Mozilla'); DROP TABLE x;--"),
    ),
    cookie: fc.oneof(
      fc.constantFrom(
        'vf_session=%ZZ',
        'vf_csrf=; vf_session=',
        'vf_session="\\"',
        '__Host-vf_session=x',
        '=;=;',
      ),
      headerText.map((v) => `vf_session=${v.replace(/[;,]/g, '')}`),
    ),
    'accept-language': headerText,
    'x-forwarded-for': fc.constantFrom('1.2.3.4', 'not-an-ip', '::ffff:10.0.0.1, 999.1.1.1', ''),
    'x-csrftoken': fc.constantFrom('', 'null', '%00', 'A'.repeat(5_000)),
  },
  { requiredKeys: [] },
);

function requestOf(route: RouteInfo): fc.Arbitrary<FuzzRequest> {
  // Ids that exist most of the time, so requests get past the id and tenancy checks.
  const id = fc.oneof(
    { weight: 4, arbitrary: fc.constant(world.accountId) },
    { weight: 1, arbitrary: hostileValue },
  );
  // Values that exist or parse, half of the time, so that requests get past the first checks of the services.
  const sometimes =
    (...values: unknown[]) =>
    (fallback: fc.Arbitrary<unknown>) =>
      fc.oneof(fc.constantFrom(...values), fallback);
  const overrides: Overrides = {
    account: id,
    accountId: id,
    email: sometimes(world.owner.email, world.member.email, 'nobody@example.com')(fc.emailAddress()),
    cellPhone: sometimes('2015550123', '(415) 555-0100', '+44 20 7183 8750', '+1 201 555 0199')(hostileValue),
    code: sometimes('123456', '000000', ' 123456 ')(hostileValue),
    uidb64: sometimes(Buffer.from(String(world.owner.userId)).toString('base64url'), 'MQ')(hostileValue),
  };
  return fc
    .record({
      caller: fc.constantFrom<Caller>('anonymous', 'owner', 'member', 'apiKey'),
      // Mostly with the token, so requests reach validation; without it, unsafe calls must answer 403.
      csrf: route.unsafe
        ? fc.oneof({ weight: 6, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) })
        : fc.constant(true),
      path: pathOf(route),
      query: queryOf(route, overrides),
      body: route.unsafe ? bodyOf(route, overrides) : fc.constant({}),
      extraHeaders: fc.option(oddHeaders, { freq: 3, nil: {} }),
    })
    .map(({ caller, csrf, path, query, body, extraHeaders }) => ({
      caller,
      csrf,
      extraHeaders,
      url: query ? `${path}?${query}` : path,
      ...body,
    }));
}

async function send(route: RouteInfo, request: FuzzRequest): Promise<LightMyRequestResponse> {
  const client = { anonymous, owner: world.owner.c, member: world.member.c, apiKey: anonymous }[
    request.caller
  ];
  const headers: Record<string, string> = { ...request.extraHeaders };
  if (request.caller === 'apiKey') headers.authorization = `Bearer ${world.apiKeySecret}`;
  if (client.cookies.size > 0) {
    headers.cookie = [client.cookieHeader(), request.extraHeaders.cookie].filter(Boolean).join('; ');
  }
  if (request.csrf && client.csrfToken) headers['x-csrftoken'] = client.csrfToken;
  if (request.contentType) headers['content-type'] = request.contentType;
  ipCounter += 1;
  return t.app.inject({
    method: route.method as 'GET',
    url: request.url,
    headers,
    // A new address each time: the per-IP limits would otherwise turn the later runs into 429s.
    remoteAddress: `10.67.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`,
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
  });
}

/** Long strings cut to their start and length, so a failure report stays readable. */
function clip(value: string | Buffer | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = value.toString();
  return text.length > 200 && !process.env.FUZZ_FULL ? `${text.slice(0, 200)}… (${text.length} chars)` : text;
}

function describeRequest(route: RouteInfo, request: FuzzRequest): string {
  const extraHeaders = Object.fromEntries(Object.entries(request.extraHeaders).map(([k, v]) => [k, clip(v)]));
  return JSON.stringify({
    ...request,
    extraHeaders,
    method: route.method,
    url: clip(request.url),
    payload: clip(request.payload),
  });
}

const routes = () => {
  // A stable sort: the app's order otherwise.
  return routeInventory(t.app).sort((a, b) => lastness(a) - lastness(b));
};

describe('route inventory', () => {
  it('every unsafe route has its body in its schema or is classified here', () => {
    const unclassified = routeInventory(t.app)
      .filter((r) => r.unsafe && !r.body && !(r.key in handParsedBodies))
      .map((r) => r.key);
    expect(unclassified).toEqual([]);
    const stale = Object.keys(handParsedBodies).filter(
      (key) => !routeInventory(t.app).some((r) => r.key === key),
    );
    expect(stale).toEqual([]);
  });

  it('every path parameter has an existing object to point at', () => {
    const missing = routeInventory(t.app).flatMap((r) =>
      r.paramNames
        .filter((name) => worldParam(world, r, name) === undefined)
        .map((name) => `${r.key} :${name}`),
    );
    expect(missing).toEqual([]);
  });
});

/** The pages the SPA plugin serves for any other GET: token links and invitation pages parse their path and query. */
const pagePaths = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(
        'verify-email/confirm',
        'reset-password/confirm',
        'change-email/confirm',
        'change-email/cancel',
      ),
      fc.oneof(hostileSegments, fc.constantFrom('MQ', 'MTIzNDU2Nzg5MDEyMw', 'LTE')),
      fc.oneof(hostileSegments, fc.constantFrom('abc-def', `${'z'.repeat(10)}-${'A'.repeat(64)}`, '-')),
    )
    .map(([link, uid, token]) => `/auth/${link}/${uid}/${token}/`),
  fc
    .tuple(
      fc.constantFrom('/follow-invitation/', '/auth/signup/from-invitation', '/auth/login/from-invitation/'),
      fc.oneof(
        oddQueries,
        hostileSegments.map((key) => `key=${key}`),
      ),
    )
    .map(([path, query]) => `${path}?${query}`),
  fc.tuple(hostileSegments, oddQueries).map(([id, query]) => `/f/${id}?${query}`),
  fc.array(hostileSegments, { minLength: 1, maxLength: 4 }).map((segments) => `/${segments.join('/')}`),
);

// Before the routes' fuzz, whose last route (logout) ends the callers' sessions.
describe('fuzz: pages', () => {
  it('token links, invitation pages, public pages and any other path: never a 5xx', async () => {
    const details = await fc.check(
      fc.asyncProperty(pagePaths, fc.constantFrom<Caller>('anonymous', 'owner'), async (url, caller) => {
        const client = caller === 'owner' ? world.owner.c : anonymous;
        const response = await t.app.inject({
          method: 'GET',
          url,
          headers: { cookie: client.cookieHeader() },
        });
        const violation = errorContractViolation(response);
        if (violation) throw new Error(`${violation}\n    GET ${clip(url)}`);
      }),
      { seed: SEED, numRuns: RUNS * 4, endOnFailure: true },
    );
    const reason = details.errorInstance instanceof Error ? details.errorInstance.message : '';
    expect(details.failed, `seed ${SEED}: ${reason}`).toBe(false);
  });
});

/**
 * Issue #33 item 6: classes of input that once gave 500s, sent to EVERY field of their kind of every route, not left
 * to the random draw: a lone surrogate in each string of each JSON body, and each extreme year (0000, 9999 moved over
 * the edge by an offset, 10000, negative) in each date of each body and query. A new route or field meets them at
 * once. Before the routes' fuzz (whose last route, logout, ends the callers' sessions).
 */
describe('input classes: every field of its kind', () => {
  type Probe = { route: RouteInfo; url: string; payload?: string; what: string };

  /**
   * Bodies the route accepts as far as a generator can tell: the required fields only (values that exist where an id
   * is asked for), so that the one field under test is what the route meets. Two, for the values to vary.
   */
  function baseSamples(schema: z.ZodType, seed: number): unknown[] {
    const overrides: Overrides = {
      account: fc.constant(world.accountId),
      accountId: fc.constant(world.accountId),
      formId: fc.constant(world.formId),
      cellPhone: fc.constant('2015550123'),
      to: fc.constant('+12015550123'),
      method: fc.constant('sms'),
      channel: fc.constant('sms'),
      code: fc.constant('123456'),
    };
    const required = new Set(
      schema instanceof z.ZodObject
        ? Object.entries(schema.shape)
            .filter(([, value]) => value instanceof z.ZodType && value._zod.optin !== 'optional')
            .map(([key]) => key)
        : [],
    );
    return fc
      .sample(plausible(schema, overrides), { seed, numRuns: 2 })
      .map((sample) =>
        isRecord(sample) && schema instanceof z.ZodObject
          ? Object.fromEntries(Object.entries(sample).filter(([key]) => required.has(key)))
          : sample,
      );
  }

  function pathFor(route: RouteInfo): string {
    return fillPath(
      route.url,
      Object.fromEntries(route.paramNames.map((name) => [name, String(worldParam(world, route, name) ?? 1)])),
    );
  }

  function probes(): Probe[] {
    const found: Probe[] = [];
    let seed = SEED;
    for (const route of routes().filter((r) => lastness(r) === 0)) {
      const path = pathFor(route);
      const declared = route.body ?? handParsedBodies[route.key];
      const body = declared instanceof z.ZodType ? declared : undefined;
      seed += 1;
      if (body) {
        const bases = baseSamples(body, seed);
        for (const [kind, values] of [
          ['string', loneSurrogateValues],
          ['date', extremeDateValues],
        ] as const) {
          for (const field of fieldPaths(body, kind)) {
            for (const [i, value] of values.entries()) {
              const base = bases[i % bases.length];
              const payload = JSON.stringify(withField(base, field, value));
              found.push({ route, url: path, payload, what: `${field.join('.')}=${JSON.stringify(value)}` });
            }
          }
        }
      }
      if (route.querystring) {
        // Query fields are optional: the date alone, so nothing else in the query is refused first.
        for (const field of fieldPaths(route.querystring, 'date')) {
          for (const value of extremeDateValues) {
            const query = serializeQuery(withField({ account: world.accountId }, field, value));
            found.push({ route, url: `${path}?${query}`, what: `?${field.join('.')}=${value}` });
          }
        }
      }
    }
    return found;
  }

  it('a lone surrogate in any string, an extreme year in any date: never a 5xx', {
    timeout: 300_000,
  }, async () => {
    const all = probes();
    // The classes reach the routes that once failed: bodies with strings, API v1's and the session API's dates.
    const keys = new Set(all.map((p) => p.route.key));
    for (const key of [
      'POST /api/public/verify-forms/:publicId/send-code',
      'POST /api/v1/verifications',
      'GET /api/v1/verifications',
      'GET /api/v1/events',
      'GET /api/verifications',
      // Issue #35's bodies: a revocation's note and words, a verdict's questions.
      'POST /api/v1/revocations',
      'POST /api/v1/contactability',
      'POST /api/revocations',
      'POST /api/contactability',
      'POST /api/public/verify-forms/:publicId/revocations',
    ]) {
      expect(keys, key).toContain(key);
    }
    const failures: string[] = [];
    for (const probe of all) {
      const caller: Caller = probe.route.url.startsWith('/api/v1') ? 'apiKey' : 'owner';
      const response = await send(probe.route, {
        caller,
        csrf: true,
        extraHeaders: {},
        url: probe.url,
        ...(probe.payload !== undefined ? { payload: probe.payload, contentType: 'application/json' } : {}),
      });
      const violation = errorContractViolation(response);
      if (violation) failures.push(`${probe.route.key} ${probe.what}: ${violation.slice(0, 300)}`);
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });
});

describe('fuzz: never a 5xx, always the spec error format', () => {
  // One property per route, with its own seed; every route runs even when one fails, and all failures are listed.
  it('every route, logged out, as an owner and as a member', { timeout: 300_000 }, async () => {
    const failures: string[] = [];
    const started = Date.now();
    let index = 0;
    for (const route of routes()) {
      index += 1;
      const seed = SEED + index;
      const statuses = new Map<number, number>();
      const details = await fc.check(
        fc.asyncProperty(requestOf(route), async (request) => {
          const response = await send(route, request);
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          const violation = errorContractViolation(response);
          if (violation) throw new Error(`${violation}\n    request: ${describeRequest(route, request)}`);
        }),
        // No shrinking: hostile values are big, and the request is printed whole enough to replay.
        { seed, numRuns: RUNS * 2, endOnFailure: true },
      );
      if (process.env.FUZZ_VERBOSE) {
        const counts = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
        console.log(`${route.key}: ${counts.join(' ')}`);
      }
      if (details.failed) {
        const reason =
          details.errorInstance instanceof Error
            ? details.errorInstance.message
            : String(details.errorInstance);
        failures.push(
          `${route.key} (seed ${seed}, path ${details.counterexamplePath}): ${reason.slice(0, 1_500)}`,
        );
      }
    }
    if (process.env.FUZZ_VERBOSE) console.log(`fuzzed ${index} routes in ${Date.now() - started} ms`);
    expect(failures, failures.join('\n\n')).toEqual([]);
  });
});

describe('what the fuzzer and the probes around it found (regressions)', () => {
  const notFound = { detail: 'Not found.', MainCode_: 'not_found' };

  it('a path with broken percent-encoding, or a parameter over the router’s length limit, is a 404 in the spec format', async () => {
    for (const url of [
      '/api/users/%ZZ/check-delete',
      '/api/verify-forms/%E0%A4%A',
      '/api/public/verify-forms/%uD800',
      `/api/verify-forms/${'9'.repeat(150)}`,
      `/media/${'a'.repeat(150)}.webp`,
    ]) {
      const response = await world.owner.c.request({
        method: url.includes('check-delete') ? 'PATCH' : 'GET',
        url,
      });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual(notFound);
    }
  });

  it('an account id past the 32-bit column answers 404 like an unknown account, in a query or a body', async () => {
    const { c } = await newOwner(t.app);
    for (const url of [
      '/api/verify-forms?account=2147483648',
      '/api/verify-forms/categories?account=2147483648',
      '/api/memberships?accountId=2147483648',
      '/api/invitations?accountId=2147483648',
      '/api/test-phone-numbers?account=9007199254740991',
      '/api/verifications?account=2147483648',
      '/api/verifications/report?account=2147483648',
      '/api/verifications/export-csv?account=2147483648',
    ]) {
      const response = await c.get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual(notFound);
    }
    const form = await c.post('/api/verify-forms', { name: 'x', account: 2 ** 31 });
    expect(form.statusCode).toBe(404);
    const invitation = await c.post('/api/invitations', {
      accountId: 2 ** 40,
      email: 'a@example.com',
      role: 'member',
    });
    expect(invitation.statusCode).toBe(404);
  });

  it('a lone surrogate is a 400 on its field; a date-time beyond the years 0001–9999 (UTC) a 400 on API v1 (issue #33 item 6)', async () => {
    const surrogate = { MainCode_: 'validation_error' };
    const message = 'Unpaired surrogate characters are not allowed.';
    // Callers of their own: the routes' fuzz ends with the world owner's logout, and spends the limits of its key
    // and its visitors' address.
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const visitor = new TestClient(t.app, '10.66.33.6');
    await visitor.fetchCsrf();
    const sendCode = await visitor.post(`/api/public/verify-forms/${form.publicId}/send-code`, {
      cellPhone: '2015550123',
      method: 'sms',
      externalRefId: 'ref\uD800',
    });
    expect(sendCode.statusCode).toBe(400);
    expect(sendCode.json()).toEqual({ externalRefId: [message], ...surrogate });
    const verification = await insertVerification(t, form);
    const revoke = await owner.c.post(
      `/api/verifications/${verification.id}/certificate/revoke?account=${owner.accountId}`,
      { reason: 'mistake \uDFFF' },
    );
    expect(revoke.statusCode).toBe(400);
    expect(revoke.json()).toEqual({ reason: [message], ...surrogate });
    expect(nullCharacterPath({ a: [{ b: 'x\uDBFF' }] })).toEqual(['a', '0', 'b']);
    expect(nullCharacterPath({ 'k\uD800': 1 })).toEqual([]);
    expect(nullCharacterPath({ a: 'paired \uD83D\uDE00 is fine' })).toBeNull();

    const key = await newApiKey(owner, ['verifications:write', 'verifications:read', 'events:read']);
    const bearer = { authorization: `Bearer ${key.key}` };
    const start = await t.app.inject({
      method: 'POST',
      url: '/api/v1/verifications',
      headers: { ...bearer, 'content-type': 'application/json' },
      payload: JSON.stringify({ formId: form.id, to: '+12015550123', externalRefId: 'lead-\uD800' }),
    });
    expect(start.statusCode).toBe(400);
    expect(start.json()).toMatchObject({
      code: 'invalid_request',
      errors: [{ pointer: '/externalRefId', detail: message }],
    });
    for (const [path, value] of [
      ['/api/v1/verifications', '0000-01-01T00:00:00Z'],
      ['/api/v1/verifications', '9999-12-31T23:59:59-14:00'],
      ['/api/v1/events', '0001-01-01T00:00:00%2B14:00'],
    ] as const) {
      const response = await t.app.inject({
        method: 'GET',
        url: `${path}?created[lt]=${value}`,
        headers: bearer,
      });
      expect(response.statusCode, `${path} ${value}`).toBe(400);
      expect(response.json(), `${path} ${value}`).toMatchObject({
        code: 'invalid_request',
        errors: [{ pointer: '/created[lt]', detail: 'Dates must fall within the years 0001 to 9999 (UTC).' }],
      });
    }
    const edges = await t.app.inject({
      method: 'GET',
      url: '/api/v1/verifications?created[gte]=0001-01-01T00:00:00Z&created[lt]=9999-12-31T23:59:59.999Z',
      headers: bearer,
    });
    expect(edges.statusCode, edges.body).toBe(200);
  });

  it('a NUL character in a JSON body or a query string is a 400 on its field; in a path id a 404; nothing stored', async () => {
    const owner = await newOwner(t.app);
    const { c } = owner;
    const nul = { MainCode_: 'validation_error' };
    const message = ['Null characters are not allowed.'];
    const account = await c.post('/api/accounts', { displayName: 'a\u0000b' });
    expect(account.statusCode).toBe(400);
    expect(account.json()).toEqual({ displayName: message, ...nul });
    const form = await createPublicForm(owner);
    const rename = await c.patch(`/api/verify-forms/${form.id}`, { name: 'x\u0000' });
    expect(rename.json()).toEqual({ name: message, ...nul });
    expect((await c.get(`/api/verify-forms/${form.id}`)).json().name).toBe(form.name);
    for (const [url, field] of [
      [`/api/verify-forms?account=${owner.accountId}&q=a%00`, 'q'],
      [`/api/verifications?account=${owner.accountId}&q=%00`, 'q'],
      [
        `/api/verifications/report?account=${owner.accountId}&verifyFormCategory__in=%00`,
        'verifyFormCategory__in.0',
      ],
      [
        `/api/verifications/export-csv?account=${owner.accountId}&verifyFormCategory__in=%00`,
        'verifyFormCategory__in.0',
      ],
    ] as const) {
      const response = await c.get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ [field]: message, ...nul });
    }
    expect((await anonymous.post('/api/public/attempts/%00/check', { code: '123456' })).statusCode).toBe(404);
    // A query the route does not read is ignored, NUL or not: the public page still opens.
    expect((await anonymous.get(`/f/${form.publicId}?ref=a%00b&x=%00`)).statusCode).toBe(200);
    expect((await anonymous.get(`/api/public/verify-forms/${form.publicId}?x=%00`)).statusCode).toBe(200);
    // A stray `MainCode_` holding one, in a body its handler reads whole: a non-field error (a field of that name would
    // lose its message to the code).
    const stray = await anonymous.post(`/api/public/attempts/${world.attemptId}/check`, {
      code: '000000',
      MainCode_: 'x\u0000y',
    });
    expect(stray.json()).toEqual({ nonFieldErrors: message, ...nul });
    expect(nullCharacterPath({ a: [{ b: 'x\u0000' }] })).toEqual(['a', '0', 'b']);
    expect(nullCharacterPath({ 'k\u0000': 1 })).toEqual([]);
    expect(nullCharacterPath({ a: ['fine', 1, null] })).toBeNull();
    const consumer = await anonymous.post(`/api/public/verify-forms/${world.publicId}/send-code`, {
      cellPhone: '2015550123',
      method: 'sms',
      externalRefId: 'ref\u0000',
    });
    expect(consumer.json()).toEqual({ externalRefId: ['Null characters are not allowed.'], ...nul });
  });
});
