import { apiFormListQuerySchema, apiFormListSchema } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { cursorPage, parseIdCursor } from '../../lib/cursor-pages.ts';
import { accountContext } from '../../plugins/tenancy.ts';
import { toApiForm } from '../verify-forms/index.ts';
import { problemResponses } from './responses.ts';

export async function formRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { verifyForms } = app.services;

  r.get(
    '/api/v1/forms',
    {
      config: { account: { from: 'apiKey', can: 'readForms' } },
      schema: {
        operationId: 'listForms',
        summary: 'List forms',
        description: 'The account’s verification forms, newest first. Needs the `forms:read` scope.',
        tags: ['Forms'],
        querystring: apiFormListQuerySchema,
        response: { 200: apiFormListSchema, ...problemResponses },
      },
    },
    async (request) => {
      const { limit, startingAfter } = request.query;
      const { rows, hasMore } = await verifyForms.page(accountContext(request), {
        limit,
        startingAfter: parseIdCursor(startingAfter),
      });
      return cursorPage(rows.map(toApiForm), hasMore);
    },
  );
}
