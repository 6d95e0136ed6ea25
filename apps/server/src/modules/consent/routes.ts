import {
  consentVersionListQuerySchema,
  consentVersionListSchema,
  consentVersionSchema,
  publishConsentVersionRequestSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/** Any string: the tenancy hook answers 404 for anything that is not a form of the caller's accounts. */
const params = z.object({ id: z.string() });

/**
 * A form's consent versions (issue #18, ADR 22): members who manage forms publish them and members who read forms read
 * them (the form page), as for the form itself. No PATCH or DELETE route exists: such a request finds nothing (404).
 */
export async function consentRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { consent } = app.services;

  r.post(
    '/api/verify-forms/:id/consent-versions',
    {
      config: { account: { from: { pathObject: 'verifyForms' }, can: 'manageForms' } },
      schema: {
        params,
        body: publishConsentVersionRequestSchema,
        response: { 200: consentVersionSchema, 201: consentVersionSchema },
      },
    },
    async (request, reply) => {
      const { created, version } = await consent.publish(
        accountContext(request),
        parsePathId(request.params.id),
        request.body,
      );
      return reply.code(created ? 201 : 200).send(version);
    },
  );

  r.get(
    '/api/verify-forms/:id/consent-versions',
    {
      config: { account: { from: { pathObject: 'verifyForms' }, can: 'readForms' } },
      schema: {
        params,
        querystring: consentVersionListQuerySchema,
        response: { 200: consentVersionListSchema },
      },
    },
    (request) => consent.list(accountContext(request), parsePathId(request.params.id), request.query),
  );
}
