import { IconAlertCircle, IconEye, IconEyeOff, IconFingerprint } from '@tabler/icons-react';
import type { MfaRequiredResponse } from '@veriform/contracts';
import { type FormEvent, lazy, type ReactNode, Suspense, useId, useRef, useState } from 'react';
import { focusFirstInvalid } from '../../../components/form/focus-first-invalid';
import classes from '../../../components/form/PlainForm.module.css';
import { browserSupportsPasskeys } from '../../../lib/passkey-support';
import { useFocusOnMount } from '../../../lib/use-focus-on-mount';
import type { FieldErrors, LoginAlert } from '../login-checks';
import type { SecondFactorActions } from './SecondFactorStep';

const labels = { email: 'Email', password: 'Password' } as const;

export interface LoginValues {
  email: string;
  password: string;
}

type Checks = typeof import('../login-checks');
let checks: Promise<Checks> | undefined;
/** zod, the contract and the API's error classes: fetched once, when the form is first typed in or submitted. */
const loadChecks = () => {
  checks ??= import('../login-checks');
  // The second step's own code too (issue #38), so that it is there when the password asks for it.
  void loadSecondFactorStep();
  return checks;
};
const loadSecondFactorStep = () => import('./SecondFactorStep');
const SecondFactorStep = lazy(() =>
  loadSecondFactorStep().then((module) => ({ default: module.SecondFactorStep })),
);

export interface LoginFormProps {
  /**
   * Logs in with the checked values; throws the API's error. Resolves null once signed in (the caller moves on), or
   * the server's `{mfaRequired, methods}` when a second factor is asked first (issue #38).
   */
  submit: (values: LoginValues) => Promise<MfaRequiredResponse | null>;
  /** The second step's calls. */
  secondFactor: SecondFactorActions;
  /** Signs in with a passkey alone (no password); resolves once signed in. Throws the API's or the browser's error. */
  passkeyLogIn: () => Promise<void>;
  /** Filled in beforehand (the invited address, when logging in to accept an invitation). */
  initialEmail?: string;
  /** The "Forgot password?" link: a router link in the app, a plain one on the login page's first paint. */
  forgotPassword: ReactNode;
}

/**
 * The login form in plain elements styled like Mantine's (components/form/PlainForm.module.css): it is also the whole first paint of
 * the login page (../first-paint-login.tsx), which shows before Mantine, the router and zod are loaded. Same fields,
 * messages, error block and focus handling as the app's Mantine forms.
 */
export function LoginForm(props: LoginFormProps) {
  const [mfa, setMfa] = useState<MfaRequiredResponse | null>(null);
  const [notice, setNotice] = useState<LoginAlert | null>(null);
  if (mfa)
    return (
      <Suspense fallback={null}>
        <SecondFactorStep
          methods={mfa.methods}
          actions={props.secondFactor}
          onExpired={(message) => {
            setNotice({ kind: 'text', text: message });
            setMfa(null);
          }}
          onBack={() => {
            setNotice(null);
            setMfa(null);
          }}
        />
      </Suspense>
    );
  return <PasswordStep {...props} notice={notice} onMfaRequired={setMfa} />;
}

