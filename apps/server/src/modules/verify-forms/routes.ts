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
import { authenticated } from '../../plugins/auth-guard.ts';
import { parsePathId, requireMembership, scopedByPathId, tenantOf } from '../../plugins/tenancy.ts';

/** Any string: the tenancy hook answers 404 for anything that is not a form of the caller's accounts. */
const params = z.object({ id: z.string() });
const idOf = (params: { id: string }) => parsePathId(params.id);

/**
 * Verification forms (SPEC §2 /forms/, §7). Every member of the account may list, view, create, edit and take a form
 * live (docs/roles.md: capability manageForms). An account the caller is not a member of, in the body or the query,
 * answers 404 like an unknown one (as for invitations).
 */
export async function verifyFormRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { verifyForms, media } = app.services;
  const one = { 200: verifyFormSchema };
  const scoped = scopedByPathId('verifyForms', 'manageForms');

  r.post(
    '/api/verify-forms',
    {
      preValidation: authenticated,
      schema: { body: createVerifyFormRequestSchema, response: { 201: verifyFormSchema } },
    },
    async (request, reply) => {
      const tenant = await requireMembership(request, request.body.account, 'manageForms');
      return reply.code(201).send(await verifyForms.create(tenant, request.body));
    },
  );

  r.get(
    '/api/verify-forms',
    {
      preValidation: authenticated,
      schema: { querystring: formListQuerySchema, response: { 200: verifyFormListSchema } },
    },
    async (request) =>
      verifyForms.list(await requireMembership(request, request.query.account, 'manageForms'), request.query),
  );

  r.get(
    '/api/verify-forms/categories',
    {
      preValidation: authenticated,
      schema: { querystring: formCategoriesQuerySchema, response: { 200: formCategoriesSchema } },
    },
    async (request) =>
      verifyForms.categories(await requireMembership(request, request.query.account, 'manageForms')),
  );

  r.get('/api/verify-forms/:id', { preValidation: scoped, schema: { params, response: one } }, (request) =>
    verifyForms.get(tenantOf(request), idOf(request.params)),
  );

  // The form page's counts: owners, or members with canViewReports (the same right as the dashboard).
  r.get(
    '/api/verify-forms/:id/stats',
    {
      preValidation: scopedByPathId('verifyForms', 'viewReports'),
      schema: { params, response: { 200: verifyFormStatsSchema } },
    },
    (request) => verifyForms.stats(tenantOf(request), idOf(request.params)),
  );

  r.patch(
    '/api/verify-forms/:id',
    { preValidation: scoped, schema: { params, body: updateVerifyFormRequestSchema, response: one } },
    (request) => verifyForms.update(tenantOf(request), idOf(request.params), request.body),
  );

  r.delete('/api/verify-forms/:id', { preValidation: scoped, schema: { params } }, async (request, reply) => {
    await verifyForms.remove(tenantOf(request), idOf(request.params));
    return reply.code(204).send();
  });

  r.patch(
    '/api/verify-forms/:id/update-banner-image',
    { preValidation: scoped, schema: { params, response: one } },
    async (request) => {
      const tenant = tenantOf(request);
      // Charged to the uploading user, together with their profile pictures and account logos.
      const url = await media.acceptImageUpload(request, BANNER_IMAGE_FIELD, `user:${tenant.user.id}`);
      return verifyForms.setBanner(tenant, idOf(request.params), url);
    },
  );

  r.patch(
    '/api/verify-forms/:id/delete-banner-image',
    { preValidation: scoped, schema: { params, response: one } },
    (request) => verifyForms.deleteBanner(tenantOf(request), idOf(request.params)),
  );
}
