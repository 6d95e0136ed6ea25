import fc from 'fast-check';
import { z } from 'zod';

/**
 * fast-check arbitraries derived from the zod contracts (zod 4), for the hostile-input fuzz suite. The maintained
 * zod→fast-check bridge (zod-fast-check) supports zod 3 and fast-check 3 only, so this is a small walker over the
 * zod types our contracts use: object, string (min/max, regex, e-mail), number (int, bounds, coerce), boolean, enum,
 * literal, array, union, optional, nullable, default, catch, pipe, transform. An unknown type yields any JSON value:
 * good enough for a fuzzer, whose inputs need not be valid, only plausible.
 *
 * `plausible(schema)` aims at inputs the schema accepts (so a request gets past validation into the service);
 * `hostileValue` and `hostileBody(schema)` are what an attacker sends instead.
 */

export type Overrides = Readonly<Record<string, fc.Arbitrary<unknown>>>;

/** Values of JSON that are not strings: wrong types for any field. */
const wrongTypes: fc.Arbitrary<unknown>[] = [
  fc.constant(null),
  fc.boolean(),
  fc.constantFrom(0, -1, 1.5, -0, 2 ** 31, 2 ** 53 + 2, 1e308, -1e308, Number.MIN_VALUE),
  fc.constant([]),
  fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }),
  fc.constant({}),
  fc.constantFrom({ $ne: null }, { $gt: '' }, { toString: 'x' }, { length: 1 }),
];

/** Strings that break naive code: control characters, broken UTF-16, bidi overrides, injections, paths. */
export const nastyStrings: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  '\uD800',
  'x\uDFFFy',
  '\u202Eevil\u202C',
  '\u200B\u200D\uFEFF',
  'Z\u0351\u0358\u036A\u0353',
  '👩‍👩‍👧‍👦🇺🇳',
  '\r\n\t\b\f\v',
  "'; DROP TABLE users; --",
  '" OR 1=1 --',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  // A Log4Shell lookup, literally (not a template).
  '$' + '{jndi:ldap://x}',
  '{{7*7}}',
  '%s%n%x',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x10',
  '__proto__',
  'constructor',
  'true',
  'null',
  'undefined',
];

export const TEN_K = 'ä'.repeat(10_000);
/** Over Fastify's 1 MiB JSON body limit once quoted: the 413 path. */
export const ONE_MB = 'x'.repeat(1_048_576);

const hostileStrings: fc.Arbitrary<string>[] = [
  fc.constantFrom(...nastyStrings),
  fc.constantFrom(TEN_K, `${'a'.repeat(9_990)}@example.com`, ONE_MB),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
];

/** Anything an attacker might put in one field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.oneof(...hostileStrings) },
  { weight: 3, arbitrary: fc.oneof(...wrongTypes) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  // Deep nesting: recursive code and JSON parsers.
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 2_000 }).map(nested) },
);

function nested(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

/** Field names an attacker adds: prototype pollution, our own error keys, and random ones. */
const extraKeys = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'nonFieldErrors',
    'MainCode_',
    'id',
    'isStaff',
    'role',
  ),
  fc.string({ minLength: 1, maxLength: 20 }),
);

function stringPattern(schema: z.ZodString): RegExp | undefined {
  for (const check of schema.def.checks ?? []) {
    const def: unknown = check._zod.def;
    if (typeof def === 'object' && def !== null && 'pattern' in def && def.pattern instanceof RegExp) {
      return def.pattern;
    }
  }
  return undefined;
}

function plausibleString(schema: z.ZodString): fc.Arbitrary<string> {
  if (schema.format === 'email') return fc.emailAddress().filter((e) => e.length <= 254);
  const pattern = stringPattern(schema);
  if (pattern) return fc.stringMatching(pattern);
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 60, Math.max(minLength, 60));
  return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ minLength, maxLength, unit: 'grapheme' }));
}

