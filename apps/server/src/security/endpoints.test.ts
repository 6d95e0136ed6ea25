import { type Endpoint, fillPath, listSessionEndpoints } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test-support/app.ts';
import { TestClient } from '../test-support/client.ts';
import { routeInventory } from './route-inventory.ts';

/**
 * The session API's routes are declared once, in contracts (packages/contracts/src/endpoints.ts, issue #34 item 6):
 * the server registers each from its declaration and the web client calls it through the same object. This file holds
 * the app to the catalog: every `/api/` route outside API v1 is declared there, and each declaration is registered
 * with exactly its path, schemas, answer and account declaration (the tenancy hook's input).
 */

const t = useTestApp();

/** API v1 (its contract is the OpenAPI document) and providers' callbacks (Twilio's delivery statuses). */
const API_ELSEWHERE = /^\/api\/(v1|webhooks)\//;

const keyOf = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.path}`;

/**
 * Routes not yet moved to a contract declaration. This list only shrinks: a new route is declared in contracts, and
 * a route moved there is taken off it (the test fails while it is listed but declared).
 */
const notYetDeclared: readonly string[] = [
  'DELETE /api/verify-forms/:id',
  'GET /api/public/attempts/:attemptId/delivery',
  'GET /api/public/certificates/:certId',
  'GET /api/public/verify-forms/:publicId',
  'GET /api/verification-attempts',
  'GET /api/verification-attempts/export-csv',
  'GET /api/verifications',
  'GET /api/verifications/:id',
  'GET /api/verifications/:id/certificate',
  'GET /api/verifications/:id/certificate.pdf',
  'GET /api/verifications/:id/certificate/standing',
  'GET /api/verifications/:id/timeline',
  'GET /api/verifications/export-csv',
  'GET /api/verifications/report',
  'GET /api/verify-forms',
  'GET /api/verify-forms/:id',
  'GET /api/verify-forms/:id/consent-versions',
  'GET /api/verify-forms/:id/stats',
  'GET /api/verify-forms/categories',
  'PATCH /api/verify-forms/:id',
  'PATCH /api/verify-forms/:id/delete-banner-image',
  'PATCH /api/verify-forms/:id/update-banner-image',
  'POST /api/public/attempts/:attemptId/check',
  'POST /api/public/certificates/:certId/unlock',
  'POST /api/public/certificates/verify',
  'POST /api/public/verify-forms/:publicId/send-code',
  'POST /api/verifications/:id/certificate/revoke',
  'POST /api/verifications/:id/redact',
  'POST /api/verify-forms',
  'POST /api/verify-forms/:id/consent-versions',
];

describe('the session API, declared once in contracts', () => {
  it('every /api/ route outside API v1 and providers’ callbacks is in the catalog (or still listed as not yet declared), and no other', () => {
    const declared = new Set(listSessionEndpoints().map(({ endpoint }) => keyOf(endpoint)));
    const session = routeInventory(t.app)
      .filter((route) => route.url.startsWith('/api/') && !API_ELSEWHERE.test(route.url))
      .map((route) => route.key);
    expect(session.filter((key) => !declared.has(key)).sort()).toEqual([...notYetDeclared].sort());
    expect(notYetDeclared.filter((key) => declared.has(key))).toEqual([]);
    expect([...declared].filter((key) => !session.includes(key))).toEqual([]);
  });

  it('each declaration is registered as it says: the same schemas, answer and account declaration', () => {
    const registered = new Map(t.app.routeList.map((route) => [`${route.method} ${route.url}`, route]));
    for (const { name, endpoint } of listSessionEndpoints()) {
      const route = registered.get(keyOf(endpoint));
      expect(route, name).toBeDefined();
      const schema = route?.schema;
      expect(schema?.params, `${name} params`).toBe(endpoint.params);
      expect(schema?.querystring, `${name} query`).toBe(endpoint.query);
      expect(schema?.body, `${name} body`).toBe(endpoint.body === 'multipart' ? undefined : endpoint.body);
      const response = schema?.response;
      const answer =
        typeof response === 'object' && response !== null
          ? Reflect.get(response, endpoint.response.status)
          : undefined;
      expect(answer ?? null, `${name} answer`).toBe(endpoint.response.body);
      const account = typeof endpoint.access === 'object' ? endpoint.access.account : undefined;
      expect(t.app.accountDeclarations.get(keyOf(endpoint)), `${name} account`).toBe(account);
    }
  });

  it('reads declared for signed-in people answer 401 to a stranger; public ones do not', async () => {
    const stranger = new TestClient(t.app);
    for (const { name, endpoint } of listSessionEndpoints()) {
      if (endpoint.method !== 'GET' || typeof endpoint.access === 'object') continue;
      const values = Object.fromEntries([...endpoint.path.matchAll(/:(\w+)/g)].map((m) => [m[1] ?? '', '1']));
      const response = await stranger.get(fillPath(endpoint.path, values));
      if (endpoint.access === 'public') expect(response.statusCode, name).not.toBe(401);
      else expect(response.statusCode, name).toBe(401);
    }
  });
});
