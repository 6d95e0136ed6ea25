import type {
  ApiKey,
  AuditEvent,
  AuditEventList,
  CreatedApiKey,
  OwnedCredentials,
  WebhookEndpoint,
} from '@veriform/contracts';
import { ownedCredentialsTexts } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { join, newOwner, type Owner, type Person } from '../../test-support/teams.ts';

/**
 * Issue #33 item 2 (ADR 30): keys and webhook endpoints belong to the owner who made them. Lists name that person; an
 * owner removed, leaving or made a member loses them (keys revoked, endpoints disabled) in the same transaction, but
 * for those the owner doing it keeps by id, and the audit log says which went and which stayed, and who decided.
 */

const t = useTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' } });

const permissionDenied = {
  detail: 'You are not permitted to perform that action.',
  MainCode_: 'permission_denied',
};

async function createKey(person: Pick<Person, 'c'>, accountId: number, name = 'CRM'): Promise<CreatedApiKey> {
  const response = await person.c.post('/api/api-keys', {
    account: accountId,
    name,
    mode: 'live',
    scopes: ['forms:read'],
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedApiKey>();
}

async function createEndpoint(
  person: Pick<Person, 'c'>,
  accountId: number,
  path = 'hook',
): Promise<WebhookEndpoint> {
  const response = await person.c.post('/api/webhook-endpoints', {
    account: accountId,
    url: `http://127.0.0.1:9/${path}`,
    eventTypes: ['*'],
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<WebhookEndpoint>();
}

async function keysOf(owner: Owner): Promise<ApiKey[]> {
  const response = await owner.c.get(`/api/api-keys?account=${owner.accountId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ results: ApiKey[] }>().results;
}

async function endpointsOf(owner: Owner): Promise<WebhookEndpoint[]> {
  const response = await owner.c.get(`/api/webhook-endpoints?account=${owner.accountId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ results: WebhookEndpoint[] }>().results;
}

const byId = <T extends { id: number }>(list: T[], id: number): T | undefined =>
  list.find((x) => x.id === id);

async function eventsOf(owner: Owner): Promise<AuditEvent[]> {
  const response = await owner.c.get(`/api/audit-events?account=${owner.accountId}&pageSize=100`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditEventList>().results;
}

const preview = (owner: Pick<Person, 'c'>, membershipId: number) =>
  owner.c.get(`/api/memberships/${membershipId}/owned-credentials`);

const remove = (owner: Pick<Person, 'c'>, membershipId: number, body?: unknown) =>
  owner.c.request({ method: 'DELETE', url: `/api/memberships/${membershipId}`, body });

const demote = (owner: Pick<Person, 'c'>, membershipId: number, keep: Record<string, unknown> = {}) =>
  owner.c.post(`/api/memberships/${membershipId}/update-role`, { role: 'member', ...keep });

/** A call as a customer's system makes it with the key. */
const withKey = (key: string, _accountId: number) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/forms`,
    headers: { authorization: `Bearer ${key}` },
  });

/** Owner A's account with a second owner B who made two keys and two endpoints, and A's own key. */
async function twoOwners() {
  const a = await newOwner(t.app, 'Shared Co');
  const b = await join(t.app, a, { role: 'owner' });
  const bKeys = [await createKey(b, a.accountId, 'B one'), await createKey(b, a.accountId, 'B two')];
  const bEndpoints = [
    await createEndpoint(b, a.accountId, 'one'),
    await createEndpoint(b, a.accountId, 'two'),
  ];
  const aKey = await createKey(a, a.accountId, 'A own');
  const aEndpoint = await createEndpoint(a, a.accountId, 'a');
  return { a, b, bKeys, bEndpoints, aKey, aEndpoint };
}

describe('who created it', () => {
  it('keys and endpoints name their creator in lists, answers and details; an unknown one is null', async () => {
    const { a, b, bKeys, bEndpoints, aKey } = await twoOwners();
    const bAsCreator = { id: b.userId, name: expect.any(String), email: b.email };
    expect(aKey.createdBy).toEqual({ id: a.userId, name: 'Ada Lovelace', email: a.email });
    expect(bKeys[0]?.createdBy).toEqual(bAsCreator);
    expect(bEndpoints[0]?.createdBy).toEqual(bAsCreator);
    const keys = await keysOf(a);
    expect(byId(keys, aKey.id)?.createdBy).toEqual({ id: a.userId, name: 'Ada Lovelace', email: a.email });
    expect(byId(keys, bKeys[1]?.id ?? 0)?.createdBy).toEqual(bAsCreator);
    expect(byId(await endpointsOf(a), bEndpoints[1]?.id ?? 0)?.createdBy).toEqual(bAsCreator);
    const detail = await a.c.get(`/api/webhook-endpoints/${bEndpoints[0]?.id}`);
    expect(detail.json<WebhookEndpoint>().createdBy).toEqual(bAsCreator);
    const patched = await a.c.patch(`/api/webhook-endpoints/${bEndpoints[0]?.id}`, { description: 'CRM' });
    expect(patched.json<WebhookEndpoint>().createdBy).toEqual(bAsCreator);

    // Endpoints made before the creator was recorded: null.
    await t.db.db
      .update(schema.webhookEndpoints)
      .set({ createdByUserId: null })
      .where(eq(schema.webhookEndpoints.id, bEndpoints[1]?.id ?? 0));
    expect(byId(await endpointsOf(a), bEndpoints[1]?.id ?? 0)?.createdBy).toBeNull();
  });
});

describe('GET /api/memberships/{id}/owned-credentials', () => {
  it('the person’s active keys and enabled endpoints, newest first; owners only; another account’s: 404', async () => {
    const { a, b, bKeys, bEndpoints } = await twoOwners();
    const revoked = await createKey(b, a.accountId, 'B gone');
    await a.c.request({ method: 'DELETE', url: `/api/api-keys/${revoked.id}` });
    const off = await createEndpoint(b, a.accountId, 'off');
    await a.c.patch(`/api/webhook-endpoints/${off.id}`, { enabled: false });

    const response = await preview(a, b.membership.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<OwnedCredentials>()).toEqual({
      apiKeys: [bKeys[1], bKeys[0]].map((key) => ({
        id: key?.id,
        name: key?.name,
        prefix: key?.prefix,
        mode: 'live',
      })),
      webhookEndpoints: [bEndpoints[1], bEndpoints[0]].map((endpoint) => ({
        id: endpoint?.id,
        url: endpoint?.url,
        description: '',
      })),
    });
    expect((await preview(a, a.membership.id)).json()).toMatchObject({ apiKeys: [{ name: 'A own' }] });

    const member = await join(t.app, a);
    expect((await preview(member, b.membership.id)).json()).toEqual(permissionDenied);
    const stranger = await newOwner(t.app, 'Stranger');
    expect((await preview(stranger, b.membership.id)).statusCode).toBe(404);
  });
});

describe('removing or demoting an owner', () => {
  it('removal revokes their keys and disables their endpoints but those kept; others’ stay; all audited', async () => {
    const { a, b, bKeys, bEndpoints, aKey, aEndpoint } = await twoOwners();
    const [kept, gone] = bKeys;
    const [keptEndpoint, goneEndpoint] = bEndpoints;
    if (!kept || !gone || !keptEndpoint || !goneEndpoint) throw new Error('set-up');

    const response = await remove(a, b.membership.id, {
      keepApiKeyIds: [kept.id],
      keepWebhookEndpointIds: [keptEndpoint.id],
    });
    expect(response.statusCode, response.body).toBe(204);

    const keys = await keysOf(a);
    expect(byId(keys, gone.id)?.revokedAt).toEqual(expect.any(String));
    expect(byId(keys, kept.id)?.revokedAt).toBeNull();
    expect(byId(keys, aKey.id)?.revokedAt).toBeNull();
    expect((await withKey(gone.key, a.accountId)).statusCode).toBe(401);
    expect((await withKey(kept.key, a.accountId)).statusCode).toBe(200);
    const endpoints = await endpointsOf(a);
    expect(byId(endpoints, goneEndpoint.id)).toMatchObject({
      enabled: false,
      disabledReason: 'creator_removed',
    });
    expect(byId(endpoints, goneEndpoint.id)?.disabledAt).toEqual(expect.any(String));
    expect(byId(endpoints, keptEndpoint.id)).toMatchObject({ enabled: true, disabledReason: null });
    expect(byId(endpoints, aEndpoint.id)).toMatchObject({ enabled: true });
    // The kept ones still name B: the list says whose they were.
    expect(byId(keys, kept.id)?.createdBy).toMatchObject({ id: b.userId });

    const events = (await eventsOf(a)).filter((e) => e.actor.id === String(a.userId));
    const person = [
      { type: 'membership', id: String(b.membership.id), name: b.email },
      { type: 'user', id: String(b.userId), name: b.email },
    ];
    const actionsAfterRemoval = events
      .slice(0, 5)
      .map((e) => [e.action, e.targets[0]?.id])
      .reverse();
    expect(actionsAfterRemoval).toEqual([
      ['membership.removed', String(b.membership.id)],
      ['api_key.revoked', String(gone.id)],
      ['webhook_endpoint.disabled', String(goneEndpoint.id)],
      ['api_key.kept', String(kept.id)],
      ['webhook_endpoint.kept', String(keptEndpoint.id)],
    ]);
    const find = (action: AuditEvent['action']) => events.find((e) => e.action === action);
    expect(find('api_key.revoked')).toMatchObject({
      targets: [{ type: 'api_key', id: String(gone.id), name: `B two (${gone.prefix}…)` }, ...person],
      changes: { reason: 'creator_removed' },
    });
    expect(find('webhook_endpoint.disabled')).toMatchObject({
      targets: [{ type: 'webhook_endpoint', id: String(goneEndpoint.id), name: goneEndpoint.url }, ...person],
      changes: { enabled: [true, false], reason: 'creator_removed' },
    });
    expect(find('api_key.kept')).toMatchObject({
      actor: { type: 'user', id: String(a.userId), name: a.email },
      targets: [{ type: 'api_key', id: String(kept.id) }, ...person],
      changes: { reason: 'creator_removed' },
    });
    expect(find('webhook_endpoint.kept')?.targets[0]).toMatchObject({ id: String(keptEndpoint.id) });
  });

  it('demotion to member does the same (nothing kept: all go); promotion and a member’s role take nothing', async () => {
    const { a, b, bKeys, bEndpoints, aKey } = await twoOwners();
    const promoted = await a.c.post(`/api/memberships/${b.membership.id}/update-role`, { role: 'owner' });
    expect(promoted.statusCode).toBe(200);
    expect((await preview(a, b.membership.id)).json<OwnedCredentials>().apiKeys).toHaveLength(2);

    const demoted = await demote(a, b.membership.id);
    expect(demoted.statusCode, demoted.body).toBe(200);
    const keys = await keysOf(a);
    for (const key of bKeys) expect(byId(keys, key.id)?.revokedAt).toEqual(expect.any(String));
    expect(byId(keys, aKey.id)?.revokedAt).toBeNull();
    const endpoints = await endpointsOf(a);
    for (const endpoint of bEndpoints)
      expect(byId(endpoints, endpoint.id)).toMatchObject({
        enabled: false,
        disabledReason: 'creator_removed',
      });
    const revocations = (await eventsOf(a)).filter((e) => e.action === 'api_key.revoked');
    expect(revocations.map((e) => e.changes)).toEqual([
      { reason: 'creator_demoted' },
      { reason: 'creator_demoted' },
    ]);
    // Made a member again: still a member, nothing more to take.
    expect((await demote(a, b.membership.id)).statusCode).toBe(200);
    expect((await eventsOf(a)).filter((e) => e.action === 'api_key.revoked')).toHaveLength(2);
  });

  it('a key kept when its creator was demoted goes when they are removed (or leave)', async () => {
    const { a, b, bKeys } = await twoOwners();
    const [kept] = bKeys;
    if (!kept) throw new Error('set-up');
    expect((await demote(a, b.membership.id, { keepApiKeyIds: [kept.id] })).statusCode).toBe(200);
    expect(byId(await keysOf(a), kept.id)?.revokedAt).toBeNull();
    expect((await preview(a, b.membership.id)).json<OwnedCredentials>().apiKeys).toEqual([
      expect.objectContaining({ id: kept.id }),
    ]);
    // B, a member now, cannot keep anything when leaving (only owners decide), and leaving takes the key.
    expect((await remove(b, b.membership.id, { keepApiKeyIds: [kept.id] })).json()).toEqual(permissionDenied);
    expect((await remove(b, b.membership.id)).statusCode).toBe(204);
    expect(byId(await keysOf(a), kept.id)?.revokedAt).toEqual(expect.any(String));
    const last = (await eventsOf(a)).find((e) => e.action === 'api_key.revoked');
    expect(last).toMatchObject({ actor: { id: String(b.userId) }, changes: { reason: 'creator_removed' } });
  });

  it('an owner leaving keeps what they choose, like any owner removing them', async () => {
    const { a, b, bKeys } = await twoOwners();
    const [kept, gone] = bKeys;
    if (!kept || !gone) throw new Error('set-up');
    expect((await remove(b, b.membership.id, { keepApiKeyIds: [kept.id] })).statusCode).toBe(204);
    const keys = await keysOf(a);
    expect(byId(keys, kept.id)?.revokedAt).toBeNull();
    expect(byId(keys, gone.id)?.revokedAt).toEqual(expect.any(String));
  });

  it('an id that is not one of theirs, active, is a 400 on its field, and nothing changes', async () => {
    const { a, b, bKeys, bEndpoints, aKey, aEndpoint } = await twoOwners();
    const stranger = await newOwner(t.app, 'Stranger');
    const theirKey = await createKey(stranger, stranger.accountId);
    const revoked = await createKey(b, a.accountId, 'B revoked');
    await a.c.request({ method: 'DELETE', url: `/api/api-keys/${revoked.id}` });
    const keyField = { keepApiKeyIds: [ownedCredentialsTexts.notTheirs], MainCode_: 'validation_error' };
    const endpointField = {
      keepWebhookEndpointIds: [ownedCredentialsTexts.notTheirs],
      MainCode_: 'validation_error',
    };
    for (const [body, expected] of [
      [{ keepApiKeyIds: [aKey.id] }, keyField],
      [{ keepApiKeyIds: [theirKey.id] }, keyField],
      [{ keepApiKeyIds: [revoked.id] }, keyField],
      [{ keepApiKeyIds: [999_999] }, keyField],
      [{ keepWebhookEndpointIds: [aEndpoint.id] }, endpointField],
    ] as const) {
      for (const response of [
        await remove(a, b.membership.id, body),
        await demote(a, b.membership.id, body),
      ]) {
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json()).toEqual(expected);
      }
    }
    for (const body of [
      { keepApiKeyIds: [bKeys[0]?.id, bKeys[0]?.id] },
      { keepApiKeyIds: ['1'] },
      { keepApiKeyIds: 1 },
      { keepWebhookEndpointIds: [0] },
      { keepSomething: [1] },
    ]) {
      expect((await remove(a, b.membership.id, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    // Nothing happened: B is still an owner with everything working.
    const team = await a.c.get(`/api/memberships/${b.membership.id}`);
    expect(team.json()).toMatchObject({ role: 'owner' });
    const owned = (await preview(a, b.membership.id)).json<OwnedCredentials>();
    expect(owned.apiKeys).toHaveLength(2);
    expect(owned.webhookEndpoints.map((e) => e.id).sort()).toEqual(bEndpoints.map((e) => e.id).sort());
  });

  it('a member removed who never was an owner: nothing to revoke, nothing recorded but the removal', async () => {
    const a = await newOwner(t.app);
    const m = await join(t.app, a);
    expect((await preview(a, m.membership.id)).json()).toEqual({ apiKeys: [], webhookEndpoints: [] });
    expect((await remove(a, m.membership.id)).statusCode).toBe(204);
    const actions = (await eventsOf(a)).map((e) => e.action);
    expect(actions.filter((x) => x.startsWith('api_key') || x.startsWith('webhook_endpoint'))).toEqual([]);
  });
});

describe('races', () => {
  it('an owner removed while creating keys and endpoints at once: none of theirs survives working', async () => {
    for (let round = 0; round < 4; round++) {
      const a = await newOwner(t.app, `Race ${round}`);
      const b = await join(t.app, a, { role: 'owner' });
      const creations = Array.from({ length: 16 }, (_, i) =>
        i % 4 === 3
          ? b.c.post('/api/webhook-endpoints', {
              account: a.accountId,
              url: `http://127.0.0.1:9/race-${i}`,
              eventTypes: ['*'],
            })
          : b.c.post('/api/api-keys', {
              account: a.accountId,
              name: `Race ${i}`,
              mode: 'live',
              scopes: ['forms:read'],
            }),
      );
      // The removal lands somewhere in the middle of the burst.
      const at = 4 + (round % 8);
      const all = [...creations.slice(0, at), remove(a, b.membership.id), ...creations.slice(at)];
      const answers = await Promise.all(all);
      expect(answers.filter((r) => r.statusCode >= 500).map((r) => r.body)).toEqual([]);
      // A creation after the removal finds B gone (404); none answers otherwise.
      for (const r of answers) expect([201, 204, 404]).toContain(r.statusCode);

      const survivingKeys = await t.db.db
        .select({ id: schema.apiKeys.id })
        .from(schema.apiKeys)
        .where(and(eq(schema.apiKeys.createdByUserId, b.userId), isNull(schema.apiKeys.revokedAt)));
      expect(survivingKeys).toEqual([]);
      const enabledEndpoints = await t.db.db
        .select({ id: schema.webhookEndpoints.id })
        .from(schema.webhookEndpoints)
        .where(
          and(
            eq(schema.webhookEndpoints.createdByUserId, b.userId),
            eq(schema.webhookEndpoints.enabled, true),
          ),
        );
      expect(enabledEndpoints).toEqual([]);
    }
  }, 60_000);

  it('an owner demoted while creating keys at once: none of theirs stays active', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await newOwner(t.app, `Demote race ${round}`);
      const b = await join(t.app, a, { role: 'owner' });
      const creations = Array.from({ length: 16 }, (_, i) =>
        b.c.post('/api/api-keys', {
          account: a.accountId,
          name: `R ${i}`,
          mode: 'live',
          scopes: ['forms:read'],
        }),
      );
      const at = 3 + round * 4;
      const answers = await Promise.all([
        ...creations.slice(0, at),
        demote(a, b.membership.id),
        ...creations.slice(at),
      ]);
      // A creation after the demotion is refused (403).
      for (const r of answers) expect([200, 201, 403]).toContain(r.statusCode);
      const active = await t.db.db
        .select({ id: schema.apiKeys.id })
        .from(schema.apiKeys)
        .where(and(eq(schema.apiKeys.createdByUserId, b.userId), isNull(schema.apiKeys.revokedAt)));
      expect(active).toEqual([]);
    }
  }, 60_000);
});
