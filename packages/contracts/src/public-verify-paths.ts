/**
 * The hosted verification page's API paths (Fastify's patterns). Zod-free: the page's own small client
 * (apps/web/src/verify/api.ts) imports this module alone (`@veriform/contracts/public-verify-paths`) to stay inside
 * its JavaScript budget, and the declarations that hold the schemas (`publicVerifyEndpoints`) take their paths from
 * here, so the page cannot call another path than the server registers.
 */
export const publicVerifyPaths = {
  form: '/api/public/verify-forms/:publicId',
  sendCode: '/api/public/verify-forms/:publicId/send-code',
  delivery: '/api/public/attempts/:attemptId/delivery',
  check: '/api/public/attempts/:attemptId/check',
  /** The consumer's revocation of consent (issue #35), from the public revocation page. */
  revoke: '/api/public/verify-forms/:publicId/revocations',
} as const;
