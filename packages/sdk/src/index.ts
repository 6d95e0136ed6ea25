/**
 * @veriform/sdk: the typed Node client of Veriform API v1 (README.md is the five-minute start; ADR 40 the design).
 */

export type { CertificateKeysSource, CertificateVerdict } from './certificates.ts';
export { CERTIFICATE_KEYS_PATH, checkCertificate } from './certificates.ts';
export { operationMethods, Veriform } from './client.ts';
export { VeriformConnectionError, VeriformError } from './errors.ts';
export type { ListPromise, PageBody } from './pagination.ts';
export { Page } from './pagination.ts';
export type { PostOptions, RequestOptions } from './resources/resource.ts';
export type { CertificateFile } from './resources/verifications.ts';
export type { components, operations, paths } from './schema.ts';
export type { ApiClient, FetchLike, VeriformOptions } from './transport.ts';
export { createApiClient, MAX_RETRIES_CAP, MAX_RETRY_AFTER_SECONDS } from './transport.ts';
export type * from './types.ts';
export type { VerifyWebhookOptions, WebhookEvent, WebhookFailure, WebhookHeaders } from './webhooks.ts';
export { DEFAULT_WEBHOOK_TOLERANCE_SECONDS, verifyWebhook, WebhookVerificationError } from './webhooks.ts';
