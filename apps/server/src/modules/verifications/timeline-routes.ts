import {
  bigIdParamsSchema,
  verificationDetailQuerySchema,
  verificationTimelineSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.ts';
import { accountContext } from '../../plugins/tenancy.ts';
import { verificationTimeline } from './timeline.ts';

/**
 * GET /api/verifications/{id}/timeline?account=N (issue #18 item 6): what happened from the page's opening to the
 * verification. Scoped as the detail is: owners, or members with canSearchData; another account's id answers 404.
 */
export async function verificationTimelineRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.services;

  r.get(
    '/api/verifications/:id/timeline',
    {
      // As GET /api/verifications/{id}: the tenancy hook answers 404 for a malformed, unknown or other account's id
      // (and for one outside the `account` named), so the path parses as a big id once the handler runs.
      config: {
        account: { from: { pathObject: 'verifications' }, can: 'searchData', alsoNamedBy: 'query.account' },
      },
      schema: {
        params: bigIdParamsSchema,
        querystring: verificationDetailQuerySchema,
        response: { 200: verificationTimelineSchema },
      },
    },
    async (request) => {
      const events = await verificationTimeline(
        db,
        accountContext(request).accountId,
        request.params.id,
        clock.now(),
      );
      if (!events) throw new AppError('not_found');
      return { events };
    },
  );
}