/** The first step: e-mail and password, or a passkey alone. */
function PasswordStep({
  submit,
  passkeyLogIn,
  initialEmail = '',
  forgotPassword,
  notice,
  onMfaRequired,
}: LoginFormProps & { notice: LoginAlert | null; onMfaRequired: (mfa: MfaRequiredResponse) => void }) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const emailRef = useFocusOnMount<HTMLInputElement>();
  const [values, setValues] = useState<LoginValues>({ email: initialEmail, password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [alert, setAlert] = useState<LoginAlert | null>(notice);
  const [pending, setPending] = useState(false);
  const [passkeyPending, setPasskeyPending] = useState(false);
  const [passwordShown, setPasswordShown] = useState(false);

  const change = (field: keyof LoginValues) => (event: { currentTarget: HTMLInputElement }) => {
    const { value } = event.currentTarget;
    void loadChecks();
    setValues((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => ({ ...previous, [field]: undefined }));
  };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const { checkLogin, describeLoginError } = await loadChecks();
    const checked = checkLogin(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      focusFirstInvalid(formRef.current);
      return;
    }
    setPending(true);
    setAlert(null);
    try {
      const mfa = await submit(checked.values);
      if (mfa) onMfaRequired(mfa);
    } catch (error) {
      const described = describeLoginError(error, labels);
      setErrors(described.inline);
      setAlert(described.alert);
      if (Object.keys(described.inline).length > 0) focusFirstInvalid(formRef.current);
    } finally {
      setPending(false);
    }
  };

  const signInWithPasskey = async () => {
    if (pending || passkeyPending) return;
    setPasskeyPending(true);
    setAlert(null);
    setErrors({});
    try {
      await passkeyLogIn();
    } catch (error) {
      const { describeLoginError } = await loadChecks();
      setAlert(describeLoginError(error, labels).alert);
    } finally {
      setPasskeyPending(false);
    }
  };

  const field = (name: keyof LoginValues) => {
    const error = errors[name];
    return {
      id: `${id}-${name}`,
      value: values[name],
      onChange: change(name),
      required: true,
      'aria-invalid': Boolean(error),
      'aria-describedby': error ? `${id}-${name}-error` : undefined,
      className: classes.input,
      'data-invalid': error ? true : undefined,
    };
  };

  return (
    <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label="Log in" className={classes.stack}>
      {alert && <ErrorBlock alert={alert} />}
      <div className={classes.field}>
        <label htmlFor={`${id}-email`} className={classes.label}>
          {labels.email}
        </label>
        <input ref={emailRef} type="email" autoComplete="email" inputMode="email" {...field('email')} />
        {errors.email && (
          <p id={`${id}-email-error`} className={classes.error}>
            {errors.email}
          </p>
        )}
      </div>
      <div className={classes.field}>
        <label htmlFor={`${id}-password`} className={classes.label}>
          {labels.password}
        </label>
        <div className={classes.passwordWrapper}>
          <input
            type={passwordShown ? 'text' : 'password'}
            autoComplete="current-password"
            {...field('password')}
          />
          {/* Named without the word "password", so that "the Password field" names one control (as in theme.ts). */}
          <button
            type="button"
            className={classes.toggle}
            aria-label="Show characters"
            aria-pressed={passwordShown}
            onClick={() => setPasswordShown((shown) => !shown)}
          >
            {passwordShown ? (
              <IconEyeOff size={16} aria-hidden="true" />
            ) : (
              <IconEye size={16} aria-hidden="true" />
            )}
          </button>
        </div>
        {errors.password && (
          <p id={`${id}-password-error`} className={classes.error}>
            {errors.password}
          </p>
        )}
      </div>
      <div className={classes.forgot}>{forgotPassword}</div>
      <button
        type="submit"
        className={classes.submit}
        disabled={pending || passkeyPending}
        aria-busy={pending}
      >
        Log in
      </button>
      {browserSupportsPasskeys() && (
        <>
          <div className={classes.divider}>or</div>
          <button
            type="button"
            className={`${classes.submit} ${classes.secondary}`}
            disabled={pending || passkeyPending}
            aria-busy={passkeyPending}
            onClick={() => void signInWithPasskey()}
          >
            <IconFingerprint
              size={16}
              aria-hidden="true"
              style={{ verticalAlign: 'text-bottom', marginRight: 6 }}
            />
            Sign in with a passkey
          </button>
        </>
      )}
    </form>
  );
}

function ErrorBlock({ alert }: { alert: LoginAlert }) {
  return (
    <div role="alert" className={classes.alert}>
      <IconAlertCircle size={20} aria-hidden="true" className={classes.alertIcon} />
      {alert.kind === 'text' ? (
        <div className={classes.alertBody}>{alert.text}</div>
      ) : (
        <div className={classes.alertBody}>
          {alert.fields.map(({ label, message }) => (
            <p key={label}>
              <strong>{label}:</strong> {message}
            </p>
          ))}
          {alert.others.length === 1 && (
            <p>
              <strong>{alert.othersHeading}:</strong> {alert.others[0]}
            </p>
          )}
          {alert.others.length > 1 && (
            <>
              <p>
                <strong>{alert.othersHeading}:</strong>
              </p>
              <ul>
                {alert.others.map((message) => (
                  <li key={message}>{message}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}
