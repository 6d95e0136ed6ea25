import { IconAlertCircle } from '@tabler/icons-react';
import type { MfaRequiredResponse, SecondFactorProof } from '@veriform/contracts';
import { type FormEvent, useId, useState } from 'react';
import classes from '../../../components/form/PlainForm.module.css';
import { useFocusOnMount } from '../../../lib/use-focus-on-mount';

/** What the second step does (the app's and the first paint's own calls: ../second-factor-api.ts). */
export interface SecondFactorActions {
  /** Finishes the sign-in with the proof; resolves once signed in (the caller moves on). Throws the API's error. */
  prove: (proof: SecondFactorProof) => Promise<void>;
  /** The browser's passkey for a fresh challenge (loads the WebAuthn code). */
  passkeyProof: () => Promise<Extract<SecondFactorProof, { method: 'passkey' }>['response']>;
}

type CodeMethod = 'totp' | 'recovery_code';

const texts: Record<CodeMethod, { label: string; hint: string; other: string }> = {
  totp: {
    label: 'Authentication code',
    hint: 'Enter the 6-digit code from your authenticator app.',
    other: 'Use your authenticator app',
  },
  recovery_code: {
    label: 'Recovery code',
    hint: 'Enter one of the recovery codes you saved when you set up your second factor. Each works once.',
    other: 'Use a recovery code',
  },
};

/**
 * The sign-in's second step (issue #38), in the login form's plain elements (it is part of the first paint's
 * bundle): a code from the authenticator app, a recovery code, or a passkey, as `methods` offers. A wrong code shows
 * under the box; an expired sign-in goes back to the first step (`onExpired`) with the server's words.
 */
export function SecondFactorStep({
  methods,
  actions,
  onExpired,
  onBack,
}: {
  methods: MfaRequiredResponse['methods'];
  actions: SecondFactorActions;
  onExpired: (message: string) => void;
  onBack: () => void;
}) {
  const id = useId();
  const [method, setMethod] = useState<CodeMethod>(methods.includes('totp') ? 'totp' : 'recovery_code');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [pending, setPending] = useState<'code' | 'passkey' | null>(null);
  const inputRef = useFocusOnMount<HTMLInputElement>();
  const codeMethods = (['totp', 'recovery_code'] as const).filter((m) => methods.includes(m));
  const otherCodeMethod = codeMethods.find((m) => m !== method);

  const finish = async (kind: 'code' | 'passkey', proof: () => Promise<SecondFactorProof>) => {
    if (pending) return;
    setPending(kind);
    setAlert(null);
    try {
      await actions.prove(await proof());
    } catch (error) {
      const { describeSecondFactorError } = await import('../login-checks');
      const described = describeSecondFactorError(error);
      if (described.expired) {
        onExpired(described.message);
        return;
      }
      if (kind === 'code' && described.field) {
        setFieldError(described.message);
        inputRef.current?.focus();
      } else setAlert(described.message);
    } finally {
      setPending(null);
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { checkCode } = await import('../login-checks');
    const checked = checkCode(method, code);
    if (!checked.proof) {
      setFieldError(checked.error);
      inputRef.current?.focus();
      return;
    }
    const { proof } = checked;
    await finish('code', async () => proof);
  };

  const switchTo = (next: CodeMethod) => {
    setMethod(next);
    setCode('');
    setFieldError(null);
    inputRef.current?.focus();
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Second factor" className={classes.stack}>
      {alert && (
        <div role="alert" className={classes.alert}>
          <IconAlertCircle size={20} aria-hidden="true" className={classes.alertIcon} />
          <div className={classes.alertBody}>{alert}</div>
        </div>
      )}
      {codeMethods.length > 0 && (
        <>
          <p className={classes.hint} id={`${id}-hint`}>
            {texts[method].hint}
          </p>
          <div className={classes.field}>
            <label htmlFor={`${id}-code`} className={classes.label}>
              {texts[method].label}
            </label>
            <input
              ref={inputRef}
              id={`${id}-code`}
              className={classes.input}
              value={code}
              onChange={(event) => {
                setCode(event.currentTarget.value);
                setFieldError(null);
              }}
              autoComplete="one-time-code"
              inputMode={method === 'totp' ? 'numeric' : 'text'}
              spellCheck={false}
              required
              aria-invalid={Boolean(fieldError)}
              aria-describedby={fieldError ? `${id}-hint ${id}-code-error` : `${id}-hint`}
              data-invalid={fieldError ? true : undefined}
            />
            {fieldError && (
              <p id={`${id}-code-error`} className={classes.error}>
                {fieldError}
              </p>
            )}
          </div>
          <button
            type="submit"
            className={classes.submit}
            disabled={pending !== null}
            aria-busy={pending === 'code'}
          >
            Verify
          </button>
        </>
      )}
      {methods.includes('passkey') && (
        <>
          {codeMethods.length > 0 && <div className={classes.divider}>or</div>}
          <button
            type="button"
            className={`${classes.submit} ${classes.secondary}`}
            disabled={pending !== null}
            aria-busy={pending === 'passkey'}
            onClick={() =>
              void finish('passkey', async () => ({
                method: 'passkey',
                response: await actions.passkeyProof(),
              }))
            }
          >
            Use a passkey
          </button>
        </>
      )}
      {otherCodeMethod && (
        <button type="button" className={classes.linkButton} onClick={() => switchTo(otherCodeMethod)}>
          {texts[otherCodeMethod].other}
        </button>
      )}
      <button type="button" className={classes.linkButton} onClick={onBack}>
        Back to sign in
      </button>
    </form>
  );
}
