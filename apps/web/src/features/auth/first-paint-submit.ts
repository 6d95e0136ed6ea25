import { ApiClient } from '../../lib/api-client';
import { createQueryClient } from '../../lib/query-client';
import { safeNext } from '../../lib/safe-next';
import { SessionStore } from '../../lib/session';
import { login } from './api';
import type { LoginValues } from './components/LoginForm';

/**
 * The first-paint login page's call (first-paint-login.tsx), loaded when its form is submitted. Returns where to go.
 */
export async function logIn(
  values: LoginValues,
  csrfToken: string,
  next: string | undefined,
): Promise<string> {
  const api = new ApiClient({ csrfToken });
  const response = await login(api, values);
  // As the app's login does (SPEC §4: the current membership is reset from the answer and remembered), so the next
  // page, whose data comes with the new session, starts in that membership.
  new SessionStore(createQueryClient()).applyAuthResponse(response, 'reset');
  return safeNext(next, window.location.origin);
}
