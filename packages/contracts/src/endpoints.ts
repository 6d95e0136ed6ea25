import { z } from 'zod';
import type { Capability } from './teams.ts';

/**
 * The session API's routes, each declared ONCE (issue #34 item 6): method, path, path parameters, query, body, the
 * success answer and who may call it. The server registers each route from its declaration
 * (apps/server/src/plugins/endpoints.ts), the web client calls it through the same object (`ApiClient.call`), and the
 * route inventory's test holds the app's routes to the catalog (`sessionEndpoints`), so a path, a schema or a
 * capability cannot differ between the server, the web app and the tenancy checks.
 *
 * API v1 (`/api/v1`) is not here: its contract is the OpenAPI document.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Account-scoped objects whose id in a path names their account (the server's account-objects.ts finds it). */
export type AccountScopedKind =
  | 'memberships'
  | 'invitations'
  | 'verifyForms'
  | 'verifications'
  | 'testPhoneNumbers'
  | 'apiKeys'
  | 'webhookEndpoints'
  | 'webhookEvents'
  | 'revocations'
  | 'privacyRequests'
  | 'legalHolds';

export type AccountSource =
  | 'query.account'
  | 'query.accountId'
  | 'body.account'
  | 'body.accountId'
  /** `/api/accounts/:id…`: the path id is the account. */
  | 'path.account'
  /** `/…/:id` of an account-scoped object: its row names the account. */
  | { readonly pathObject: AccountScopedKind }
  /** API v1: the account is the bearer key's own; a session (a browser's cookie) is no caller there (401). */
  | 'apiKey';

/** Where an account-scoped route's account comes from, and what the caller needs there (the server's tenancy.ts). */
export type AccountDeclaration = {
  readonly from: AccountSource;
  /**
   * Checked at once (403); a list means any one of them. Without it every member of the account passes (the service
   * checks further, e.g. leaving one's own membership) and no API key does: a key acts only through the capabilities
   * its scopes grant, and only on `from: 'apiKey'` routes (API v1); every other route answers a key 403.
   */
  readonly can?: Capability | readonly Capability[];
  /** The account may be left out: then the route has no context. */
  readonly optional?: true;
  /**
   * The query may name the account being looked at too (`?account=` of the page): the object must then be in that
   * one, else 404 (a link must not show one company's data inside another's pages). Checked after validation.
   */
  readonly alsoNamedBy?: 'query.account';
};

/**
 * Who may call a route:
 * - `{ account }`: a member of the account the declaration names, with its capability (404 for another account's);
 * - `self`: the signed-in person, on their own user (`/api/users/:id`, another id answers 404);
 * - `signedIn`: any signed-in person (their own memberships, invitations to them, their e-mail change);
 * - `public`: anyone (sign-in and sign-up, the hosted verification page, the certificate check).
 */
export type Access = { readonly account: AccountDeclaration } | 'self' | 'signedIn' | 'public';

/** `{ account: { from, can } }`: where the request names its account, and the capability the caller needs there. */
/* @__NO_SIDE_EFFECTS__ */
export function inAccount<const From extends AccountSource, const Can extends Capability>(
  from: From,
  can: Can,
): { readonly account: { readonly from: From; readonly can: Can } } {
  return { account: { from, can } };
}

/** The success answer: its status and the schema of its body (`null`: nothing the caller reads, e.g. a 204). */
export type EndpointResponse = { readonly status: 200 | 201 | 202 | 204; readonly body: z.ZodType | null };

/** 200 with this body (none the caller reads: a CSV, a PDF, a redirect). */
/* @__NO_SIDE_EFFECTS__ */
export function ok(): { readonly status: 200; readonly body: null };
export function ok<const Body extends z.ZodType>(body: Body): { readonly status: 200; readonly body: Body };
export function ok(body: z.ZodType | null = null): EndpointResponse {
  return { status: 200, body };
}

/** 201 with the object made. */
/* @__NO_SIDE_EFFECTS__ */
export function created<const Body extends z.ZodType>(
  body: Body,
): { readonly status: 201; readonly body: Body } {
  return { status: 201, body };
}

/** 202: accepted, done later (a delivery queued). */
/* @__NO_SIDE_EFFECTS__ */
export function accepted<const Body extends z.ZodType>(
  body: Body,
): { readonly status: 202; readonly body: Body } {
  return { status: 202, body };
}

/** 204, nothing in the body. */
export const noContent = { status: 204, body: null } as const;

/** What a declaration says besides its method and path. */
export type EndpointSpec = {
  readonly params?: z.ZodObject;
  readonly query?: z.ZodType;
  /** The JSON body's schema; `multipart` for uploads (the server reads the parts itself). */
  readonly body?: z.ZodType | 'multipart';
  /**
   * The body's schema is declared for callers but validated by the handler, not by the route: e.g. so that its
   * messages are in the form's language, which only the loaded form tells (the hosted verification page's calls).
   */
  readonly bodyCheckedBy?: 'handler';
  readonly response: EndpointResponse;
  readonly access: Access;
  /**
   * A sensitive call (issue #38 item 2): a person with a second factor must have proved it in this session within
   * STEP_UP_MAX_AGE_MS and since their latest enrolment, else 403 `step_up_required` (checked after the account is
   * resolved, so another account's id is still a 404). API keys are not asked.
   */
  readonly stepUp?: true;
};

export type Endpoint = EndpointSpec & {
  readonly method: HttpMethod;
  /** Fastify's pattern: `/api/api-keys/:id`. */
  readonly path: string;
};

/** `GET /api/api-keys/:id`: the method, a space, Fastify's path pattern. */
type Route = `${HttpMethod} /${string}`;
type MethodOf<R extends Route> = R extends `${infer Method extends HttpMethod} ${string}` ? Method : never;
type PathOf<R extends Route> = R extends `${HttpMethod} ${infer Path}` ? Path : never;

/**
 * Declares an endpoint: `endpoint('DELETE /api/api-keys/:id', { params, response: noContent, access })`. The literal
 * types (the path's parameters, the schemas) are kept for the server's handlers and the web client's calls.
 */
// Pure: a bundle that never calls an area's endpoints (the hosted page, the login page) leaves their declarations out.
/* @__NO_SIDE_EFFECTS__ */
export function endpoint<const R extends Route, const S extends EndpointSpec>(
  route: R,
  spec: S,
): S & { readonly method: MethodOf<R>; readonly path: PathOf<R> } {
  const space = route.indexOf(' ');
  // The template type above guarantees the shape; the runtime split follows it.
  const method = route.slice(0, space) as MethodOf<R>;
  const path = route.slice(space + 1) as PathOf<R>;
  return { ...spec, method, path };
}

/** `/api/x/:id/y/:name` → `'id' | 'name'`. */
export type PathParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The values a caller fills a path with. */
export type PathValues<Path extends string> = { readonly [Name in PathParamNames<Path>]: string | number };

/** Fills a path pattern: `/api/api-keys/:id` with `{ id: 5 }` → `/api/api-keys/5` (each value URL-encoded). */
export function fillPath(path: string, values: Readonly<Record<string, string | number>> = {}): string {
  return path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** Any string as a path id: the tenancy hook answers 404 for anything that is not an object of the caller's accounts. */
export const anyIdParams = z.object({ id: z.string() });

/** The success body's type: what the schema parses to (nothing for `null`). */
export type EndpointOutput<E extends Endpoint> = E['response']['body'] extends z.ZodType
  ? z.output<E['response']['body']>
  : unknown;
