import { IconShieldCheck } from '@tabler/icons-react';
import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { SsoSignIn } from '../../components/sso/SsoSignIn';
import { startErrorReporting } from '../../lib/error-reporting';
import { pageTitle } from '../../lib/page-title-text';
import { LoginForm, type LoginValues } from './components/LoginForm';
import type { SecondFactorActions } from './components/SecondFactorStep';
import classes from './first-paint-login.module.css';

/**
 * The login page as a visitor first opens it (main.tsx): the same form as the app's login route, in the same frame
 * (the public layout and AuthPage, here in plain elements), without the app around it. Its links are ordinary page
 * loads, and a successful login loads the page to go to (the `next` parameter, checked as the app checks it), whose
 * page data then carries the new session.
 */

/** The `next` search parameter as the router reads it (a JSON-quoted value is unquoted). */
function nextParameter(): string | undefined {
  const raw = new URLSearchParams(window.location.search).get('next') ?? undefined;
  if (!raw?.startsWith('"')) return raw;
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'string' ? parsed : undefined;
  } catch {
    return raw;
  }
}

function FirstPaintLoginPage({ csrfToken }: { csrfToken: string }) {
  useEffect(() => {
    document.title = pageTitle('Log in');
  }, []);
  const calls = () => import('./first-paint-submit');
  const submit = async (values: LoginValues) => {
    const answer = await (await calls()).logIn(values, csrfToken, nextParameter());
    if ('mfaRequired' in answer) return answer;
    window.location.replace(answer.next);
    return null;
  };
  // Issue #38: the second step and the passkey sign-in, their code loaded when they are used.
  const secondFactor: SecondFactorActions = {
    prove: async (proof) =>
      window.location.replace(await (await calls()).logInWithProof(proof, csrfToken, nextParameter())),
    passkeyProof: async () => (await calls()).passkeyProof(csrfToken),
  };
  const passkeyLogIn = async () =>
    window.location.replace(await (await calls()).logInWithPasskeyAlone(csrfToken, nextParameter()));
  return (
    <div className={classes.page}>
      <main className={classes.container}>
        <div className={classes.brand}>
          <span className={classes.brandIcon} aria-hidden="true">
            <IconShieldCheck size={18} />
          </span>
          <span className={classes.brandName}>Veriform</span>
        </div>
        <div className={classes.stack}>
          <div className={classes.card}>
            <h1 className={classes.title}>Log in</h1>
            <div className={classes.description}>Welcome back. Log in to review your verifications.</div>
            <LoginForm
              submit={submit}
              secondFactor={secondFactor}
              passkeyLogIn={passkeyLogIn}
              forgotPassword={
                <a className={classes.anchor} href="/auth/reset-password/">
                  Forgot password?
                </a>
              }
            />
            <SsoSignIn />
          </div>
          <div className={classes.footer}>
            New to Veriform?{' '}
            <a className={classes.anchor} href="/auth/signup">
              Create an account
            </a>
          </div>
        </div>
      </main>
    </div>
  );
}

/** Shows the page; `csrfToken` is the page data's, read by main.tsx. */
export function startFirstPaintLogin(csrfToken: string): void {
  // Only where the server's page names a DSN; the SDK arrives after the page's content (lib/error-reporting.ts).
  startErrorReporting();
  const rootElement = document.getElementById('root');
  if (!rootElement) throw new Error('The page has no #root element');
  createRoot(rootElement).render(
    <StrictMode>
      <FirstPaintLoginPage csrfToken={csrfToken} />
    </StrictMode>,
  );
}
