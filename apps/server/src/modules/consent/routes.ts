import { consentEndpoints, consentVersionSchema } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';

/**
 * A form's consent versions (issue #18, ADR 22), as their contract declares them (`consentEndpoints`): members who
 * manage forms publish them, members who read forms read them.
 */
export async function consentRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { consent } = app.services;

  const publish = declared(consentEndpoints.publish);
  r.route({
    ...publish,
    // A publish that changes nothing answers the current version with 200: its body is described as the 201's is.
    schema: { ...publish.schema, response: { ...publish.schema.response, 200: consentVersionSchema } },
    handler: async (request, reply) => {
      const { created, version } = await consent.publish(
        accountContext(request),
        parsePathId(request.params.id),
        request.body,
      );
      return reply.code(created ? 201 : 200).send(version);
    },
  });

  r.route({
    ...declared(consentEndpoints.list),
    handler: (request) =>
      consent.list(accountContext(request), parsePathId(request.params.id), request.query),
  });
}
