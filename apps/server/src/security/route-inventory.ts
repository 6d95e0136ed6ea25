import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * The routes of the app itself (`app.routeList`, filled by an `onRoute` hook in buildApp), with the zod schemas they
 * attach through fastify-type-provider-zod. The fuzz and CSRF suites iterate this list, so a new route is fuzzed and
 * CSRF-checked without anyone adding it to a table; only a route whose body the schema does not describe (parsed by
 * hand, or multipart) must be classified, and the completeness tests say so.
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