function plausibleNumber(schema: z.ZodNumber): fc.Arbitrary<number> {
  const min = Math.max(schema.minValue ?? -1_000_000, -1_000_000);
  const max = Math.min(schema.maxValue ?? 1_000_000, 1_000_000);
  if (schema.isInt) return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** Whether an object key may be left out (optional, or with a default or a catch). */
function optionalKey(schema: z.ZodType): boolean {
  return schema._zod.optin === 'optional';
}

/**
 * Values the schema (mostly) accepts. Refinements (`refine`, `superRefine`) are not solved: a fuzzer only needs most
 * requests to get through. `overrides` replace the arbitrary of an object key wherever it appears (ids of objects
 * that exist, so a request reaches the code behind the id check).
 */
export function plausible(schema: z.ZodType, overrides: Overrides = {}): fc.Arbitrary<unknown> {
  if (schema instanceof z.ZodObject) {
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    const required: string[] = [];
    for (const [key, value] of Object.entries(schema.shape)) {
      if (!(value instanceof z.ZodType)) continue;
      model[key] = overrides[key] ?? plausible(value, overrides);
      if (!optionalKey(value)) required.push(key);
    }
    return fc.record(model, { requiredKeys: required, noNullPrototype: true });
  }
  if (schema instanceof z.ZodString) return plausibleString(schema);
  if (schema instanceof z.ZodNumber) return plausibleNumber(schema);
  if (schema instanceof z.ZodBoolean) return fc.boolean();
  if (schema instanceof z.ZodEnum) return fc.constantFrom(...schema.options);
  if (schema instanceof z.ZodLiteral) return fc.constantFrom(...schema.values);
  if (schema instanceof z.ZodArray) {
    const element = schema.element;
    return element instanceof z.ZodType
      ? fc.array(plausible(element, overrides), { maxLength: 4 })
      : fc.constant([]);
  }
  if (schema instanceof z.ZodUnion) {
    const options = schema.options.filter((o): o is z.ZodType => o instanceof z.ZodType);
    return fc.oneof(...options.map((o) => plausible(o, overrides)));
  }
  // Wrapped types hold zod core types; the classic API (what the contracts build) is what this walker knows.
  const inner = (wrapped: unknown) =>
    wrapped instanceof z.ZodType ? plausible(wrapped, overrides) : fc.jsonValue({ maxDepth: 2 });
  if (schema instanceof z.ZodOptional) return fc.option(inner(schema.unwrap()), { nil: undefined });
  if (schema instanceof z.ZodNullable) return fc.option(inner(schema.unwrap()), { nil: null });
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodCatch) return inner(schema.def.innerType);
  if (schema instanceof z.ZodPipe) {
    // `z.string().trim().pipe(z.email())`: the output side says what the string must look like.
    const { in: input, out } = schema.def;
    if (input instanceof z.ZodString && out instanceof z.ZodString && out.format) return inner(out);
    return inner(input);
  }
  return fc.jsonValue({ maxDepth: 2 });
}

/** Every key of an object schema (after unwrapping), for mutations that drop or replace one. */
function objectKeys(schema: z.ZodType): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/**
 * A request body derived from the schema and then broken: one field replaced by a hostile value, a field removed,
 * extra fields added, or the whole body something else. Valid bodies are in the mix too (the happy path must not
 * 5xx either).
 */
export function hostileBody(schema: z.ZodType, overrides: Overrides = {}): fc.Arbitrary<unknown> {
  const valid = plausible(schema, overrides);
  const keys = objectKeys(schema);
  const mutations: fc.Arbitrary<unknown>[] = [
    valid,
    fc.oneof(hostileValue, fc.constantFrom('', 'null', [], 0)),
    fc
      .tuple(valid, extraKeys, hostileValue)
      .map(([body, key, value]) =>
        isRecord(body) ? Object.defineProperty({ ...body }, key, { value, enumerable: true }) : body,
      ),
  ];
  if (keys.length > 0) {
    mutations.push(
      fc
        .tuple(valid, fc.constantFrom(...keys), hostileValue)
        .map(([body, key, value]) => (isRecord(body) ? { ...body, [key]: value } : body)),
      fc.tuple(valid, fc.constantFrom(...keys)).map(([body, key]) => {
        if (!isRecord(body)) return body;
        const { [key]: _dropped, ...rest } = body;
        return rest;
      }),
      // A NUL or a lone surrogate inside an otherwise valid value: what databases and encoders choke on.
      fc
        .tuple(valid, fc.constantFrom(...keys), fc.constantFrom('\u0000', '\uD800', '\u202E'))
        .map(([body, key, bad]) =>
          isRecord(body) ? { ...body, [key]: `${asString(body[key])}${bad}` } : body,
        ),
      // Every field the wrong type at once.
      fc
        .array(hostileValue, { minLength: keys.length, maxLength: keys.length })
        .map((values) => Object.fromEntries(keys.map((k, i) => [k, values[i]]))),
    );
  }
  return fc.oneof(...mutations);
}

