import {
  apiReassignmentCheckListSchema,
  apiReassignmentCheckSchema,
  apiVerificationIdParamsSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountContext } from '../../plugins/tenancy.ts';
import { problem, problemResponses } from './responses.ts';

const notFound = { 404: problem('No such verification in this key’s account and mode: `not_found`.') };

/**
 * Reassigned-number checks of a verification (issue #36 item 2, ADR 42): the FCC's safe harbour (47 CFR 64.1200(m))
 * protects a caller who can prove it asked the Reassigned Numbers Database with the consent's date and got "no". The
 * service is the lookups module's (lookUp's day's reuse, one request for questions asked at once, the ceiling).
 */
export async function reassignmentCheckRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { reassignmentChecks } = app.services;

  r.post(
    '/api/v1/verifications/:id/reassignment-checks',
    {
      config: { account: { from: 'apiKey', can: 'writeVerifications' } },
      schema: {
        operationId: 'createReassignmentCheck',
        summary: 'Check whether the number was reassigned',
        description: `Asks the reassigned-numbers database (Twilio Lookup \`reassigned_number\`, US numbers only) whether the
approved verification's number was disconnected since its consent, sending the UTC date of approval as
\`LastVerifiedDate\`, and keeps the question and the answer as proof: \`yes\`, \`no\` or \`no_data\` (no data is not
\`no\`). The same question asked again within a day is answered by the same check; questions asked at once make one
request. \`yes\` sends \`consent.number_reassigned\` to webhooks (once per check), and the contactability verdict then
refuses the number (\`number_reassigned\`). Counts against the account's monthly ceiling of reassigned-number lookups
(429 \`lookup_ceiling_reached\` past it, nothing asked). A verification by e-mail, of a non-US number, not approved or
redacted answers 422 \`reassignment_check_not_possible\`; a provider that did not answer, 503 \`lookup_failed\` (nothing
recorded: retry). Test mode asks no provider and spends nothing (not counted against the ceiling): a test key's
check is answered by the number's last four digits, \`…0101\` \`yes\`, \`…0103\` \`no_data\`, \`…0120\` 503
\`lookup_failed\`, any other \`no\`. Needs \`verifications:write\`.`,
        tags: ['Verifications'],
        params: apiVerificationIdParamsSchema,
        response: {
          201: apiReassignmentCheckSchema,
          ...problemResponses,
          ...notFound,
          422: problem(
            'E-mail verification, a non-US number, not approved or redacted: `reassignment_check_not_possible`.',
          ),
          503: problem('The provider did not answer; nothing recorded, retry: `lookup_failed`.'),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await reassignmentChecks.check(accountContext(request), request.params.id)),
  );

  r.get(
    '/api/v1/verifications/:id/reassignment-checks',
    {
      config: { account: { from: 'apiKey', can: 'searchData' } },
      schema: {
        operationId: 'listReassignmentChecks',
        summary: 'List a verification’s reassigned-number checks',
        description:
          'Every check of the verification, newest first, in one list (at most one a day: a question asked again within the day is answered by the same check). Needs `verifications:read`.',
        tags: ['Verifications'],
        params: apiVerificationIdParamsSchema,
        response: { 200: apiReassignmentCheckListSchema, ...problemResponses, ...notFound },
      },
    },
    async (request) => reassignmentChecks.list(accountContext(request), request.params.id),
  );
}
