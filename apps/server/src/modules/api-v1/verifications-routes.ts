import {
  apiCheckResultSchema,
  apiCheckVerificationRequestSchema,
  apiStartVerificationRequestSchema,
  apiVerificationIdParamsSchema,
  apiVerificationListQuerySchema,
  apiVerificationListSchema,
  apiVerificationSchema,
  type Capability,
  CERTIFICATE_KEYS_PATH,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountContext } from '../../plugins/tenancy.ts';
import { readEntry } from '../audit/index.ts';
import { certificatePdfResponse, sendCertificate, signedCertificateResponse } from '../certificates/index.ts';
import { contextOf } from '../public-verify/index.ts';
import { problem, problemResponses } from './responses.ts';

/** Reading a verification: a key that starts them (masked numbers) or one that reads them (full numbers). */
const readers: readonly Capability[] = ['writeVerifications', 'searchData'];

const notFound = { 404: problem('No such verification in this key’s account: `not_found`.') };

export async function verificationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { apiVerifications, certificates, audit, db } = app.services;

  r.post(
    '/api/v1/verifications',
    {
      config: { account: { from: 'apiKey', can: 'writeVerifications' } },
      schema: {
        operationId: 'startVerification',
        summary: 'Start a verification',
        description: `Sends a one-time code to \`to\` through a live form, under every rule of the hosted page: mobile numbers
only, the account's allowed countries, 30 s between codes to one number, daily limits per number, address and account.
A newer code replaces the older pending one. With a \`vf_test_\` key, \`to\` must be one of the account's test numbers
(nothing is sent; the number's fixed code approves it). Leave \`to\` out to get \`hostedUrl\` instead: the form's hosted
page, bound to \`externalRefId\`, where the consumer verifies in the browser. Needs \`verifications:write\`.`,
        tags: ['Verifications'],
        body: apiStartVerificationRequestSchema,
        response: {
          201: apiVerificationSchema,
          ...problemResponses,
          404: problem('No form with this `formId` in the key’s account: `not_found`.'),
          409: problem('The form is inactive: `form_not_live`.'),
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await apiVerifications.start(accountContext(request), request.body, contextOf(request))),
  );

  r.get(
    '/api/v1/verifications',
    {
      config: { account: { from: 'apiKey', can: readers } },
      schema: {
        operationId: 'listVerifications',
        summary: 'List verifications',
        description: `Newest first, in cursor pages: pass \`nextCursor\` as \`startingAfter\` for the next page. Pages never skip
or repeat a verification while new ones arrive. Filter by \`status\`, \`formId\`, \`externalRefId\` and the creation time.
Numbers are masked unless the key has \`verifications:read\`. Needs \`verifications:read\` or \`verifications:write\`.`,
        tags: ['Verifications'],
        querystring: apiVerificationListQuerySchema,
        response: { 200: apiVerificationListSchema, ...problemResponses },
      },
    },
    async (request) => {
      const ctx = accountContext(request);
      const page = await apiVerifications.list(ctx, request.query);
      // Up to 100 full numbers at once (issue #33 item 8): recorded as one GET is, once per page; masked pages are not.
      if (ctx.can('searchData'))
        await audit.record(db, ctx, readEntry('verification.list_read', page.data.length, request.query));
      return page;
    },
  );

  r.get(
    '/api/v1/verifications/:id',
    {
      config: { account: { from: 'apiKey', can: readers } },
      schema: {
        operationId: 'getVerification',
        summary: 'Get a verification',
        description:
          'Its status now (`expired` once ten minutes passed), tries left and times. The number is masked unless the key has `verifications:read`. Needs `verifications:read` or `verifications:write`.',
        tags: ['Verifications'],
        params: apiVerificationIdParamsSchema,
        response: { 200: apiVerificationSchema, ...problemResponses, ...notFound },
      },
    },
    async (request) => apiVerifications.get(accountContext(request), request.params.id),
  );

  r.post(
    '/api/v1/verifications/:id/check',
    {
      config: { account: { from: 'apiKey', can: 'writeVerifications' } },
      schema: {
        operationId: 'checkVerification',
        summary: 'Check a code',
        description: `Always 200 with what happened, never a silent "pending": \`approved\` (the verification is kept as evidence
and shows in the activity log), \`incorrect\` (with \`attemptsLeft\`), \`max_attempts\` (locked after the 5th wrong code),
\`expired\`, \`already_approved\` or \`replaced\` (a newer code was sent). 404 only for an unknown id. Needs
\`verifications:write\`.`,
        tags: ['Verifications'],
        params: apiVerificationIdParamsSchema,
        body: apiCheckVerificationRequestSchema,
        response: {
          200: apiCheckResultSchema,
          ...problemResponses,
          ...notFound,
          409: problem('The form was made inactive: `form_not_live`.'),
        },
      },
    },
    async (request) =>
      apiVerifications.check(
        accountContext(request),
        request.params.id,
        request.body.code,
        contextOf(request),
      ),
  );

  r.post(
    '/api/v1/verifications/:id/resend',
    {
      config: { account: { from: 'apiKey', can: 'writeVerifications' } },
      schema: {
        operationId: 'resendVerification',
        summary: 'Send a new code',
        description: `For a \`pending\` or \`expired\` verification: a new code to the same number (or address) through the same
form, under the same rules (30 s between codes, the daily limits). The answer is a new verification, which replaces
this one (its status becomes \`replaced\`). Needs \`verifications:write\`.`,
        tags: ['Verifications'],
        params: apiVerificationIdParamsSchema,
        response: {
          201: apiVerificationSchema,
          ...problemResponses,
          ...notFound,
          409: problem(
            'Approved, canceled, replaced or locked (`verification_not_pending`), or the form is inactive.',
          ),
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await apiVerifications.resend(accountContext(request), request.params.id, contextOf(request))),
  );

  r.post(
    '/api/v1/verifications/:id/cancel',
    {
      config: { account: { from: 'apiKey', can: 'writeVerifications' } },
      schema: {
        operationId: 'cancelVerification',
        summary: 'Cancel a verification',
        description:
          'Its code stops working at once; the record stays, with status `canceled`. Canceling it again answers the same. Needs `verifications:write`.',
        tags: ['Verifications'],
        params: apiVerificationIdParamsSchema,
        response: {
          200: apiVerificationSchema,
          ...problemResponses,
          ...notFound,
          409: problem('Already approved, locked or replaced: `verification_not_pending`.'),
        },
      },
    },
    async (request) => apiVerifications.cancel(accountContext(request), request.params.id),
  );

  // Typed without the zod provider, as the session route (certificates/routes.ts): the answer is the signed string.
  app.get(
    '/api/v1/verifications/:id/certificate',
    {
      config: { account: { from: 'apiKey', can: 'searchData' } },
      schema: {
        operationId: 'getVerificationCertificate',
        summary: 'Get a verification certificate',
        description: `The approved verification's certificate (issued on the first request, the same ever after): the company, form,
masked number, consent text, timeline and evidence, signed with Ed25519 over its canonical JSON (RFC 8785). Check it
with the keys at \`${CERTIFICATE_KEYS_PATH}\`, e.g. \`npx veriform-verify-certificate file.json --keys-url …\`;
keep the bytes as they are (a reformatted file no longer verifies). Needs \`verifications:read\`.`,
        tags: ['Verifications'],
        params: apiVerificationIdParamsSchema,
        response: {
          200: signedCertificateResponse,
          ...problemResponses,
          404: problem('No such verification in this key’s account, or it is not approved: `not_found`.'),
        },
      },
    },
    async (request, reply) =>
      sendCertificate(
        reply,
        await certificates.forAttempt(
          accountContext(request),
          apiVerificationIdParamsSchema.parse(request.params).id,
        ),
        'json',
      ),
  );

  app.get(
    '/api/v1/verifications/:id/certificate.pdf',
    {
      config: { account: { from: 'apiKey', can: 'searchData' } },
      schema: {
        operationId: 'getVerificationCertificatePdf',
        summary: 'Get a verification certificate as a PDF',
        description: `The same certificate as a readable PDF: everything it says in words, its signature, a QR code and link to
the public check page, and the signed JSON attached (\`veriform-certificate-<id>.json\`, the exact bytes of the JSON
certificate). A seal after \`%%EOF\` signs every byte of the file with the certificate's key, so one changed byte is
caught: \`npx veriform-verify-certificate file.pdf --keys-url …\` checks it with the keys at
\`${CERTIFICATE_KEYS_PATH}\`, no database needed. The same bytes on every download. Needs \`verifications:read\`.`,
        tags: ['Verifications'],
        params: apiVerificationIdParamsSchema,
        response: {
          200: certificatePdfResponse,
          ...problemResponses,
          404: problem('No such verification in this key’s account, or it is not approved: `not_found`.'),
        },
      },
    },
    async (request, reply) =>
      sendCertificate(
        reply,
        await certificates.pdfForAttempt(
          accountContext(request),
          apiVerificationIdParamsSchema.parse(request.params).id,
        ),
        'pdf',
      ),
  );
}
