import {
  apiCheckResultSchema,
  apiCheckVerificationRequestSchema,
  apiStartVerificationRequestSchema,
  apiVerificationIdParamsSchema,
  apiVerificationSchema,
} from '@veriform/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountContext } from '../../plugins/tenancy.ts';
import { type PublicRequestContext, USER_AGENT_MAX } from '../public-verify/service.ts';
import { problem, problemResponses } from './responses.ts';

/** The caller's address and agent, kept with the attempt as the hosted page keeps the consumer's. */
function contextOf(request: FastifyRequest): PublicRequestContext {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null };
}

const notFound = { 404: problem('No such verification in this key’s account: `not_found`.') };

export async function verificationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { apiVerifications } = app.services;

  r.post(
    '/api/v1/verifications',
    {
      config: { account: { from: 'apiKey', can: 'writeVerifications' } },
      schema: {
        operationId: 'startVerification',
        summary: 'Start a verification',
        description: `Sends a one-time code to \`to\` through a live form, under every rule of the hosted page: mobile numbers
only, the account's allowed countries, 30 s between codes to one number, daily limits per number, address and account.
A newer code replaces the older pending one. With a \`vf_test_\` key, \`to\` must be one of the account's test numbers
(nothing is sent; the number's fixed code approves it). Leave \`to\` out to get \`hostedUrl\` instead: the form's hosted
page, bound to \`externalRefId\`, where the consumer verifies in the browser. Needs \`verifications:write\`.`,
        tags: ['Verifications'],
        body: apiStartVerificationRequestSchema,
        response: {
          201: apiVerificationSchema,
          ...problemResponses,
          404: problem('No form with this `formId` in the key’s account: `not_found`.'),
          409: problem('The form is inactive: `form_not_live`.'),
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await apiVerifications.start(accountContext(request), request.body, contextOf(request))),
  );

  r.get(
    '/api/v1/verifications/:id',
    {
      config: { account: { from: 'apiKey', can: 'writeVerifications' } },
      schema: {
        operationId: 'getVerification',
        summary: 'Get a verification',
        description:
          'Its status now (`expired` once ten minutes passed), tries left and times. The number is masked unless the key has `verifications:read`. Needs `verifications:write`.',
        tags: ['Verifications'],
        params: apiVerificationIdParamsSchema,
        response: { 200: apiVerificationSchema, ...problemResponses, ...notFound },
      },
    },
    async (request) => apiVerifications.get(accountContext(request), request.params.id),
  );

  r.post(
    '/api/v1/verifications/:id/check',
    {
      config: { account: { from: 'apiKey', can: 'writeVerifications' } },
      schema: {
        operationId: 'checkVerification',
        summary: 'Check a code',
        description: `Always 200 with what happened, never a silent "pending": \`approved\` (the verification is kept as evidence
and shows in the activity log), \`incorrect\` (with \`attemptsLeft\`), \`max_attempts\` (locked after the 5th wrong code),
\`expired\`, \`already_approved\` or \`replaced\` (a newer code was sent). 404 only for an unknown id. Needs
\`verifications:write\`.`,
        tags: ['Verifications'],
        params: apiVerificationIdParamsSchema,
        body: apiCheckVerificationRequestSchema,
        response: {
          200: apiCheckResultSchema,
          ...problemResponses,
          ...notFound,
          409: problem('The form was made inactive: `form_not_live`.'),
        },
      },
    },
    async (request) =>
      apiVerifications.check(
        accountContext(request),
        request.params.id,
        request.body.code,
        contextOf(request),
      ),
  );
}
