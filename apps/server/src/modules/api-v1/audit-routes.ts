import { apiAuditEventListQuerySchema, apiAuditEventListSchema, MAX_BIGINT_ID } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { cursorPage, parseIdCursor } from '../../lib/cursor-pages.ts';
import { keyLivemode } from '../../plugins/account-context.ts';
import { accountContext } from '../../plugins/tenancy.ts';
import { readEntry } from '../audit/index.ts';
import { problemResponses } from './responses.ts';

export async function auditEventRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auditReader, audit, db } = app.services;

  r.get(
    '/api/v1/audit-events',
    {
      config: { account: { from: 'apiKey', can: 'readAuditLog' } },
      schema: {
        operationId: 'listAuditEvents',
        summary: 'List audit events',
        description: `Who did what in the account, newest first, in cursor pages: sign-ins, team and form changes, exports,
views of verifications, API keys. Each event is chained to the one before by \`prevHash\`/\`hash\` (SHA-256 of its canonical
JSON), so a removed or edited event is detectable. The audit log is live data (what members and keys did to the real
account): a \`vf_test_\` key's list is always empty. Needs \`audit:read\`.`,
        tags: ['Audit log'],
        querystring: apiAuditEventListQuerySchema,
        response: { 200: apiAuditEventListSchema, ...problemResponses },
      },
    },
    async (request) => {
      const ctx = accountContext(request);
      const { limit, startingAfter } = request.query;
      const cursor = parseIdCursor(startingAfter, MAX_BIGINT_ID);
      // Test mode never reaches live data (issue #33, ADR 29), and every audit event is live.
      if (keyLivemode(ctx) === false) return cursorPage([], false);
      const { rows, hasMore } = await auditReader.page(ctx, { limit, startingAfter: cursor });
      // Read after the page, so the page does not hold its own event (issue #33 item 8).
      await audit.record(db, ctx, readEntry('audit_log.list_read', rows.length, request.query));
      return cursorPage(
        rows.map((row) => ({ ...row, livemode: true })),
        hasMore,
      );
    },
  );
}
