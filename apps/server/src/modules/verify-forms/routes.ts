import {
  BANNER_IMAGE_FIELD,
  createVerifyFormRequestSchema,
  formCategoriesQuerySchema,
  formCategoriesSchema,
  formListQuerySchema,
  updateVerifyFormRequestSchema,
  verifyFormListSchema,
  verifyFormSchema,
  verifyFormStatsSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { memberOf } from '../../plugins/account-context.ts';
import { parsePathId } from '../../plugins/account-objects.ts';
import { type AccountDeclaration, accountContext } from '../../plugins/tenancy.ts';

/** Any string: the tenancy hook answers 404 for anything that is not a form of the caller's accounts. */
const params = z.object({ id: z.string() });
const idOf = (params: { id: string }) => parsePathId(params.id);

/**
 * Verification forms (SPEC §2 /forms/, §7). Every member of the account may list, view, create, edit and take a form
 * live (docs/roles.md: capabilities readForms and manageForms). An account the caller is not a member of, in the body or the query,
 * answers 404 like an unknown one (as for invitations).
 */
export async function verifyFormRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { verifyForms, media } = app.services;
  const one = { 200: verifyFormSchema };
  const form: AccountDeclaration = { from: { pathObject: 'verifyForms' }, can: 'manageForms' };

  r.post(
    '/api/verify-forms',
    {
      config: { account: { from: 'body.account', can: 'manageForms' } },
      schema: { body: createVerifyFormRequestSchema, response: { 201: verifyFormSchema } },
    },
    async (request, reply) =>
      reply.code(201).send(await verifyForms.create(accountContext(request), request.body)),
  );

  r.get(
    '/api/verify-forms',
    {
      config: { account: { from: 'query.account', can: 'readForms' } },
      schema: { querystring: formListQuerySchema, response: { 200: verifyFormListSchema } },
    },
    (request) => verifyForms.list(accountContext(request), request.query),
  );

  r.get(
    '/api/verify-forms/categories',
    {
      config: { account: { from: 'query.account', can: 'readForms' } },
      schema: { querystring: formCategoriesQuerySchema, response: { 200: formCategoriesSchema } },
    },
    (request) => verifyForms.categories(accountContext(request)),
  );

  r.get(
    '/api/verify-forms/:id',
    {
      config: { account: { from: { pathObject: 'verifyForms' }, can: 'readForms' } },
      schema: { params, response: one },
    },
    (request) => verifyForms.get(accountContext(request), idOf(request.params)),
  );

  // The form page's counts: owners, or members with canViewReports (the same right as the dashboard).
  r.get(
    '/api/verify-forms/:id/stats',
    {
      config: { account: { from: { pathObject: 'verifyForms' }, can: 'viewReports' } },
      schema: { params, response: { 200: verifyFormStatsSchema } },
    },
    (request) => verifyForms.stats(accountContext(request), idOf(request.params)),
  );

  r.patch(
    '/api/verify-forms/:id',
    { config: { account: form }, schema: { params, body: updateVerifyFormRequestSchema, response: one } },
    (request) => verifyForms.update(accountContext(request), idOf(request.params), request.body),
  );

  r.delete(
    '/api/verify-forms/:id',
    { config: { account: form }, schema: { params } },
    async (request, reply) => {
      await verifyForms.remove(accountContext(request), idOf(request.params));
      return reply.code(204).send();
    },
  );

  r.patch(
    '/api/verify-forms/:id/update-banner-image',
    { config: { account: form }, schema: { params, response: one } },
    async (request) => {
      const ctx = accountContext(request);
      // Charged to the uploading user, together with their profile pictures and account logos.
      const url = await media.acceptImageUpload(request, BANNER_IMAGE_FIELD, `user:${memberOf(ctx).user.id}`);
      return verifyForms.setBanner(ctx, idOf(request.params), url);
    },
  );

  r.patch(
    '/api/verify-forms/:id/delete-banner-image',
    { config: { account: form }, schema: { params, response: one } },
    (request) => verifyForms.deleteBanner(accountContext(request), idOf(request.params)),
  );
}
