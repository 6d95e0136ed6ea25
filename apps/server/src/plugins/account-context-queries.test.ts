import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test-support/app.ts';
import type { TestClient } from '../test-support/client.ts';
import { statementsOf as statementsOfDb } from '../test-support/statements.ts';
import { newOwner, type Owner } from '../test-support/teams.ts';

/**
 * What resolving the account context costs in statements (ADR 15): a member's call reads the membership the session
 * query brought (ADR 11), so a list answers with the session query and the list's own, and nothing else touches
 * `memberships`. Counted at the driver (node-postgres' pool or the PGlite instance), pg-boss's polling left out.
 */

const t = useTestApp();

const statementsOf = (call: () => Promise<unknown>) => statementsOfDb(t.db.db, call);

const touchesMemberships = (text: string) => text.includes('"memberships"');

let owner: Owner;
let formId: number;

beforeAll(async () => {
  owner = await newOwner(t.app, 'Counted Co');
  const form = await owner.c.post('/api/verify-forms', { name: 'Counted', account: owner.accountId });
  formId = form.json().id;
});

const get = async (c: TestClient, url: string) => {
  const response = await c.get(url);
  expect(response.statusCode, url).toBe(200);
};

describe('statements per call of a member', () => {
  // [call, its statements before the account context (measured on both engines, ADR 15), of which read memberships]
  it.each([
    ['the forms list', () => `/api/verify-forms?account=${owner.accountId}`, 3, 1],
    ['the activity log', () => `/api/verifications?account=${owner.accountId}`, 3, 1],
    // The session, the verifications' two statements, the funnel's three (live data since issue #33: the test rows
    // are read inside them, not in statements of their own).
    ['the dashboard report', () => `/api/verifications/report?account=${owner.accountId}`, 6, 1],
    [
      'the team (its own query reads memberships too)',
      () => `/api/memberships?accountId=${owner.accountId}`,
      2,
      2,
    ],
    ['one form (path object)', () => `/api/verify-forms/${formId}`, 3, 1],
  ])(
    '%s: no more statements than before, and only the session query reads memberships',
    async (_name, url, before, membershipReads) => {
      const statements = await statementsOf(() => get(owner.c, url()));
      expect(statements.length).toBeLessThanOrEqual(before);
      expect(statements.filter(touchesMemberships)).toHaveLength(membershipReads);
    },
  );
});
