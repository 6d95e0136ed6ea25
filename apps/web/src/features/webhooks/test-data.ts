import type { WebhookDelivery, WebhookEndpoint } from '@veriform/contracts';
import { makeInitialData, makeMembership, makeUser } from '../../test/fake-server';

export const owner = makeMembership();
export const member = makeMembership({ role: 'member', canSearchData: true, canViewReports: true });
export const signedIn = (membership = owner) =>
  makeInitialData({ user: makeUser(), memberships: [membership], currentMembership: membership });

export function makeEndpoint(over: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: 5,
    account: 21,
    url: 'https://crm.example.com/hooks/veriform',
    description: 'CRM lead sync',
    eventTypes: ['*'],
    enabled: true,
    created: '2026-01-02T10:00:00Z',
    secretPreview: 'whsec_AbCd…',
    disabledAt: null,
    disabledReason: null,
    failingSince: null,
    createdBy: { id: 3, name: 'Grace Hopper', email: 'grace@example.com' },
    ...over,
  };
}

export function makeDelivery(over: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    eventId: 'evt_1',
    eventType: 'verification.approved',
    created: '2026-01-03T10:00:00Z',
    status: 'succeeded',
    nextAttemptAt: null,
    attempts: [
      {
        at: '2026-01-03T10:00:01Z',
        statusCode: 200,
        latencyMs: 42,
        error: null,
        responseSnippet: '{"ok":true}',
        trigger: 'scheduled',
      },
    ],
    ...over,
  };
}
