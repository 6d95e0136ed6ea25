import swagger from '@fastify/swagger';
import type { ApiReferenceConfiguration } from '@scalar/fastify-api-reference';
import {
  API_V1_PREFIX,
  apiProblemCodes,
  apiProblems,
  WEBHOOK_EVENT_RETENTION_DAYS,
} from '@veriform/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { codeSamplesOf } from './code-samples.ts';
import { webhooksSection } from './webhooks-docs.ts';

/**
 * The OpenAPI 3.1 document of API v1, generated from the routes' own zod schemas (@fastify/swagger with
 * fastify-type-provider-zod's transforms; ADR 16): what the server validates and answers is what the document says,
 * and the typed client of the tests is generated from it. Only `/api/v1/` routes are in it; the app's session API is
 * not a public contract.
 */

export const OPENAPI_PATH = '/api/v1/openapi.json';
export const DOCS_PATH = '/docs/api';

const errorsTable = apiProblemCodes
  .map((code) => {
    const { status, title, description } = apiProblems[code];
    return `| <a id="error-${code}"></a>\`${code}\` | ${status} | ${title}: ${description} |`;
  })
  .join('\n');

function description(publicUrl: string): string {
  return `Verify that a phone number belongs to the person who gave it, from your own systems: start a verification,
let the consumer type the code they received, and check it. Every verification is kept as evidence and shows in
Veriform's activity log beside those of the hosted pages.

## Quick start

1. **Create a key** in Veriform: Settings → API keys. A \`vf_test_\` key reaches only your account's test numbers
   (Settings → Company Info → Test numbers: fixed codes, nothing is sent); a \`vf_live_\` key sends real codes.
   The key is shown once: keep it in your secret store.
2. **Call the API** with the key as a bearer token:

\`\`\`sh
export VERIFORM_API_KEY=vf_test_…
curl ${publicUrl}/api/v1/forms -H "Authorization: Bearer $VERIFORM_API_KEY"
\`\`\`

Every endpoint below has a \`curl\` example that runs as written once \`VERIFORM_API_KEY\` (and, where used,
\`FORM_ID\`) are set.

## Conventions

- JSON in and out, camelCase names, times in ISO 8601 (UTC).
- **Lists** are cursor pages: \`limit\` (1–100, default 20) and \`startingAfter\` (the \`nextCursor\` of the page before).
  Answers are \`{data, hasMore, nextCursor}\`; pages never skip or repeat an object while new ones arrive.
- **Rate limits** per key: every answer carries \`RateLimit-Policy\` and \`RateLimit\` (IETF draft fields); over the
  limit the answer is 429 with \`Retry-After\`.
- **Errors** are [RFC 9457](https://www.rfc-editor.org/rfc/rfc9457) problem details
  (\`application/problem+json\`): \`{type, title, status, detail, code, errors?}\`. Match on \`code\`: it never changes
  meaning. \`errors\` lists each invalid field with a JSON Pointer.
- Every answer has an \`X-Request-Id\`: quote it to support.

## Idempotency

A network error leaves you not knowing whether a POST went through. Send an \`Idempotency-Key\` header (1–255 printable
ASCII characters; a UUID per operation) with any POST, and retry with the same key and the same body: the action happens
once.

- The first answer is kept for **24 hours**, per API key. The same request again returns it byte for byte (status,
  body, content type) with \`Idempotent-Replayed: true\`, without acting again: no second code is sent, no second try is
  counted.
- While the first request is still running, the same key answers **409** \`idempotency_key_in_use\`: retry a moment
  later.
- The same key with another path or body (compared byte for byte) answers **422** \`idempotency_key_reused\`: use a new
  key for a new request.
- Kept are the answers the endpoint gave, success or error (a 4xx such as \`invalid_phone\`). Not kept, so a retry with
  the key runs: server errors (5xx), and refusals before the endpoint ran (401, 403, 429, \`invalid_request\` from the
  body's validation). A malformed key is a 400 \`invalid_request\` pointing at \`/headers/idempotency-key\`.

${webhooksSection()}
## Errors

| code | status | meaning |
|---|---|---|
${errorsTable}
`;
}

