import type { AccountDeclaration, AccountSource, Capability } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import {
  type AccountContext,
  type Actor,
  actorCan,
  findMembership,
  memberOf,
  type RequestOrigin,
} from './account-context.ts';
import { accountOfObject, parsePathId } from './account-objects.ts';
import { requireVerifiedUser } from './auth-guard.ts';
import { type ApiKeyAuthenticator, type Caller, callerOf, noApiKeys } from './caller.ts';

/**
 * Tenancy: the ONE way a request reaches an account's data (docs/roles.md, ADR 15).
 *
 * A route DECLARES where its account comes from and what it needs, in its config:
 *
 *     r.get('/api/verify-forms', { config: { account: { from: 'query.account', can: 'readForms' } }, … },
 *       (request) => verifyForms.list(accountContext(request), request.query));
 *
 * and the hook this plugin adds to every such route resolves it before the handler runs; the handler takes the
 * result with `accountContext(request)`. The answers, in order: 401 without a caller (no session, or a bearer token
 * that is no key), 403 `{detail: "Verify your e-mail address first."}` for a person whose address is unverified
 * (before any lookup; auth-guard's requireVerifiedUser), 404 `{detail: "Not found."}` for a malformed or unknown id
 * and for an account that is not the caller's (alike, so ids cannot be probed), 403 for a missing capability.
 *
 * When: an account or object in the PATH is resolved in preValidation, before the body is read or validated (a
 * stranger's id is a 404 whatever the body). One in the QUERY or BODY is read after validation (a malformed
 * `?account=abc` is zod's 400), in preHandler; its route gets the 401 in preValidation, as auth-guard's
 * `authenticated` gave it.
 */

/** Declared in contracts (endpoints.ts), where each session-API route says where its account comes from. */
export type { AccountDeclaration, AccountSource };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Where an account-scoped route's account comes from (plugins/tenancy.ts); read with accountContext(). */
    account?: AccountDeclaration;
  }
  interface FastifyInstance {
    /** `METHOD /url` → the route's declaration, for the route inventory's completeness test. */
    accountDeclarations: ReadonlyMap<string, AccountDeclaration>;
  }
}

const contexts = new WeakMap<FastifyRequest, AccountContext>();

/**
 * Whether the account requires a second factor of its members (issue #38 item 3, `accounts.require_mfa`): from the
 * accounts the session query brought, the database only for one joined during this request.
 */
async function requiresSecondFactor(request: FastifyRequest, accountId: number): Promise<boolean> {
  const loaded = request.membershipAccounts?.get(accountId);
  if (loaded) return loaded.requireMfa;
  const { accounts } = schema;
  const [row] = await request.server.services.db
    .select({ requireMfa: accounts.requireMfa })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  return row?.requireMfa ?? false;
}

/**
 * The one maker of an AccountContext: the account is the caller's, or 404. A member without a second factor of an
 * account that requires one is stopped here, on every account call (403 `mfa_setup_required`, after the 404 so ids
 * cannot be probed); the enrolment routes are the person's own (`signedIn`), not the account's, so they stay open.
 */
async function contextFor(
  request: FastifyRequest,
  caller: Caller,
  accountId: number,
): Promise<AccountContext> {
  let actor: Actor;
  if (caller.type === 'session') {
    // The memberships the session query brought (ADR 11); the database only for one made during this request or a
    // non-member (one query).
    const membership =
      request.memberships?.find((m) => m.accountId === accountId) ??
      (await findMembership(request.server.services.db, caller.user.id, accountId));
    if (!membership) throw new AppError('not_found');
    if (!caller.user.mfaEnrolledAt && (await requiresSecondFactor(request, accountId))) {
      throw new AppError('mfa_setup_required');
    }
    actor = { type: 'member', user: caller.user, membership };
  } else {
    if (caller.key.accountId !== accountId) throw new AppError('not_found');
    const { keyId, prefix, mode, scopes } = caller.key;
    actor = { type: 'api_key', keyId, prefix, mode, scopes };
  }
  return {
    accountId,
    actor,
    origin: originOf(request),
    can: (capability: Capability) => actorCan(actor, capability),
  } as AccountContext;
}

/** Any one of the capabilities (API v1 reads a verification with a key that may write them or read them). */
function assertCanAny(ctx: AccountContext, capabilities: readonly Capability[]): void {
  if (!capabilities.some((capability) => ctx.can(capability))) throw new AppError('permission_denied');
}

/** Enough for any real browser's User-Agent; a longer one is cut, not refused. */
const USER_AGENT_MAX = 512;

/** The request's address (TRUST_PROXY honoured), agent and id, for the audit log. */
export function originOf(request: FastifyRequest): RequestOrigin {
  const userAgent = request.headers['user-agent'];
  return {
    ip: request.ip,
    userAgent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null,
    requestId: request.id,
  };
}

async function requireCaller(request: FastifyRequest): Promise<Caller> {
  const caller = await callerOf(request);
  if (!caller) throw new AppError('not_authenticated');
  // Every account action of a person needs a verified address first (SPEC §4's gate; auth-guard).
  if (caller.type === 'session') requireVerifiedUser(request);
  return caller;
}

