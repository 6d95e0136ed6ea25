import { apiProblemSchema, MAIN_CODE_KEY } from '@veriform/contracts';
import type { LightMyRequestResponse } from 'fastify';

/**
 * What every error answer must look like (SPEC §8, DESIGN §5): 400 `{<field>: [msg], nonFieldErrors: [msg],
 * MainCode_}`, any other 4xx/5xx `{detail, MainCode_?}` (API v1: problem details); and nothing from inside the server: no stack frames, SQL,
 * driver or framework error codes, file paths.
 */

/** Traces of internals. Matched against error bodies only: a 2xx may echo what the caller sent. */
const INTERNALS: readonly [string, RegExp][] = [
  ['a stack frame', /\bat [\w.<>[\] ]+ \(|\bat (file:\/\/|\/)\S+:\d+:\d+/],
  ['a file path', /(\/(home|work|usr|root|tmp|var|app|srv)\/|node_modules|[\w-]+\.(ts|js|mjs):\d+)/],
  [
    'SQL',
    /\b(select\s.+\sfrom|insert\s+into|update\s.+\sset|delete\s+from|relation "|syntax error at|violates \w+ constraint|duplicate key value|invalid byte sequence|invalid input syntax)\b/i,
  ],
  ['a driver or framework code', /\b(FST_[A-Z_]+|ERR_[A-Z_]+|SQLSTATE|PGlite|drizzle|ECONN\w+|ZodError)\b/],
  ['an error class', /\b(TypeError|RangeError|ReferenceError|SyntaxError|DrizzleQueryError)\b/],
];

function isStringArray(value: unknown): value is string[] {
  return (
    Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && v.length > 0)
  );
}

function internalsIn(body: string): string | null {
  for (const [what, pattern] of INTERNALS) {
    if (pattern.test(body)) return `${what} in the body: ${body.slice(0, 300)}`;
  }
  return null;
}

/**
 * An error answer's body as JSON, or why it breaks the contract before its shape is even looked at: internals in it,
 * or a body that is not the JSON its content type (`claimed`) says.
 */
function errorBodyOf(
  response: LightMyRequestResponse,
  claimed: string,
): { body: unknown; violation?: undefined } | { violation: string } {
  const internals = internalsIn(response.body);
  if (internals) return { violation: internals };
  try {
    return { body: JSON.parse(response.body) };
  } catch {
    return { violation: `a ${claimed} content type with a body that is not JSON` };
  }
}

/** API v1's errors: RFC 9457 problem details with a code of contracts' table, whose status is the answer's. */
function problemViolation(response: LightMyRequestResponse): string | null {
  const read = errorBodyOf(response, 'problem+json');
  if (read.violation !== undefined) return read.violation;
  const { body } = read;
  const problem = apiProblemSchema.strict().safeParse(body);
  if (!problem.success) return `a problem body that is not one: ${response.body.slice(0, 300)}`;
  if (problem.data.status !== response.statusCode) return `a problem whose status is not the answer's`;
  return null;
}

/** Why `response` breaks the error contract, or null when it does not. */
export function errorContractViolation(response: LightMyRequestResponse): string | null {
  const status = response.statusCode;
  if (status >= 500) return `status ${status}`;
  if (status < 400) return null;
  const contentType = String(response.headers['content-type'] ?? '');
  if (contentType.startsWith('application/problem+json')) return problemViolation(response);
  if (!contentType.startsWith('application/json')) {
    // The public page and the app's pages answer their 404s as pages, with the page's own data.
    if (status === 404 && contentType.startsWith('text/html')) return null;
    return `a ${status} answered as ${contentType || 'no content type'}`;
  }
  const read = errorBodyOf(response, 'JSON');
  if (read.violation !== undefined) return read.violation;
  const { body } = read;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return 'an error body that is not an object';
  const entries = Object.entries(body);
  if (status === 400) {
    let messages = 0;
    for (const [key, value] of entries) {
      if (key === MAIN_CODE_KEY) {
        if (typeof value !== 'string') return `${MAIN_CODE_KEY} is not a string`;
        continue;
      }
      if (!isStringArray(value)) return `400 field ${JSON.stringify(key)} is not a list of messages`;
      messages += value.length;
    }
    if (messages === 0) return 'a 400 without any message';
    return null;
  }
  for (const [key, value] of entries) {
    if (key === 'detail') {
      if (typeof value !== 'string' || value.length === 0) return 'detail is not a message';
    } else if (key === MAIN_CODE_KEY) {
      if (typeof value !== 'string') return `${MAIN_CODE_KEY} is not a string`;
    } else {
      return `a ${status} body with an unexpected key ${JSON.stringify(key)}`;
    }
  }
  if (!('detail' in body)) return `a ${status} body without detail`;
  return null;
}
