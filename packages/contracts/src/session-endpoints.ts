import { accountSelfServiceEndpoints, userEndpoints } from './account-self-service.ts';
import { apiKeyEndpoints } from './api-keys.ts';
import { auditEndpoints } from './audit.ts';
import { authEndpoints } from './auth.ts';
import { authSessionEndpoints } from './auth-sessions.ts';
import { certificateEndpoints } from './certificates.ts';
import { consentEndpoints } from './consent.ts';
import { contactabilityEndpoints } from './contactability.ts';
import { devOutboxEndpoints } from './dev-outbox.ts';
import { domainEndpoints } from './domains.ts';
import type { Endpoint } from './endpoints.ts';
import { legalHoldEndpoints } from './legal-holds.ts';
import { lookupSummaryEndpoints } from './lookup-summary.ts';
import { lookupEndpoints } from './lookups.ts';
import { privacyRequestEndpoints } from './privacy-requests.ts';
import { publicVerifyEndpoints, testPhoneNumberEndpoints } from './public-verify.ts';
import { retentionEndpoints } from './retention.ts';
import { revocationEndpoints } from './revocations.ts';
import { passkeyEndpoints, secondFactorEndpoints } from './second-factors.ts';
import { ssoEndpoints } from './sso.ts';
import { accountEndpoints, invitationEndpoints, membershipEndpoints } from './teams.ts';
import { verificationAttemptEndpoints } from './verification-attempts.ts';
import { verificationEndpoints } from './verifications.ts';
import { verifyFormEndpoints } from './verify-forms.ts';
import { webhookEndpoints } from './webhooks.ts';

/**
 * Every session-API endpoint, by area (the catalog the server's route inventory is held to: each of the app's `/api/`
 * routes outside `/api/v1` is declared here, and each declaration is registered as it says).
 */
export const sessionEndpoints = {
  accountSelfService: accountSelfServiceEndpoints,
  accounts: accountEndpoints,
  apiKeys: apiKeyEndpoints,
  audit: auditEndpoints,
  auth: authEndpoints,
  authSessions: authSessionEndpoints,
  certificates: certificateEndpoints,
  consent: consentEndpoints,
  contactability: contactabilityEndpoints,
  devOutbox: devOutboxEndpoints,
  domains: domainEndpoints,
  invitations: invitationEndpoints,
  legalHolds: legalHoldEndpoints,
  lookupSummary: lookupSummaryEndpoints,
  lookups: lookupEndpoints,
  memberships: membershipEndpoints,
  passkeys: passkeyEndpoints,
  privacyRequests: privacyRequestEndpoints,
  publicVerify: publicVerifyEndpoints,
  retention: retentionEndpoints,
  revocations: revocationEndpoints,
  secondFactors: secondFactorEndpoints,
  sso: ssoEndpoints,
  testPhoneNumbers: testPhoneNumberEndpoints,
  users: userEndpoints,
  verificationAttempts: verificationAttemptEndpoints,
  verifications: verificationEndpoints,
  verifyForms: verifyFormEndpoints,
  webhooks: webhookEndpoints,
} satisfies Record<string, Record<string, Endpoint>>;

/** The catalog as one list, each endpoint with its area and name (`apiKeys.revoke`). */
export function listSessionEndpoints(): { name: string; endpoint: Endpoint }[] {
  return Object.entries(sessionEndpoints).flatMap(([area, endpoints]) =>
    Object.entries(endpoints).map(([name, endpoint]: [string, Endpoint]) => ({
      name: `${area}.${name}`,
      endpoint,
    })),
  );
}
