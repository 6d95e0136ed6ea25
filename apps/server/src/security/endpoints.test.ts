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

describe('the session API, declared once in contracts', () => {
  it('every /api/ route outside API v1 and providers’ callbacks is in the catalog, and no other', () => {
    const declared = new Set(listSessionEndpoints().map(({ endpoint }) => keyOf(endpoint)));
    const session = routeInventory(t.app)
      .filter((route) => route.url.startsWith('/api/') && !API_ELSEWHERE.test(route.url))
      .map((route) => route.key);
    expect(session.filter((key) => !declared.has(key))).toEqual([]);
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
      // An upload's parts and a body its handler checks are not the route's to validate.
      const routeBody =
        endpoint.body === 'multipart' || endpoint.bodyCheckedBy === 'handler' ? undefined : endpoint.body;
      expect(schema?.body, `${name} body`).toBe(routeBody);
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
