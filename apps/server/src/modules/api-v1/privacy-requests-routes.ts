import {
  apiPrivacyRequestIdParamsSchema,
  apiPrivacyRequestListQuerySchema,
  apiPrivacyRequestListSchema,
  apiPrivacyRequestSchema,
  carryOutPrivacyRequestRequestSchema,
  extendPrivacyRequestRequestSchema,
  filePrivacyRequestRequestSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountContext } from '../../plugins/tenancy.ts';
import { sendZip } from '../privacy-requests/index.ts';
import { problem, problemResponses } from './responses.ts';

const notFound = { 404: problem('No such privacy request in this key’s account and mode: `not_found`.') };

const zipResponse = {
  description: 'The access bundle: a ZIP of `data.json` and one CSV per kind.',
  content: { 'application/zip': { schema: z.file() } },
};

/**
 * Data-subject requests in API v1 (issue #37 item 3): the customer's privacy tooling files access, erasure and
 * restriction requests, follows them, extends one once, has it carried out and downloads an access bundle. The service
 * is the app's own (modules/privacy-requests): one set of rules for both doors. A `vf_test_` key's requests reach the
 * account's test data only.
 */
export async function privacyRequestApiRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { privacyRequests } = app.services;

  r.post(
    '/api/v1/privacy-requests',
    {
      config: { account: { from: 'apiKey', can: 'writePrivacyRequests' } },
      schema: {
        operationId: 'createPrivacyRequest',
        summary: 'File a privacy request',
        description: `A data-subject request the customer received: \`access\`, \`erasure\` or \`restriction\`, under
\`ccpa\` (due in 45 days, extendable once by 45), \`gdpr\` (30, once by 60) or \`other\` (30, once by 30), counted from
\`receivedAt\` (now when left out; never in the future, not before 2000). It names the person's \`phones\` (E.164, or US
numbers as typed) and \`emails\`, at least one. It is \`open\` with its \`matches\` counted until carried out. Needs
\`privacy:write\`.`,
        tags: ['Privacy requests'],
        body: filePrivacyRequestRequestSchema,
        response: { 201: apiPrivacyRequestSchema, ...problemResponses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await privacyRequests.file(accountContext(request), request.body)),
  );

  r.get(
    '/api/v1/privacy-requests',
    {
      config: { account: { from: 'apiKey', can: 'readPrivacyRequests' } },
      schema: {
        operationId: 'listPrivacyRequests',
        summary: 'List privacy requests',
        description: `Newest received first, in cursor pages: pass \`nextCursor\` as \`startingAfter\`. Filter by \`status\`
(\`overdue\`: open or running past \`dueAt\`). Needs \`privacy:read\`.`,
        tags: ['Privacy requests'],
        querystring: apiPrivacyRequestListQuerySchema,
        response: { 200: apiPrivacyRequestListSchema, ...problemResponses },
      },
    },
    async (request) => privacyRequests.page(accountContext(request), request.query),
  );

  r.get(
    '/api/v1/privacy-requests/:id',
    {
      config: { account: { from: 'apiKey', can: 'readPrivacyRequests' } },
      schema: {
        operationId: 'getPrivacyRequest',
        summary: 'Get a privacy request',
        description: `Its status, due date and \`matches\` (counted again while it is open or running), and its \`answer\` once
answered (then its identifiers are masked). Needs \`privacy:read\`.`,
        tags: ['Privacy requests'],
        params: apiPrivacyRequestIdParamsSchema,
        response: { 200: apiPrivacyRequestSchema, ...problemResponses, ...notFound },
      },
    },
    async (request) => privacyRequests.get(accountContext(request), request.params.id),
  );

  r.post(
    '/api/v1/privacy-requests/:id/carry-out',
    {
      config: { account: { from: 'apiKey', can: 'writePrivacyRequests' } },
      schema: {
        operationId: 'carryOutPrivacyRequest',
        summary: 'Carry out a privacy request',
        description: `Starts the job that carries it out (202, status \`running\`): access gathers the bundle, erasure redacts
every matching verification except those under a legal hold, which are restricted instead and named in the answer,
restriction restricts every match. Only an open request; anything else answers 409. Needs \`privacy:write\`.`,
        tags: ['Privacy requests'],
        params: apiPrivacyRequestIdParamsSchema,
        body: carryOutPrivacyRequestRequestSchema,
        response: {
          202: apiPrivacyRequestSchema,
          ...problemResponses,
          ...notFound,
          409: problem('Running or answered already: `privacy_request_not_open`.'),
        },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await privacyRequests.carryOut(accountContext(request), request.params.id)),
  );

  r.post(
    '/api/v1/privacy-requests/:id/extend',
    {
      config: { account: { from: 'apiKey', can: 'writePrivacyRequests' } },
      schema: {
        operationId: 'extendPrivacyRequest',
        summary: 'Extend a privacy request',
        description: `Moves \`dueAt\` by its law's extension, once, with the \`reason\` the requester is told. A second
extension, or one of an answered request, answers 400. Needs \`privacy:write\`.`,
        tags: ['Privacy requests'],
        params: apiPrivacyRequestIdParamsSchema,
        body: extendPrivacyRequestRequestSchema,
        response: { 200: apiPrivacyRequestSchema, ...problemResponses, ...notFound },
      },
    },
    async (request) =>
      privacyRequests.extend(accountContext(request), request.params.id, request.body.reason),
  );

  r.get(
    '/api/v1/privacy-requests/:id/bundle',
    {
      config: { account: { from: 'apiKey', can: 'readPrivacyRequests' } },
      schema: {
        operationId: 'getPrivacyRequestBundle',
        summary: 'Download an access bundle',
        description: `An answered access request's data: a ZIP of \`data.json\` (verifications, codes sent, revocations,
webhook events and deliveries) and one CSV per kind. Any other request answers 409. Needs \`privacy:read\`.`,
        tags: ['Privacy requests'],
        params: apiPrivacyRequestIdParamsSchema,
        response: {
          200: zipResponse,
          ...problemResponses,
          ...notFound,
          409: problem('Not an answered access request: `privacy_request_no_bundle`.'),
        },
      },
    },
    async (request, reply) =>
      sendZip(reply, await privacyRequests.bundle(accountContext(request), request.params.id)),
  );
}
