import type {
  AccountDomain,
  AuthSession,
  CreatedApiKey,
  Invitation,
  Revocation,
  SendCodeResponse,
  TestPhoneNumber,
  User,
  WebhookEndpoint,
} from '@veriform/contracts';
import { apiKeyScopes } from '@veriform/contracts';
import { schema, transaction } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { TEST_PUBLIC_URL, type TestContext } from '../test-support/app.ts';
import { TestClient } from '../test-support/client.ts';
import { solidImage } from '../test-support/images.ts';
import { multipartBody } from '../test-support/multipart.ts';
import { Consumer, createPublicForm } from '../test-support/public-verify.ts';
import { type Joined, join, newOwner, newPerson, nextIp, type Owner } from '../test-support/teams.ts';
import { SoftAuthenticator } from '../test-support/webauthn-authenticator.ts';
import type { RouteInfo } from './route-inventory.ts';

/**
 * One account with one of everything (a member, a pending invitation, a live form, a test number, an API key, a
 * webhook endpoint, a verification, a pending attempt, an uploaded picture), so that a fuzzed request can carry ids that exist and get past the id
 * checks into validation and the services.
 */
export type World = {
  owner: Owner;
  member: Joined;
  accountId: number;
  memberMembershipId: number;
  invitationId: number;
  /** A live form for the authenticated routes (which may change it). */
  formId: number;
  /** The public id of another live form, for the public routes. */
  publicId: string;
  testNumberId: number;
  apiKeyId: number;
  /** A test key of the account with every scope: API v1's caller. */
  apiKeySecret: string;
  webhookEndpointId: number;
  /** An event of the account (`evt_…`), for the replay route. */
  webhookEventId: string;
  verificationId: number;
  /** The verification's certificate (`cert_…`), for the public check page's routes. */
  certificateId: string;
  attemptId: string;
  /** `{sha256}.webp` of /media/. */
  mediaFile: string;
  /** A company domain of the account, verified: a fuzzed check answers it as it is, asking no DNS or web server. */
  domainId: number;
  /** A revocation a member recorded (issue #35). */
  revocationId: string;
  /** A data-subject request an owner filed (issue #37), open. */
  privacyRequestId: string;
  /** A legal hold an owner placed (issue #37), on a number none of the world's verifications has. */
  legalHoldId: string;
  /**
   * A passkey of someone outside the account (issue #38): the fuzzed callers get 404 for it. Not the owner's: a factor
   * would have the step-up hook ask their session for a proof on the sensitive routes.
   */
  passkeyId: number;
  /** Another session of the owner (its list id), so that a valid ending does not sign the fuzzing owner out. */
  sessionId: string;
};

