import {
  type AuthResponse,
  passkeyEndpoints,
  type SecondFactorProof,
  secondFactorEndpoints,
} from '@veriform/contracts';
import type { ApiClient } from '../../lib/api-client';
import { passkeyAssertion } from '../../lib/webauthn';

/**
 * The sign-in's second factor and the sign-in with a passkey (issue #38): plain fetchers, so that the login page's first paint
 * (first-paint-submit.ts) and the app share them.
 */

/** The sign-in's second step: the pending sign-in is the cookie its first step set. */
export function logInWithSecondFactor(api: ApiClient, proof: SecondFactorProof): Promise<AuthResponse> {
  return api.call(secondFactorEndpoints.loginMfa, { body: proof });
}

/** A sign-in without a password: the browser's passkey for a fresh challenge. */
export async function logInWithPasskey(api: ApiClient): Promise<AuthResponse> {
  const response = await passkeyAssertion(api);
  return api.call(passkeyEndpoints.login, { body: { response } });
}
