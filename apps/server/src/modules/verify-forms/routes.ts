import { BANNER_IMAGE_FIELD, verifyFormEndpoints as forms } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/account-context.ts';
import { parsePathId } from '../../plugins/account-objects.ts';
import { declared } from '../../plugins/endpoints.ts';
import { accountContext } from '../../plugins/tenancy.ts';

const idOf = (params: { id: string }) => parsePathId(params.id);

/**
 * Verification forms (SPEC §2 /forms/, §7). Every member of the account may list, view, create, edit and take a form
 * live (docs/roles.md: capabilities readForms and manageForms). An account the caller is not a member of, in the body or the query,
 * answers 404 like an unknown one (as for invitations). The routes' paths, schemas and capabilities are their
 * contract's (`verifyFormEndpoints`).
 */
export async function verifyFormRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { verifyForms, media } = app.services;

  r.route({
    ...declared(forms.create),
    handler: async (request, reply) =>
      reply.code(201).send(await verifyForms.create(accountContext(request), request.body)),
  });

  r.route({
    ...declared(forms.list),
    handler: (request) => verifyForms.list(accountContext(request), request.query),
  });

  r.route({
    ...declared(forms.categories),
    handler: (request) => verifyForms.categories(accountContext(request)),
  });

  r.route({
    ...declared(forms.get),
    handler: (request) => verifyForms.get(accountContext(request), idOf(request.params)),
  });

  r.route({
    ...declared(forms.stats),
    handler: (request) => verifyForms.stats(accountContext(request), idOf(request.params)),
  });

  r.route({
    ...declared(forms.update),
    handler: (request) => verifyForms.update(accountContext(request), idOf(request.params), request.body),
  });

  r.route({
    ...declared(forms.remove),
    handler: async (request, reply) => {
      await verifyForms.remove(accountContext(request), idOf(request.params));
      return reply.code(204).send();
    },
  });

  r.route({
    ...declared(forms.uploadBanner),
    handler: async (request) => {
      const ctx = accountContext(request);
      // Charged to the uploading user, together with their profile pictures and account logos.
      const url = await media.acceptImageUpload(request, BANNER_IMAGE_FIELD, `user:${memberOf(ctx).user.id}`);
      return verifyForms.setBanner(ctx, idOf(request.params), url);
    },
  });

  r.route({
    ...declared(forms.deleteBanner),
    handler: (request) => verifyForms.deleteBanner(accountContext(request), idOf(request.params)),
  });
}
