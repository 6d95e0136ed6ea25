import type { components, operations } from './schema.ts';

/**
 * The objects and parameters of API v1, named. Every type here is taken from `schema.ts`, which openapi-typescript
 * generates from the server's OpenAPI document: nothing is written twice, so a field the server adds or renames
 * reaches the SDK's types with the next regeneration.
 */

type Schemas = components['schemas'];

export type Verification = Schemas['Verification'];
export type CheckResult = Schemas['CheckResult'];
export type Form = Schemas['Form'];
export type AuditEvent = Schemas['AuditEvent'];
/** An event as `GET /api/v1/events` lists it and webhooks deliver it. */
export type Event = Schemas['Event'];
export type SignedCertificate = Schemas['SignedCertificate'];
export type Revocation = Schemas['Revocation'];
export type PrivacyRequest = Schemas['PrivacyRequest'];
export type ContactabilityVerdict = Schemas['ContactabilityVerdict'];
export type ReassignmentCheck = Schemas['ReassignmentCheck'];
export type ReassignmentCheckList = Schemas['ReassignmentCheckList'];
/** A fresh verification link bound to an approved verification (`POST /api/v1/verifications/{id}/refresh`). */
export type RefreshLink = Schemas['RefreshLink'];
/** An error answer: RFC 9457 problem details. */
export type Problem = Schemas['Problem'];
export type ProblemCode = Problem['code'];
export type FieldError = NonNullable<Problem['errors']>[number];

/** The operation ids of the document (`startVerification`, `listEvents`…). */
export type OperationId = keyof operations;
/** An operation's query parameters. */
export type QueryOf<K extends OperationId> = NonNullable<operations[K]['parameters']['query']>;
/** An operation's JSON request body. */
export type BodyOf<K extends OperationId> = operations[K] extends {
  requestBody: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

export type StartVerificationParams = BodyOf<'startVerification'>;
export type CheckVerificationParams = BodyOf<'checkVerification'>;
export type VerificationListParams = QueryOf<'listVerifications'>;
export type FormListParams = QueryOf<'listForms'>;
export type AuditEventListParams = QueryOf<'listAuditEvents'>;
export type EventListParams = QueryOf<'listEvents'>;
export type RecordRevocationParams = BodyOf<'createRevocation'>;
export type RevocationListParams = QueryOf<'listRevocations'>;
export type FilePrivacyRequestParams = BodyOf<'createPrivacyRequest'>;
export type ExtendPrivacyRequestParams = BodyOf<'extendPrivacyRequest'>;
export type PrivacyRequestListParams = QueryOf<'listPrivacyRequests'>;
export type ContactabilityParams = QueryOf<'checkContactability'>;
export type ContactabilityBatchParams = BodyOf<'checkContactabilityBatch'>;
export type ContactabilityCheckListParams = QueryOf<'listContactabilityChecks'>;
