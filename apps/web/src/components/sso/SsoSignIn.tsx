import { IconAlertCircle, IconBuildingSkyscraper } from '@tabler/icons-react';
import { SSO_START_PATH, ssoErrorText, ssoTexts } from '@veriform/contracts/sso-texts';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import classes from '../form/PlainForm.module.css';

/** The failure the SSO callback sent the browser back with (`?sso_error=`), in words; null when there is none. */
export function ssoErrorOfLocation(search: string): string | null {
  const code = new URLSearchParams(search).get('sso_error');
  return code ? ssoErrorText(code) : null;
}

/** Where the browser goes to sign in through the company's provider (the server redirects it there). */
export const ssoStartHref = (email: string) => `${SSO_START_PATH}?email=${encodeURIComponent(email.trim())}`;

const looksLikeAnAddress = (email: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim());

/**
 * The login page's single sign-on (issue #38 item 4), below the password form: "Sign in with SSO" asks the work
 * address, then the browser goes to `/auth/sso/start?email=…`, which sends it to the company's identity provider (or
 * answers that the domain has none). A failed sign-in comes back with `?sso_error=`, shown here. Plain elements, as the
 * login form's: the page's first paint shows it before Mantine is loaded. `navigate` is the page load (tests give
 * their own).
 */
export function SsoSignIn({
  search = typeof window === 'undefined' ? '' : window.location.search,
  navigate = (href: string) => window.location.assign(href),
}: {
  search?: string;
  navigate?: (href: string) => void;
}) {
  const id = useId();
  const failure = ssoErrorOfLocation(search);
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [going, setGoing] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  // The person chose SSO a moment ago: focus follows the button they pressed to the address they type next.
  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!looksLikeAnAddress(email)) {
      setError(ssoTexts.invalidEmail);
      inputRef.current?.focus();
      return;
    }
    setError(null);
    setGoing(true);
    navigate(ssoStartHref(email));
  };

  return (
    <div className={classes.stack}>
      {failure && (
        <div role="alert" className={classes.alert}>
          <IconAlertCircle size={20} aria-hidden="true" className={classes.alertIcon} />
          <div>{failure}</div>
        </div>
      )}
      {open ? (
        <form onSubmit={submit} noValidate aria-label="Sign in with SSO" className={classes.stack}>
          <div className={classes.field}>
            <label htmlFor={`${id}-sso-email`} className={classes.label}>
              Work email
            </label>
            <p id={`${id}-sso-hint`} className={classes.hint}>
              Your company’s identity provider signs you in.
            </p>
            <input
              ref={inputRef}
              id={`${id}-sso-email`}
              className={classes.input}
              type="email"
              autoComplete="email"
              inputMode="email"
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-sso-hint ${id}-sso-error` : `${id}-sso-hint`}
            />
            {error && (
              <p id={`${id}-sso-error`} className={classes.error}>
                {error}
              </p>
            )}
          </div>
          <button
            type="submit"
            className={`${classes.submit} ${classes.secondary}`}
            disabled={going}
            aria-busy={going}
          >
            Continue with SSO
          </button>
        </form>
      ) : (
        <button
          type="button"
          className={`${classes.submit} ${classes.secondary}`}
          onClick={() => setOpen(true)}
        >
          <IconBuildingSkyscraper
            size={16}
            aria-hidden="true"
            style={{ verticalAlign: 'text-bottom', marginRight: 6 }}
          />
          Sign in with SSO
        </button>
      )}
    </div>
  );
}
