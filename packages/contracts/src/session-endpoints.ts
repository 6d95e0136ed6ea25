import { apiKeyEndpoints } from './api-keys.ts';
import { certificateEndpoints } from './certificates.ts';
import { consentEndpoints } from './consent.ts';
import type { Endpoint } from './endpoints.ts';
import { publicVerifyEndpoints } from './public-verify.ts';
import { verificationAttemptEndpoints } from './verification-attempts.ts';
import { verificationEndpoints } from './verifications.ts';
import { verifyFormEndpoints } from './verify-forms.ts';

/**
 * Every session-API endpoint, by area (the catalog the server's route inventory is held to: each of the app's `/api/`
 * routes outside `/api/v1` is declared here, and each declaration is registered as it says).
 */
export const sessionEndpoints = {
  apiKeys: apiKeyEndpoints,
  certificates: certificateEndpoints,
  consent: consentEndpoints,
  publicVerify: publicVerifyEndpoints,
  verificationAttempts: verificationAttemptEndpoints,
  verifications: verificationEndpoints,
  verifyForms: verifyFormEndpoints,
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
