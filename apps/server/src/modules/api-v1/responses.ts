import { apiProblemSchema } from '@veriform/contracts';

/** An error answer of the document: problem details with the codes its description names. */
export const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: apiProblemSchema } },
});

/**
 * The error answers every operation may give, for the document: problem details as the one error handler writes
 * them (modules/api-v1/problems.ts). Operations add their own (404, 409…) beside these.
 */
export const problemResponses = {
  400: problem('Invalid request: `invalid_request`, or a code of the Errors table.'),
  401: problem('No live API key: `unauthenticated`.'),
  403: problem('The key lacks the scope: `insufficient_scope`.'),
  429: problem('Too many requests: `rate_limited`; see `Retry-After`.'),
};
