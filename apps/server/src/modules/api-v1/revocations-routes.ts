import {
  apiRecordRevocationRequestSchema,
  apiRevocationIdParamsSchema,
  apiRevocationListQuerySchema,
  apiRevocationListSchema,
  apiRevocationSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountContext } from '../../plugins/tenancy.ts';
import { problem, problemResponses } from './responses.ts';

const notFound = { 404: problem('No such revocation in this key’s account and mode: `not_found`.') };

/**
 * Revocations of consent in API v1 (issue #35): the customer's systems record the ones they receive elsewhere (a
 * call centre, an e-mail, a letter), read every channel's, and acknowledge each once honoured. The service is the
 * app's own (modules/revocations): the same rules, events and audit for both doors.
 */
export async function revocationApiRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { revocations } = app.services;

  r.post(
    '/api/v1/revocations',
    {
      config: { account: { from: 'apiKey', can: 'writeRevocations' } },
      schema: {
        operationId: 'createRevocation',
        summary: 'Record a revocation',
        description: `A revocation of consent the customer received elsewhere (a call, an e-mail, a letter): \`phone\` or
\`email\` (or both), \`via\` and a \`note\`, dated \`receivedAt\` (now when left out). It is open at once: it revokes the
account's consent for that number or address on every form from that moment, its \`deadline\` is 10 business days later
(FCC 24-24), \`consent.revoked\` is sent to webhooks and the audit log records it. With a \`vf_test_\` key it is a test
object that revokes test verifications only. Needs \`revocations:write\`.`,
        tags: ['Revocations'],
        body: apiRecordRevocationRequestSchema,
        response: { 201: apiRevocationSchema, ...problemResponses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await revocations.record(accountContext(request), request.body)),
  );

  r.get(
    '/api/v1/revocations',
    {
      config: { account: { from: 'apiKey', can: 'readRevocations' } },
      schema: {
        operationId: 'listRevocations',
        summary: 'List revocations',
        description: `Every channel's (replies to code texts, the public revocation page, members, the API), newest received
first, in cursor pages: pass \`nextCursor\` as \`startingAfter\`. Filter by \`status\` (\`overdue\`: open past its
deadline) or \`phone\`. Needs \`revocations:read\`.`,
        tags: ['Revocations'],
        querystring: apiRevocationListQuerySchema,
        response: { 200: apiRevocationListSchema, ...problemResponses },
      },
    },
    async (request) => revocations.page(accountContext(request), request.query),
  );

  r.get(
    '/api/v1/revocations/:id',
    {
      config: { account: { from: 'apiKey', can: 'readRevocations' } },
      schema: {
        operationId: 'getRevocation',
        summary: 'Get a revocation',
        description:
          'Its status now (`overdue` once its deadline passed unacknowledged). Needs `revocations:read`.',
        tags: ['Revocations'],
        params: apiRevocationIdParamsSchema,
        response: { 200: apiRevocationSchema, ...problemResponses, ...notFound },
      },
    },
    async (request) => revocations.get(accountContext(request), request.params.id),
  );

  r.post(
    '/api/v1/revocations/:id/acknowledge',
    {
      config: { account: { from: 'apiKey', can: 'writeRevocations' } },
      schema: {
        operationId: 'acknowledgeRevocation',
        summary: 'Acknowledge a revocation',
        description: `Says the customer's systems honour it (the number is off every list): an open or overdue revocation becomes
\`acknowledged\`, once; \`revocation.acknowledged\` is sent to webhooks. A second acknowledgment answers 409 and changes
nothing. Needs \`revocations:write\`.`,
        tags: ['Revocations'],
        params: apiRevocationIdParamsSchema,
        response: {
          200: apiRevocationSchema,
          ...problemResponses,
          ...notFound,
          409: problem(
            'Already acknowledged, dismissed, or awaiting a member’s decision: `revocation_not_open`.',
          ),
        },
      },
    },
    async (request) => revocations.acknowledge(accountContext(request), request.params.id),
  );
}
