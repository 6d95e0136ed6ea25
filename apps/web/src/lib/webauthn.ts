import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import {
  type Passkey,
  passkeyEndpoints,
  secondFactorTexts,
  type WebauthnResponse,
} from '@veriform/contracts';
import { type ApiClient, ApiError } from './api-client';
import { browserSupportsPasskeys } from './passkey-support';

export { browserSupportsPasskeys };

/**
 * The browser's side of the passkey ceremonies (issue #38), shared by the sign-in, the step-up dialog and My Account.
 * @simplewebauthn/browser is loaded only when a ceremony starts, so no page pays for it up front.
 */

/** The browser or the authenticator refused, or the person closed its prompt: the text says what to do next. */
export class PasskeyCeremonyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PasskeyCeremonyError';
  }
}

export const PASSKEY_CANCELED_TEXT =
  'The passkey prompt was closed or timed out. Try again, or use another way.';
export const PASSKEYS_UNSUPPORTED_TEXT = 'This browser cannot use passkeys. Use another way.';

const webauthnLibrary = () => import('@simplewebauthn/browser');

function ceremonyError(error: unknown): Error {
  if (error instanceof ApiError) return error;
  const name = error instanceof Error ? error.name : '';
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED')
    return new PasskeyCeremonyError(PASSKEY_CANCELED_TEXT);
  return new PasskeyCeremonyError(secondFactorTexts.passkeyFailed);
}

/** The browser's JSON as the contract takes it (its extension results as a plain record). */
function asContractResponse(
  response: AuthenticationResponseJSON | RegistrationResponseJSON,
): WebauthnResponse {
  return {
    id: response.id,
    rawId: response.rawId,
    type: 'public-key',
    response: { ...response.response },
    authenticatorAttachment: response.authenticatorAttachment,
    clientExtensionResults: { ...response.clientExtensionResults },
  };
}

/**
 * A passkey's assertion for a fresh one-use challenge (`authentication-options`): for a sign-in without a password,
 * the sign-in's second step, or a step-up. The caller sends it where it belongs.
 */
export async function passkeyAssertion(api: ApiClient): Promise<WebauthnResponse> {
  if (!browserSupportsPasskeys()) throw new PasskeyCeremonyError(PASSKEYS_UNSUPPORTED_TEXT);
  const [{ startAuthentication }, options] = await Promise.all([
    webauthnLibrary(),
    api.call(passkeyEndpoints.authenticationOptions, {}),
  ]);
  try {
    // The server made them with @simplewebauthn/server's generateAuthenticationOptions (the contract checks the
    // challenge only): they are the library's own JSON.
    const optionsJSON = options as unknown as PublicKeyCredentialRequestOptionsJSON;
    return asContractResponse(await startAuthentication({ optionsJSON }));
  } catch (error) {
    throw ceremonyError(error);
  }
}

/** Makes a passkey on this device and saves it under `name`. */
export async function registerPasskey(api: ApiClient, name: string): Promise<Passkey> {
  if (!browserSupportsPasskeys()) throw new PasskeyCeremonyError(PASSKEYS_UNSUPPORTED_TEXT);
  const [{ startRegistration }, options] = await Promise.all([
    webauthnLibrary(),
    api.call(passkeyEndpoints.registrationOptions, {}),
  ]);
  let response: RegistrationResponseJSON;
  try {
    // As above: generateRegistrationOptions's own JSON.
    const optionsJSON = options as unknown as PublicKeyCredentialCreationOptionsJSON;
    response = await startRegistration({ optionsJSON });
  } catch (error) {
    throw ceremonyError(error);
  }
  return api.call(passkeyEndpoints.add, { body: { response: asContractResponse(response), name } });
}
