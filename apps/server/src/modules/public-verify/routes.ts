import { publicVerifyEndpoints as publicApi } from '@veriform/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.ts';
import { declared } from '../../plugins/endpoints.ts';
import { originOf } from '../../plugins/tenancy.ts';
import { publicDeliveryStatus } from './delivery.ts';
import type { PublicRequestContext } from './service.ts';

/**
 * Who asks for or checks a code, kept as evidence: the request's origin (tenancy's `originOf`: the address as
 * TRUST_PROXY reads it, the agent cut to a sane length). API v1's verification routes use it too.
 */
export function contextOf(request: FastifyRequest): PublicRequestContext {
  return { ip: request.ip, userAgent: originOf(request).userAgent };
}

/**
 * The public verification API (DESIGN §5, `/api/public/...`), as `publicVerifyEndpoints` declares it: no login, CSRF
 * like every unsafe call (the page's data carries the token). The bodies are validated by the service, after the form
 * is loaded, because every field message must be in the form's language.
 */
export async function publicVerifyRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { publicVerify } = app.services;

  r.route({
    ...declared(publicApi.form),
    handler: async (request, reply) => {
      const form = await publicVerify.publicForm(
        request.params.publicId,
        request.user?.id ?? null,
        contextOf(request),
      );
      if (!form) throw new AppError('not_found');
      // A preview depends on who asks: never kept by a shared cache.
      reply.header('Cache-Control', 'private, no-cache');
      return form;
    },
  });

  r.route({
    ...declared(publicApi.sendCode),
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(await publicVerify.sendCode(request.params.publicId, request.body, contextOf(request))),
  });

  r.route({
    ...declared(publicApi.delivery),
    handler: async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return publicDeliveryStatus(app.services, request.params.attemptId);
    },
  });

  r.route({
    ...declared(publicApi.check),
    handler: async (request) =>
      publicVerify.checkCode(request.params.attemptId, request.body, contextOf(request)),
  });

  r.route({
    ...declared(publicApi.revoke),
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(await publicVerify.revoke(request.params.publicId, request.body, contextOf(request))),
  });
}
