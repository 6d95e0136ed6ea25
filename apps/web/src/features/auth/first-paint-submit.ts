import type {
  AuthResponse,
  MfaRequiredResponse,
  SecondFactorProof,
  WebauthnResponse,
} from '@veriform/contracts';
import { ApiClient } from '../../lib/api-client';
import { createQueryClient } from '../../lib/query-client';
import { safeNext } from '../../lib/safe-next';
import { SessionStore } from '../../lib/session';
import { passkeyAssertion } from '../../lib/webauthn';
import { loginStep } from './api';
import { logInWithPasskey, logInWithSecondFactor } from './second-factor-api';

/**
 * The first-paint login page's calls (first-paint-login.tsx), loaded when its form is first submitted. Each that
 * signs in returns where to go; one client for the page, so the second step (issue #38) follows the first.
 */

let client: ApiClient | undefined;
const api = (csrfToken: string) => {
  client ??= new ApiClient({ csrfToken });
  return client;
};

function signedIn(response: AuthResponse, next: string | undefined): string {
  // As the app's login does (SPEC §4: the current membership is reset from the answer and remembered), so the next
  // page, whose data comes with the new session, starts in that membership.
  new SessionStore(createQueryClient()).applyAuthResponse(response, 'reset');
  return safeNext(next, window.location.origin);
}

/** The password step: where to go, or the second step's methods. */
export async function logIn(
  values: { email: string; password: string },
  csrfToken: string,
  next: string | undefined,
): Promise<{ next: string } | MfaRequiredResponse> {
  const response = await loginStep(api(csrfToken), values);
  if ('mfaRequired' in response) return response;
  return { next: signedIn(response, next) };
}

export async function logInWithProof(
  proof: SecondFactorProof,
  csrfToken: string,
  next: string | undefined,
): Promise<string> {
  return signedIn(await logInWithSecondFactor(api(csrfToken), proof), next);
}

export async function logInWithPasskeyAlone(csrfToken: string, next: string | undefined): Promise<string> {
  return signedIn(await logInWithPasskey(api(csrfToken)), next);
}

export function passkeyProof(csrfToken: string): Promise<WebauthnResponse> {
  return passkeyAssertion(api(csrfToken));
}
