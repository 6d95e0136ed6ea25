import type { Access, Endpoint, HttpMethod } from '@veriform/contracts';
import type { z } from 'zod';
import type { AccountDeclaration } from './tenancy.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route, as its contract declares (packages/contracts/src/endpoints.ts). */
    access?: Access;
    /** A sensitive call: a person with a second factor proves it again when their proof is stale (step-up.ts). */
    stepUp?: true;
  }
}

/** The Fastify schema an endpoint's declaration makes, typed so the zod type provider types the handler's request. */
type SchemaOf<E extends Endpoint> = {
  params: E['params'];
  querystring: E['query'];
  body: E extends { bodyCheckedBy: 'handler' }
    ? undefined
    : E['body'] extends z.ZodType
      ? E['body']
      : undefined;
  response: E['response']['body'] extends z.ZodType
    ? { [Status in E['response']['status']]: E['response']['body'] }
    : undefined;
};

type RouteOf<E extends Endpoint> = {
  method: HttpMethod;
  url: E['path'];
  config: { access: Access; account?: AccountDeclaration; stepUp?: true };
  schema: SchemaOf<E>;
};

/**
 * A session-API route's options from its contract (method, path, schemas, who may call it), for
 * `r.route({ ...declared(apiKeyEndpoints.list), handler })`: the path, the schemas and the account declaration the
 * tenancy hook resolves are the contract's own objects, so they cannot drift from what the web client calls. The
 * handler still answers with the declared status (`reply.code(201)`); the route inventory's test holds both to it.
 */
export function declared<const E extends Endpoint>(endpoint: E): RouteOf<E> {
  const { method, path, params, query, body, bodyCheckedBy, response, access, stepUp } = endpoint;
  // Only the parts declared: Fastify warns of a schema key that is present but undefined. A body the handler checks
  // (`bodyCheckedBy`) is left to it, so that the route answers no generic 400 before the handler can.
  const schema = {
    ...(params ? { params } : {}),
    ...(query ? { querystring: query } : {}),
    ...(body && body !== 'multipart' && bodyCheckedBy !== 'handler' ? { body } : {}),
    ...(response.body ? { response: { [response.status]: response.body } } : {}),
  };
  return {
    method,
    url: path,
    config: {
      ...(typeof access === 'object' ? { access, account: access.account } : { access }),
      ...(stepUp ? { stepUp } : {}),
    },
    // The mapped type of `schema`: built above key by key from the same fields.
    schema: schema as SchemaOf<E>,
  };
}