/** Before any route is registered: @fastify/swagger collects routes as they are added. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  const { publicUrl } = app.services.config;
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Veriform API', version: '1', description: description(publicUrl) },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key (`vf_live_…` or `vf_test_…`) from Settings → API keys.',
          },
        },
      },
      security: [{ apiKey: [] }],
      tags: [
        { name: 'Forms', description: 'Your verification forms: a verification starts from one.' },
        {
          name: 'Events',
          description: `What happened in the account, as webhooks send it (see Webhooks above), kept for ${WEBHOOK_EVENT_RETENTION_DAYS} days: a receiver that missed deliveries catches up here.`,
        },
      ],
    },
    transform: (input) => {
      if (!input.url.startsWith(API_V1_PREFIX) || input.url === OPENAPI_PATH) {
        return { schema: { ...input.schema, hide: true }, url: input.url };
      }
      return jsonSchemaTransform(input);
    },
    transformObject: (input) => {
      const document = jsonSchemaTransformObject(input);
      return 'openapi' in document ? codeSamplesOf(document, publicUrl) : document;
    },
  });
}

const SCALAR_PREFIX = `${DOCS_PATH}/reference`;
const SCALAR_SCRIPT = `${SCALAR_PREFIX}/js/scalar.js`;
const INIT_SCRIPT = `${DOCS_PATH}/init.js`;

/** Scalar's options; read by init.js, which is a file of its own because the CSP allows no inline script. */
const scalarConfiguration = {
  url: OPENAPI_PATH,
  // Nothing from Scalar's servers: no web fonts, no telemetry, no hosted "Ask AI" agent or developer toolbar.
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: true,
  defaultOpenAllTags: true,
  documentDownloadType: 'json',
} satisfies Partial<ApiReferenceConfiguration>;

const docsPage = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Veriform API reference</title>
    <meta name="description" content="Veriform API v1: verify phone numbers from your own systems." />
  </head>
  <body>
    <main id="app"><noscript>The API reference needs JavaScript; the document is at ${OPENAPI_PATH}.</noscript></main>
    <script src="${SCALAR_SCRIPT}"></script>
    <script src="${INIT_SCRIPT}"></script>
  </body>
</html>
`;

/**
 * Scalar's browser build, loaded on the first request for it. @scalar/fastify-api-reference holds that build (~9 MB)
 * as a string in its own module source, so importing it at start kept ~19 MB of heap in every process (issue #20
 * item 5) for a page few ever open. Its plugin only serves the build from a route, so the build is taken from that
 * route of a throwaway instance (its one public way out) and the instance closed.
 */
let scalarScript: Promise<string> | undefined;
function loadScalarScript(): Promise<string> {
  scalarScript ??= (async () => {
    const { default: scalar } = await import('@scalar/fastify-api-reference');
    const instance = Fastify({ logger: false });
    try {
      await instance.register(scalar, { routePrefix: '/', configuration: scalarConfiguration });
      const response = await instance.inject({ url: '/js/scalar.js' });
      if (response.statusCode !== 200) throw new Error(`Scalar's script answered ${response.statusCode}`);
      return response.body;
    } finally {
      await instance.close();
    }
  })();
  // A failed load is tried again by the next request rather than answered 500 forever.
  scalarScript.catch(() => {
    scalarScript = undefined;
  });
  return scalarScript;
}

/**
 * The document itself (public: it holds no data), and the reference at /docs/api: our page (a language, a title, no
 * inline script) running Scalar's browser build, served from the package under /docs/api/reference/js/ (nothing from
 * a CDN). The package's own page there only sends readers to ours.
 */
export async function apiDocsRoutes(app: FastifyInstance): Promise<void> {
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('Cache-Control', 'no-cache').send(app.swagger()),
  );
  app.get(DOCS_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(docsPage),
  );
  app.get(INIT_SCRIPT, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('Cache-Control', 'no-cache')
      .type('text/javascript; charset=utf-8')
      .send(`Scalar.createApiReference('#app', ${JSON.stringify(scalarConfiguration)});\n`),
  );
  app.get(SCALAR_SCRIPT, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/javascript; charset=utf-8').send(await loadScalarScript()),
  );
  for (const url of [SCALAR_PREFIX, `${SCALAR_PREFIX}/`]) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) => reply.redirect(DOCS_PATH));
  }
}