function asString(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? '');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---- Input classes (issue #33 item 6) ---------------------------------------------------------------------------

/**
 * Values of classes that once gave 500s, for every field of their kind (fuzz.test.ts sends each to each field of each
 * route, so a new route meets them at once): lone surrogates in any string (no UTF-8 encodes one; PostgreSQL,
 * encodeURIComponent and hashing refuse or mangle it), and years PostgreSQL or the calendar code cannot take in any
 * date (0000 exists for JavaScript but not for PostgreSQL; 10000 and negative years are valid ISO 8601 extended
 * years; an offset can move a date over the year's edge).
 */
export const loneSurrogateValues: readonly string[] = ['\uD800', 'ref-\uDFFF', 'a\uDBFFb\uDC00\uD800'];
export const extremeDateValues: readonly string[] = [
  '0000-01-01',
  '0000-12-31',
  '9999-12-31',
  '-0001-01-01',
  '0000-01-01T00:00:00Z',
  '0000-12-31T23:59:59.999Z',
  '0001-01-01T00:00:00+14:00',
  '9999-12-31T23:59:59-14:00',
  '9999-12-31T23:59:59.999Z',
  '-000001-01-01T00:00:00Z',
  '+010000-01-01T00:00:00Z',
];

/** The type under optional, nullable, default, catch and pipe (its input side). */
function unwrapped(schema: z.ZodType): z.ZodType {
  let current: unknown = schema;
  for (let i = 0; i < 10; i++) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) current = current.unwrap();
    else if (current instanceof z.ZodDefault || current instanceof z.ZodCatch)
      current = current.def.innerType;
    // `z.preprocess(…)` is a pipe from a transform: its output side is the schema.
    else if (current instanceof z.ZodPipe)
      current = current.def.in instanceof z.ZodTransform ? current.def.out : current.def.in;
    else break;
  }
  return current instanceof z.ZodType ? current : schema;
}

/** Whether a string schema holds a date: an ISO date or date-time format, or a pattern `2026-01-31` matches. */
function isDateString(schema: z.ZodType): boolean {
  // `z.iso.datetime()` and `z.email()` are string formats of their own classes, not ZodString.
  const format = 'format' in schema ? schema.format : undefined;
  if (format === 'datetime' || format === 'date') return true;
  const pattern = schema instanceof z.ZodString ? stringPattern(schema) : undefined;
  return pattern?.test('2026-01-31') ?? false;
}

/**
 * The paths of the fields of an object schema (nested objects and arrays of objects included) that hold strings
 * (`kind: 'string'`) or dates (`kind: 'date'`).
 */
export function fieldPaths(schema: z.ZodType, kind: 'string' | 'date', path: string[] = []): string[][] {
  const inner = unwrapped(schema);
  if (inner instanceof z.ZodObject) {
    return Object.entries(inner.shape).flatMap(([key, value]) =>
      value instanceof z.ZodType ? fieldPaths(value, kind, [...path, key]) : [],
    );
  }
  if (inner instanceof z.ZodArray && inner.element instanceof z.ZodType) {
    return fieldPaths(inner.element, kind, [...path, '0']);
  }
  if (inner instanceof z.ZodUnion) {
    const found = inner.options.flatMap((o) => (o instanceof z.ZodType ? fieldPaths(o, kind, path) : []));
    const unique = new Map(found.map((p) => [p.join('.'), p]));
    return [...unique.values()];
  }
  if (inner._zod.def.type === 'string' && path.length > 0) {
    return kind === 'string' || isDateString(inner) ? [path] : [];
  }
  return [];
}

/** A copy of `value` with `path` set to `field` (objects and arrays made along the way). */
export function withField(value: unknown, path: readonly string[], field: unknown): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return field;
  const container: Record<string, unknown> | unknown[] = Array.isArray(value)
    ? [...value]
    : isRecord(value)
      ? { ...value }
      : /^\d+$/.test(key)
        ? []
        : {};
  const current = Array.isArray(container) ? container[Number(key)] : container[key];
  const next = withField(current, rest, field);
  if (Array.isArray(container)) container[Number(key)] = next;
  else container[key] = next;
  return container;
}
