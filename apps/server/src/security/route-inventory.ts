import { listSessionEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { twilioStatusCallbackSchema } from '../modules/code-delivery/index.ts';
import { twilioInboundMessageSchema } from '../modules/revocations/index.ts';
import type { AccountDeclaration } from '../plugins/tenancy.ts';

/**
 * The routes of the app itself (`app.routeList`, filled by an `onRoute` hook in buildApp), with the zod schemas they
 * attach through fastify-type-provider-zod. The fuzz and CSRF suites iterate this list, so a new route is fuzzed and
 * CSRF-checked without anyone adding it to a table; only a route whose body the schema does not describe (parsed by
 * hand, or multipart) must be classified, and the completeness tests say so. `account` is the route's declaration of
 * where its account comes from (plugins/tenancy.ts), which the account-context tests hold every account route to.
 */

export type RouteInfo = {
  method: string;
  url: string;
  /** `METHOD /url/:pattern`, as tables key routes. */
  key: string;
  params: z.ZodObject | undefined;
  querystring: z.ZodType | undefined;
  body: z.ZodType | undefined;
  /** Names of the path parameters, in order. */
  paramNames: string[];
  unsafe: boolean;
  account: AccountDeclaration | undefined;
};

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const zodOf = (value: unknown): z.ZodType | undefined => (value instanceof z.ZodType ? value : undefined);

/** Every route but the automatic HEAD twins of GETs (same handler) and the SPA's catch-all assets. */
export function routeInventory(app: FastifyInstance): RouteInfo[] {
  const seen = new Set<string>();
  const routes: RouteInfo[] = [];
  for (const route of app.routeList) {
    if (route.method === 'HEAD' || route.method === 'OPTIONS') continue;
    const key = `${route.method} ${route.url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const params = zodOf(route.schema?.params);
    routes.push({
      method: route.method,
      url: route.url,
      key,
      params: params instanceof z.ZodObject ? params : undefined,
      querystring: zodOf(route.schema?.querystring),
      body: zodOf(route.schema?.body),
      paramNames: [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1] ?? ''),
      unsafe: UNSAFE.has(route.method),
      account: app.accountDeclarations.get(key),
    });
  }
  return routes;
}

/** Fills a route pattern's parameters (already encoded as the caller wants them on the wire). */
export function fillPath(url: string, values: Readonly<Record<string, string>>): string {
  return url.replace(/:(\w+)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${url}`);
    return value;
  });
}

/**
 * Unsafe routes whose JSON body is not in their route schema, and what it is instead. Routes with `schema.body` need
 * nothing here; a new route without one fails the completeness test until it is classified.
 */
export const handParsedBodies: Readonly<Record<string, z.ZodType | 'multipart' | 'none'>> = {
  // Declared in the contract but validated by the handler (`bodyCheckedBy`), e.g. in the form's language.
  ...Object.fromEntries(
    listSessionEndpoints().flatMap(({ endpoint }) =>
      endpoint.bodyCheckedBy === 'handler' && endpoint.body instanceof z.ZodType
        ? [[`${endpoint.method} ${endpoint.path}`, endpoint.body]]
        : [],
    ),
  ),
  'POST /api/users/:id/update-uploaded-profile-image': 'multipart',
  'POST /api/accounts/:id/update-uploaded-profile-image': 'multipart',
  'PATCH /api/verify-forms/:id/update-banner-image': 'multipart',
  // A certificate's PDF or JSON to check (modules/certificates/check.ts).
  'POST /api/public/certificates/verify': 'multipart',
  'POST /api/auth/csrf': 'none',
  'POST /api/auth/refresh-me': 'none',
  'POST /api/auth/logout': 'none',
  'POST /api/auth/change-email/resend': 'none',
  'PATCH /api/users/:id/delete-uploaded-profile-image': 'none',
  'PATCH /api/users/:id/check-delete': 'none',
  'PATCH /api/accounts/:id/delete-uploaded-profile-image': 'none',
  'DELETE /api/accounts/:id/domains/:domainId': 'none',
  'POST /api/invitations/:id/resend': 'none',
  'DELETE /api/invitations/:id': 'none',
  'DELETE /api/verify-forms/:id': 'none',
  'PATCH /api/verify-forms/:id/delete-banner-image': 'none',
  'DELETE /api/test-phone-numbers/:id': 'none',
  'DELETE /api/api-keys/:id': 'none',
  'DELETE /api/webhook-endpoints/:id': 'none',
  'POST /api/webhook-endpoints/:id/send-test': 'none',
  'POST /api/revocations/:id/acknowledge': 'none',
  'POST /api/v1/verifications/:id/resend': 'none',
  'POST /api/v1/verifications/:id/cancel': 'none',
  'POST /api/v1/verifications/:id/reassignment-checks': 'none',
  'POST /api/v1/verifications/:id/refresh': 'none',
  'POST /api/v1/revocations/:id/acknowledge': 'none',
  'POST /api/auth/passkeys/registration-options': 'none',
  'POST /api/auth/passkeys/authentication-options': 'none',
  'DELETE /api/auth/passkeys/:id': 'none',
  'DELETE /api/auth/sessions/:id': 'none',
  'DELETE /api/auth/sessions': 'none',
  // Second factors (issue #38): a new TOTP secret, its removal, new recovery codes. No body read.
  'POST /api/auth/mfa/totp': 'none',
  'DELETE /api/auth/mfa/totp': 'none',
  'POST /api/auth/mfa/recovery-codes': 'none',
  // Form-encoded (Twilio's format), read after the signature is checked.
  'POST /api/webhooks/twilio/status': twilioStatusCallbackSchema,
  'POST /api/webhooks/twilio/inbound': twilioInboundMessageSchema,
};

/** The upload routes (multipart, one image file). */
export const multipartRoutes = (): string[] =>
  Object.entries(handParsedBodies)
    .filter(([, body]) => body === 'multipart')
    .map(([key]) => key);