export async function buildWorld(t: Pick<TestContext, 'app' | 'db'>): Promise<World> {
  const owner = await newOwner(t.app, 'Fuzz Inc.');
  const member = await join(t.app, owner);
  const invited = await owner.c.post('/api/invitations', {
    accountId: owner.accountId,
    email: `pending-${owner.accountId}@example.com`,
    role: 'member',
  });
  const form = await createPublicForm(owner, { name: 'Fuzzed form' });
  // The public routes get a form of their own: the fuzzed PATCHes take `form` offline now and then.
  const publicForm = await createPublicForm(owner, { name: 'Public form' });
  const testNumber = await owner.c.post('/api/test-phone-numbers', {
    account: owner.accountId,
    cellPhone: '2015550123',
    code: '123456',
  });
  const apiKey = await owner.c.post('/api/api-keys', {
    account: owner.accountId,
    name: 'Fuzzed key',
    mode: 'test',
    scopes: ['forms:read'],
  });
  const v1Key = await owner.c.post('/api/api-keys', {
    account: owner.accountId,
    name: 'Fuzzing API v1',
    mode: 'test',
    // Every scope: the fuzzed API v1 routes reach their services, whatever they need.
    scopes: [...apiKeyScopes],
  });
  // A literal public address (no lookup), disabled: the fuzzed requests reach the service, nothing is sent.
  const webhookEndpoint = await owner.c.post('/api/webhook-endpoints', {
    account: owner.accountId,
    url: 'https://93.184.215.14/fuzzed',
    description: 'Fuzzed endpoint',
    eventTypes: ['*'],
    enabled: false,
  });
  const webhookEndpointId = webhookEndpoint.json<WebhookEndpoint>().id;
  // Straight in the table, an address the sender refuses at send time without connecting: a fuzzed "Send test
  // event" (which sends even to a disabled endpoint) reaches nothing outside this machine.
  await t.db.db
    .update(schema.webhookEndpoints)
    .set({ url: 'http://127.0.0.1:9/fuzzed' })
    .where(eq(schema.webhookEndpoints.id, webhookEndpointId));
  const emitted = await transaction(t.db.db, (tx) =>
    t.app.services.webhookEvents.emit(tx, owner.accountId, { type: 'form.updated', data: { id: form.id } }),
  );
  if (!emitted.eventId) throw new Error('emit stored no event');
  // Verifications come from the public page; one straight in the table is enough to have an id (as tenancy.test.ts).
  const [verification] = await t.db.db
    .insert(schema.verifications)
    .values({
      accountId: owner.accountId,
      verifyFormId: form.id,
      cellPhone: '+12015550123',
      verifyFormName: form.name,
      verificationMethod: 'sms',
    })
    .returning({ id: schema.verifications.id });
  if (!verification) throw new Error('verification insert returned no row');
  const certificate = await t.app.services.certificates.issue(owner.accountId, verification.id);
  const consumer = new Consumer(t.app, nextIp());
  await consumer.open(publicForm.publicId);
  // The test number: nothing is sent anywhere.
  const sent = await consumer.sendCode(publicForm.publicId, { cellPhone: '2015550123', method: 'sms' });
  if (sent.statusCode !== 201) throw new Error(`send-code: ${sent.statusCode} ${sent.body}`);
  const picture = await owner.c.postMultipart(
    `/api/users/${owner.userId}/update-uploaded-profile-image`,
    multipartBody([
      {
        name: 'uploadedProfileImage',
        filename: 'me.png',
        contentType: 'image/png',
        data: await solidImage(8, 8, 'png'),
      },
    ]),
  );
  const mediaFile = picture.json<User>().uploadedProfileImage?.split('/').pop() ?? '';
  const domain = await owner.c.post(`/api/accounts/${owner.accountId}/domains`, { domain: 'fuzzed.example' });
  if (domain.statusCode !== 201) throw new Error(`add domain: ${domain.statusCode} ${domain.body}`);
  const domainId = domain.json<AccountDomain>().id;
  const revocation = await owner.c.post(`/api/revocations?account=${owner.accountId}`, {
    phone: '+12015550124',
    via: 'phone_call',
    note: 'Called the help desk',
  });
  if (revocation.statusCode !== 201)
    throw new Error(`record revocation: ${revocation.statusCode} ${revocation.body}`);
  const privacyRequest = await owner.c.post(`/api/privacy-requests?account=${owner.accountId}`, {
    type: 'access',
    law: 'ccpa',
    phones: ['+12015550124'],
    requester: { name: 'Ana Díaz' },
  });
  if (privacyRequest.statusCode !== 201)
    throw new Error(`file privacy request: ${privacyRequest.statusCode} ${privacyRequest.body}`);
  const legalHold = await owner.c.post(`/api/legal-holds?account=${owner.accountId}`, {
    scope: 'identifier',
    phone: '+12015550199',
    reason: 'Litigation',
  });
  if (legalHold.statusCode !== 201)
    throw new Error(`place legal hold: ${legalHold.statusCode} ${legalHold.body}`);
  await t.db.db
    .update(schema.accountDomains)
    .set({ verifiedAt: new Date(), verifiedBy: 'dns' })
    .where(eq(schema.accountDomains.id, domainId));
  const outsider = await newPerson(t.app);
  const passkeyOptions = await outsider.c.post('/api/auth/passkeys/registration-options');
  const passkey = await outsider.c.post('/api/auth/passkeys', {
    response: new SoftAuthenticator(TEST_PUBLIC_URL).register(passkeyOptions.json<{ challenge: string }>()),
    name: 'Outsider key',
  });
  if (passkey.statusCode !== 201) throw new Error(`add passkey: ${passkey.statusCode} ${passkey.body}`);
  const elsewhere = new TestClient(t.app, nextIp());
  await elsewhere.login(owner.email, owner.password);
  const sessionId = (await elsewhere.get('/api/auth/sessions'))
    .json<AuthSession[]>()
    .find((s) => s.current)?.id;
  if (!sessionId) throw new Error('no second session of the owner');
  return {
    owner,
    member,
    accountId: owner.accountId,
    memberMembershipId: member.membership.id,
    invitationId: invited.json<Invitation>().id,
    formId: form.id,
    publicId: publicForm.publicId,
    testNumberId: testNumber.json<TestPhoneNumber>().id,
    apiKeyId: apiKey.json<CreatedApiKey>().id,
    apiKeySecret: v1Key.json<CreatedApiKey>().key,
    webhookEndpointId,
    webhookEventId: emitted.eventId,
    verificationId: verification.id,
    certificateId: certificate.id,
    attemptId: sent.json<SendCodeResponse>().attemptId,
    mediaFile,
    domainId,
    revocationId: revocation.json<Revocation>().id,
    privacyRequestId: privacyRequest.json<{ id: string }>().id,
    legalHoldId: legalHold.json<{ id: string }>().id,
    passkeyId: passkey.json<{ id: number }>().id,
    sessionId,
  };
}

