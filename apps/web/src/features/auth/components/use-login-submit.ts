import type { AuthResponse, LoginRequest } from '@veriform/contracts';
import { useServices } from '../../../lib/services';
import { passkeyAssertion } from '../../../lib/webauthn';
import { loginStep } from '../api';
import { logInWithPasskey, logInWithSecondFactor } from '../second-factor-api';
import type { LoginFormProps } from './LoginForm';

/**
 * LoginForm's calls inside the app: the password step (the session takes the answer, or the second step is asked),
 * the second step, and a sign-in with a passkey alone; `onSuccess` once signed in.
 */
export function useLoginSubmit(
  onSuccess: () => void,
): Pick<LoginFormProps, 'submit' | 'secondFactor' | 'passkeyLogIn'> {
  const { api, session } = useServices();
  const signedIn = (response: AuthResponse) => {
    session.applyAuthResponse(response, 'reset');
    onSuccess();
  };
  return {
    submit: async (values: LoginRequest) => {
      const response = await loginStep(api, values);
      if ('mfaRequired' in response) return response;
      signedIn(response);
      return null;
    },
    secondFactor: {
      prove: async (proof) => signedIn(await logInWithSecondFactor(api, proof)),
      passkeyProof: () => passkeyAssertion(api),
    },
    passkeyLogIn: async () => signedIn(await logInWithPasskey(api)),
  };
}