function declarationOf(request: FastifyRequest): AccountDeclaration {
  const declaration = request.routeOptions.config.account;
  if (!declaration) throw new Error(`${request.routeOptions.url}: no account declared on this route`);
  return declaration;
}

const valueAt = (container: unknown, key: string): unknown =>
  typeof container === 'object' && container !== null ? Reflect.get(container, key) : undefined;

/** Where each named source holds the raw account id (an object's id for `pathObject`: the path's `:id`). */
const rawIdAt: Record<
  Exclude<Extract<AccountSource, string>, 'apiKey'>,
  (request: FastifyRequest) => unknown
> = {
  'query.account': (request) => valueAt(request.query, 'account'),
  'query.accountId': (request) => valueAt(request.query, 'accountId'),
  'body.account': (request) => valueAt(request.body, 'account'),
  'body.accountId': (request) => valueAt(request.body, 'accountId'),
  'path.account': (request) => valueAt(request.params, 'id'),
};

const rawIdOf = (request: FastifyRequest, from: Exclude<AccountSource, 'apiKey'>): unknown =>
  typeof from === 'string' ? rawIdAt[from](request) : valueAt(request.params, 'id');

/** The caller and the account it names, per the route's declared source. */
async function callerAndAccount(
  request: FastifyRequest,
  declaration: AccountDeclaration,
): Promise<{ caller: Caller; accountId: number } | null> {
  const { from } = declaration;
  if (from === 'apiKey') {
    const caller = await callerOf(request);
    if (caller?.type !== 'api_key') throw new AppError('not_authenticated');
    return { caller, accountId: caller.key.accountId };
  }
  const raw = rawIdOf(request, from);
  if (declaration.optional && raw === undefined) return null;
  const caller = await requireCaller(request);
  const accountId =
    typeof from === 'string'
      ? parsePathId(raw)
      : await accountOfObject(request.server.services.db, from.pathObject, raw);
  return { caller, accountId };
}

async function resolve(request: FastifyRequest): Promise<void> {
  const declaration = declarationOf(request);
  const resolved = await callerAndAccount(request, declaration);
  if (!resolved) return;
  const ctx = await contextFor(request, resolved.caller, resolved.accountId);
  // The session API is the dashboard's, for people (ADR 18's "one door per audience"); a key's door is /api/v1, where
  // its mode decides what it reaches (issue #33, ADR 29). Before, a `vf_test_` key with `verifications:read` read
  // the live activity log, its details, certificates and CSV export here.
  if (declaration.from !== 'apiKey' && ctx.actor.type === 'api_key') throw new AppError('permission_denied');
  if (declaration.can) assertCanAny(ctx, [declaration.can].flat());
  else memberOf(ctx);
  contexts.set(request, ctx);
}

/** Query and body sources: the 401 before validation (their account is resolved after it). */
async function callerBeforeValidation(request: FastifyRequest): Promise<void> {
  if (!(await callerOf(request))) throw new AppError('not_authenticated');
}

async function checkAlsoNamed(request: FastifyRequest): Promise<void> {
  const named = valueAt(request.query, 'account');
  if (named !== undefined && named !== contexts.get(request)?.accountId) throw new AppError('not_found');
}

/** Resolved before validation: the path's ids, and the key's own account (nothing in the request names it). */
const isPathSource = (from: AccountSource) =>
  typeof from !== 'string' || from === 'path.account' || from === 'apiKey';

type Hook = (request: FastifyRequest) => Promise<void>;
const hooksOf = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

export function registerTenancy(app: FastifyInstance, options: { apiKeys?: ApiKeyAuthenticator } = {}): void {
  app.decorate('apiKeyAuthenticator', options.apiKeys ?? noApiKeys);
  const declarations = new Map<string, AccountDeclaration>();
  app.decorate('accountDeclarations', declarations);
  // Fastify copies a GET's options for its HEAD twin before this runs and runs it again for the twin: the hooks are
  // set as new arrays, never pushed into the route's own.
  app.addHook('onRoute', (route) => {
    const declaration = route.config?.account;
    if (!declaration) return;
    for (const method of [route.method].flat()) declarations.set(`${method} ${route.url}`, declaration);
    const inPath = isPathSource(declaration.from);
    const preValidation: Hook[] = [inPath ? resolve : callerBeforeValidation];
    const preHandler: Hook[] = [
      ...(inPath ? [] : [resolve]),
      ...(declaration.alsoNamedBy ? [checkAlsoNamed] : []),
    ];
    route.preValidation = [...preValidation, ...hooksOf(route.preValidation)];
    route.preHandler = [...hooksOf(route.preHandler), ...preHandler];
  });
}

/** The context the route's declaration resolved; a route that declared none is a programming error (500). */
export function accountContext(request: FastifyRequest): AccountContext {
  const ctx = optionalAccountContext(request);
  if (!ctx) throw new Error(`${request.routeOptions.url}: no account context (declared optional?)`);
  return ctx;
}

/** For a route whose declaration is `optional`: null when the request named no account. */
export function optionalAccountContext(request: FastifyRequest): AccountContext | null {
  declarationOf(request);
  return contexts.get(request) ?? null;
}
