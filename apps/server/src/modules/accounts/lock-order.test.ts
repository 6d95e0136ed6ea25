import type { VerifyForm, WebhookEndpoint } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import type { HostResolver } from '../../lib/webhook-url.ts';
import { useTestApp } from '../../test-support/app.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';

/**
 * Issue #33 item 5 (ADR 30): changes that lock the account's row (API keys, webhook endpoints, the company, team
 * changes) and changes that lock one of its objects (forms, endpoints) all end at the account's audit chain head, and
 * their inserts' foreign keys share-lock the account row and the endpoints they deliver to. Taken in different
 * orders these deadlocked on PostgreSQL (7–8 of 16 requests answered 500); every request must now succeed.
 */

const resolveHost: HostResolver = async (hostname) => {
  if (hostname === 'hooks.example.com') return ['93.184.215.14'];
  throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
};

const t = useTestApp({ resolveHost });

async function form(owner: Owner, name: string): Promise<VerifyForm> {
  const response = await owner.c.post('/api/verify-forms', { account: owner.accountId, name });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<VerifyForm>();
}

async function endpoint(owner: Owner): Promise<WebhookEndpoint> {
  const response = await owner.c.post('/api/webhook-endpoints', {
    account: owner.accountId,
    url: 'https://hooks.example.com/veriform',
    eventTypes: ['*'],
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<WebhookEndpoint>();
}

describe('one lock order for account-wide and per-object changes', () => {
  it('keys, endpoints (made, edited, deleted), the company and form renames at once: every request answers 2xx', async () => {
    for (let round = 0; round < 3; round++) {
      const owner = await newOwner(t.app, `Busy ${round}`);
      // An endpoint that wants every event: each form rename also delivers to it (a foreign key to its row).
      const hooked = await endpoint(owner);
      const forms = await Promise.all([
        form(owner, 'A'),
        form(owner, 'B'),
        form(owner, 'C'),
        form(owner, 'D'),
      ]);
      // Endpoints to delete meanwhile: a DELETE's lock blocks the deliveries' foreign keys as FOR UPDATE did.
      const doomed = [
        await endpoint(owner),
        await endpoint(owner),
        await endpoint(owner),
        await endpoint(owner),
      ];
      const requests = Array.from({ length: 24 }, (_, i) => {
        switch (i % 6) {
          case 0:
            return owner.c.post('/api/api-keys', {
              account: owner.accountId,
              name: `Key ${i}`,
              mode: 'live',
              scopes: ['forms:read'],
            });
          case 1:
            return owner.c.post('/api/webhook-endpoints', {
              account: owner.accountId,
              url: `https://hooks.example.com/${i}`,
              eventTypes: ['form.updated'],
            });
          case 2:
            return owner.c.patch(`/api/accounts/${owner.accountId}`, { displayName: `Busy ${round} ${i}` });
          case 3:
            return owner.c.patch(`/api/webhook-endpoints/${hooked.id}`, { description: `Renamed ${i}` });
          case 4:
            return owner.c.request({
              method: 'DELETE',
              url: `/api/webhook-endpoints/${doomed[(i - 4) / 6]?.id}`,
            });
          default:
            return owner.c.patch(`/api/verify-forms/${forms[i % forms.length]?.id}`, { name: `Form ${i}` });
        }
      });
      const answers = await Promise.all(requests);
      const failed = answers.filter((r) => r.statusCode >= 300).map((r) => `${r.statusCode} ${r.body}`);
      expect(failed).toEqual([]);
    }
    // Three rounds of 24 requests: PGlite runs them one at a time, slowly on a busy machine.
  }, 60_000);
});
