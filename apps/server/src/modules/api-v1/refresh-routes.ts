import { apiRefreshLinkSchema, apiVerificationIdParamsSchema } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountContext } from '../../plugins/tenancy.ts';
import { problem, problemResponses } from './responses.ts';

/**
 * A fresh verification link bound to an approved verification (issue #36 item 4, ADR 44): the refresh-links module's,
 * as the app's button. Idempotency-Key as every API v1 POST (idempotency.ts).
 */
export async function refreshRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { refreshLinks } = app.services;

  r.post(
    '/api/v1/verifications/:id/refresh',
    {
      config: { account: { from: 'apiKey', can: 'writeVerifications' } },
      schema: {
        operationId: 'refreshVerification',
        summary: 'Send a fresh verification link',
        description: `For an approved verification whose consent is reassigned, stale or revoked: a link to the form's hosted
page, bound to this verification. The verification the consumer makes there has \`refreshes\` set to this one's id and
this one's \`externalRefId\` (the link's own, whatever its \`ref\` says), and its certificate names this verification. The
link works for 30 days and for any number of tries; after that the page still works but binds nothing. Each call makes
a new link. A verification not approved, or redacted, answers 422 \`refresh_not_possible\`; an inactive form 409
\`form_not_live\`. Needs \`verifications:write\`.`,
        tags: ['Verifications'],
        params: apiVerificationIdParamsSchema,
        response: {
          201: apiRefreshLinkSchema,
          ...problemResponses,
          404: problem('No such verification in this key’s account and mode: `not_found`.'),
          409: problem('The form is inactive: `form_not_live`.'),
          422: problem('Not approved, or redacted: `refresh_not_possible`.'),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await refreshLinks.forAttempt(accountContext(request), request.params.id)),
  );
}
