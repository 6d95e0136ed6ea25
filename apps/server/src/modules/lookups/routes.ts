import { lookupEndpoints, lookupSummaryEndpoints } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';
import { lookupSummary } from './summary.ts';

/**
 * The account's carrier lookup settings (issue #36): owners read them with this month's counts and change any of them.
 * Paths, schemas and capability are the contract's (`lookupEndpoints`); another account's id answers 404. And the
 * dashboard's count of the lookups asked and their answers (summary.ts), for those who view reports.
 */
export async function lookupRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { lookupSettings, db, clock } = app.services;

  r.route({
    ...declared(lookupEndpoints.get),
    handler: (request) => lookupSettings.get(accountContext(request)),
  });

  r.route({
    ...declared(lookupEndpoints.update),
    handler: (request) => lookupSettings.update(accountContext(request), request.body),
  });

  r.route({
    ...declared(lookupSummaryEndpoints.summary),
    handler: (request) => lookupSummary(db, accountContext(request), request.query, clock.now()),
  });
}
