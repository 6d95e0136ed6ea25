import { verificationEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parsePathId } from '../../plugins/account-objects.ts';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';
import { createNumberChecks } from './number-checks.ts';

/**
 * A verification's reassigned-number checks in the app (issue #36 item 2): members who may read verifications
 * (canSearchData) list them and ask for one; each check is a lookup billed to the account and capped by its monthly
 * ceiling, as API v1's are.
 */
export async function verificationNumberCheckRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const checks = createNumberChecks({
    db: app.services.db,
    reassignmentChecks: app.services.reassignmentChecks,
  });

  r.route({
    ...declared(verificationEndpoints.reassignmentChecks),
    handler: (request) =>
      checks.list(accountContext(request), parsePathId(request.params.id, 'verifications')),
  });

  r.route({
    ...declared(verificationEndpoints.checkReassignment),
    handler: async (request, reply) => {
      const check = await checks.check(
        accountContext(request),
        parsePathId(request.params.id, 'verifications'),
      );
      return reply.code(201).send(check);
    },
  });
}
