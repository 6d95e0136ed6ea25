import {
  checkCodeResponseSchema,
  publicDeliveryStatusSchema,
  publicVerifyFormSchema,
  sendCodeResponseSchema,
} from '@veriform/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { originOf } from '../../plugins/tenancy.ts';
import { publicDeliveryStatus } from './delivery.ts';
import type { PublicRequestContext } from './service.ts';

/** Any string: the service answers 404 for anything that is not a live form (or a pending attempt's id). */
const formParams = z.object({ publicId: z.string() });
const attemptParams = z.object({ attemptId: z.string() });

/**
 * Who asks for or checks a code, kept as evidence: the request's origin (tenancy's `originOf`: the address as
 * TRUST_PROXY reads it, the agent cut to a sane length). API v1's verification routes use it too.
 */
export function contextOf(request: FastifyRequest): PublicRequestContext {
  return { ip: request.ip, userAgent: originOf(request).userAgent };
}

/**
 * The public verification API (DESIGN §5, `/api/public/...`): no login, CSRF like every unsafe call (the page's data
 * carries the token). The bodies are validated by the service, after the form is loaded, because every field
 * message must be in the form's language.
 */
export async function publicVerifyRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { publicVerify } = app.services;

  r.get(
    '/api/public/verify-forms/:publicId',
    { schema: { params: formParams, response: { 200: publicVerifyFormSchema } } },
    async (request, reply) => {
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
  );

  r.post(
    '/api/public/verify-forms/:publicId/send-code',
    { schema: { params: formParams, response: { 201: sendCodeResponseSchema } } },
    async (request, reply) =>
      reply
        .code(201)
        .send(await publicVerify.sendCode(request.params.publicId, request.body, contextOf(request))),
  );

  // Polled by the page while the consumer waits for the code (issue #18 item 5).
  r.get(
    '/api/public/attempts/:attemptId/delivery',
    { schema: { params: attemptParams, response: { 200: publicDeliveryStatusSchema } } },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return publicDeliveryStatus(app.services, request.params.attemptId);
    },
  );

  r.post(
    '/api/public/attempts/:attemptId/check',
    { schema: { params: attemptParams, response: { 200: checkCodeResponseSchema } } },
    async (request) => publicVerify.checkCode(request.params.attemptId, request.body, contextOf(request)),
  );
}