/** Which world object an `:id` stands for, by the route's area. */
const idByArea: Readonly<Record<string, (w: World) => number>> = {
  users: (w) => w.owner.userId,
  accounts: (w) => w.accountId,
  memberships: (w) => w.memberMembershipId,
  invitations: (w) => w.invitationId,
  'verify-forms': (w) => w.formId,
  'test-phone-numbers': (w) => w.testNumberId,
  'api-keys': (w) => w.apiKeyId,
  'webhook-endpoints': (w) => w.webhookEndpointId,
  verifications: (w) => w.verificationId,
};

/** The existing object's value for a path parameter, or undefined when the world has none (a completeness failure). */
export function worldParam(world: World, route: Pick<RouteInfo, 'url'>, name: string): string | undefined {
  if (name === 'publicId') return world.publicId;
  if (name === 'attemptId') return world.attemptId;
  if (name === 'certId') return world.certificateId;
  if (name === 'file') return world.mediaFile;
  if (name === 'domainId') return String(world.domainId);
  if (name !== 'id') return undefined;
  // API v1's verifications are attempts (the public page's one is of the same account).
  if (route.url.startsWith('/api/v1/verifications/')) return world.attemptId;
  if (route.url.startsWith('/api/webhook-events/') || route.url.startsWith('/api/v1/events/')) {
    return world.webhookEventId;
  }
  if (route.url.startsWith('/api/revocations/') || route.url.startsWith('/api/v1/revocations/'))
    return world.revocationId;
  if (route.url.startsWith('/api/privacy-requests/') || route.url.startsWith('/api/v1/privacy-requests/'))
    return world.privacyRequestId;
  if (route.url.startsWith('/api/legal-holds/')) return world.legalHoldId;
  if (route.url.startsWith('/api/auth/passkeys/')) return String(world.passkeyId);
  if (route.url.startsWith('/api/auth/sessions/')) return world.sessionId;
  const area = route.url.split('/')[2] ?? '';
  const id = idByArea[area];
  return id ? String(id(world)) : undefined;
}
