import { verificationEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.ts';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';
import { verificationTimeline } from './timeline.ts';

/**
 * A verification's timeline (issue #18 item 6), as `verificationEndpoints.timeline` declares it: scoped as the detail
 * is (owners, or members with canSearchData; another account's id answers 404).
 */
export async function verificationTimelineRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.services;

  r.route({
    ...declared(verificationEndpoints.timeline),
    handler: async (request) => {
      const events = await verificationTimeline(
        db,
        accountContext(request).accountId,
        request.params.id,
        clock.now(),
      );
      if (!events) throw new AppError('not_found');
      return { events };
    },
  });
}
