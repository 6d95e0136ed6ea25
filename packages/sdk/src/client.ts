import { CERTIFICATE_KEYS_PATH, type CertificateVerdict, checkCertificate } from './certificates.ts';
import { AuditEvents } from './resources/audit-events.ts';
import { Contactability } from './resources/contactability.ts';
import { Events } from './resources/events.ts';
import { Forms } from './resources/forms.ts';
import { PrivacyRequests } from './resources/privacy-requests.ts';
import type { Resource, ResourceContext } from './resources/resource.ts';
import { Revocations } from './resources/revocations.ts';
import { Verifications } from './resources/verifications.ts';
import { type ApiClient, createApiClient, maxRetriesOf, type VeriformOptions } from './transport.ts';
import type { OperationId } from './types.ts';

/**
 * The client of API v1, resources in Stripe's style:
 *
 *     const veriform = new Veriform({ apiKey: process.env.VERIFORM_API_KEY, baseUrl: 'https://…' });
 *     const verification = await veriform.verifications.start({ formId, to: '+12015550123' });
 *     for await (const form of veriform.forms.list()) …
 *
 * Every call answers the object or throws VeriformError (a problem answer) or VeriformConnectionError (no answer).
 */
export class Veriform {
  /** The typed openapi-fetch client under the resources: `GET`/`POST` any path of the document as is. */
  readonly api: ApiClient;
  readonly verifications: Verifications;
  readonly forms: Forms;
  readonly auditEvents: AuditEvents;
  readonly events: Events;
  readonly revocations: Revocations;
  readonly contactability: Contactability;
  readonly privacyRequests: PrivacyRequests;
  /** Not an API call: checks certificate files against the keys this server publishes. */
  readonly certificates: { check(bytes: Uint8Array | string): Promise<CertificateVerdict> };

  constructor(options: VeriformOptions) {
    this.api = createApiClient(options);
    const context: ResourceContext = { api: this.api, autoIdempotencyKeys: maxRetriesOf(options) > 0 };
    this.verifications = new Verifications(context);
    this.forms = new Forms(context);
    this.auditEvents = new AuditEvents(context);
    this.events = new Events(context);
    this.revocations = new Revocations(context);
    this.contactability = new Contactability(context);
    this.privacyRequests = new PrivacyRequests(context);
    const keysUrl = new URL(CERTIFICATE_KEYS_PATH, options.baseUrl);
    const { fetch } = options;
    this.certificates = {
      check: (bytes) => checkCertificate(bytes, { keysUrl, ...(fetch ? { fetch } : {}) }),
    };
  }
}

type ResourceName = { [K in keyof Veriform]: Veriform[K] extends Resource ? K : never }[keyof Veriform];
type MethodName<R> = {
  [K in keyof R]: R[K] extends (...args: never[]) => unknown ? K & string : never;
}[keyof R];
type MethodPath = { [R in ResourceName]: `${R}.${MethodName<Veriform[R]>}` }[ResourceName];

/**
 * The SDK method of each operation of the document, by operation id. The compiler checks every entry names a real
 * operation and a real method; sdk.test.ts (apps/server/src/modules/api-v1) fails when an operation of the served
 * document has no entry here, so a new endpoint gets its method.
 */
export const operationMethods = {
  listForms: 'forms.list',
  listVerifications: 'verifications.list',
  startVerification: 'verifications.start',
  getVerification: 'verifications.get',
  checkVerification: 'verifications.check',
  resendVerification: 'verifications.resend',
  cancelVerification: 'verifications.cancel',
  refreshVerification: 'verifications.refresh',
  createReassignmentCheck: 'verifications.checkReassignment',
  listReassignmentChecks: 'verifications.reassignmentChecks',
  getVerificationCertificate: 'verifications.certificate',
  getVerificationCertificatePdf: 'verifications.certificatePdf',
  listAuditEvents: 'auditEvents.list',
  listEvents: 'events.list',
  getEvent: 'events.get',
  createRevocation: 'revocations.create',
  listRevocations: 'revocations.list',
  getRevocation: 'revocations.get',
  acknowledgeRevocation: 'revocations.acknowledge',
  checkContactability: 'contactability.check',
  checkContactabilityBatch: 'contactability.checkBatch',
  listContactabilityChecks: 'contactability.listChecks',
  createPrivacyRequest: 'privacyRequests.create',
  listPrivacyRequests: 'privacyRequests.list',
  getPrivacyRequest: 'privacyRequests.get',
  extendPrivacyRequest: 'privacyRequests.extend',
  carryOutPrivacyRequest: 'privacyRequests.carryOut',
  getPrivacyRequestBundle: 'privacyRequests.bundle',
} as const satisfies Partial<Record<OperationId, MethodPath>>;
