import {
  contactabilityBatchRequestSchema,
  contactabilityBatchSchema,
  contactabilityCheckListQuerySchema,
  contactabilityCheckListSchema,
  contactabilityQuerySchema,
  contactabilityVerdictSchema,
} from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountContext } from '../../plugins/tenancy.ts';
import { problemResponses } from './responses.ts';

const verdictRules = `\`allowed\` is true when the account holds consent for the number at \`at\` (its newest
verification then, younger than the account's consent age, 18 months unless set otherwise, and not revoked since)
and, for \`purpose=marketing\`, the number's local time falls within the federal window (8:00 to 21:00) and its
state's (Florida, Oklahoma, Maryland 8:00 to 20:00; Texas 9:00 to 21:00, Sundays from 12:00), the time zone taken from
its area code (the stricter one when an area code spans two). \`reasons\` says why not; \`nextAllowedAt\` when the
window opens if only the window refuses. When the account checks reassigned numbers (its carrier lookup settings), a
consent that stands and whose latest reassigned-number check is older than the account's age for them (30 days unless
set otherwise), or was never made, is checked first, up to 8 at once and for at most a few seconds: a \`yes\` refuses
(\`number_reassigned\`). A check the provider does not answer, past the month's ceiling, or not answered in time does
not fail the verdict: it is judged on what was known. \`reassignment\` is the check judged with, \`reassignmentCheck\`
what was done. Every verdict is kept and listed at \`GET /api/v1/contactability/checks\`: the proof that the customer
checked before contacting.`;

/** "May I contact this number now?" in API v1 (issue #35): one question, a batch of up to 1,000, the verdicts kept. */
export async function contactabilityRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { contactability } = app.services;

  r.get(
    '/api/v1/contactability',
    {
      config: { account: { from: 'apiKey', can: 'checkContactability' } },
      schema: {
        operationId: 'checkContactability',
        summary: 'May I contact this number now?',
        description: `${verdictRules} Needs \`contactability:read\`.`,
        tags: ['Contactability'],
        querystring: contactabilityQuerySchema,
        response: { 200: contactabilityVerdictSchema, ...problemResponses },
      },
    },
    async (request) => {
      const [verdict] = await contactability.check(accountContext(request), [request.query]);
      return verdict;
    },
  );

  r.post(
    '/api/v1/contactability',
    {
      config: { account: { from: 'apiKey', can: 'checkContactability' } },
      schema: {
        operationId: 'checkContactabilityBatch',
        summary: 'Check up to 1,000 numbers at once',
        description: `The same verdict for each of \`checks\`, in the order asked. A bad entry refuses the whole batch
with a 400 naming it (\`checks.3.phone\`). ${verdictRules} Needs \`contactability:read\`.`,
        tags: ['Contactability'],
        body: contactabilityBatchRequestSchema,
        response: { 200: contactabilityBatchSchema, ...problemResponses },
      },
    },
    async (request) => ({
      results: await contactability.check(
        accountContext(request),
        request.body.checks,
        (i, field) => `checks.${i}.${field}`,
      ),
    }),
  );

  r.get(
    '/api/v1/contactability/checks',
    {
      config: { account: { from: 'apiKey', can: 'checkContactability' } },
      schema: {
        operationId: 'listContactabilityChecks',
        summary: 'List the verdicts given',
        description: `Every verdict this account was given (in this key's mode), newest first, in cursor pages; filter by
\`phone\`. Needs \`contactability:read\`.`,
        tags: ['Contactability'],
        querystring: contactabilityCheckListQuerySchema,
        response: { 200: contactabilityCheckListSchema, ...problemResponses },
      },
    },
    async (request) => contactability.page(accountContext(request), request.query),
  );
}
