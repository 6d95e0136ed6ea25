import type {
  PublicPageData,
  PublicVerifyForm,
  SendCodeRequest,
  SendCodeResponse,
  VerificationMethod,
} from '@veriform/contracts';
import { type PublicVerifyTexts, publicVerifyTexts } from '@veriform/contracts/public-verify-texts';
import { revokeLinkTexts, revokePagePath } from '@veriform/contracts/revoke-link';
import { type FormEvent, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPublicApi, type Failure, type FetchLike, type PublicApi } from './api';
import { ConsentText } from './ConsentText';
import { TextField } from './TextField';
import { useCountdown } from './useCountdown';
import { useDeliveryStatus } from './useDeliveryStatus';

/**
 * The public verification page (DESIGN §5): the consumer gives a cell phone number, receives a 6-digit code by SMS or
 * e-mail, and types it back. Three steps on one screen, every text from the contracts in the form's language.
 */

/** CODE_LENGTH in the contracts; not imported because that module loads zod, which this page must not. */
const CODE_DIGITS = 6;
const CODE_PATTERN = /^[0-9]{6}$/;

type Step = 'phone' | 'code' | 'done';
type Pending = 'send' | 'resend' | 'check' | null;
type FieldName = 'cellPhone' | 'email' | 'code' | 'consentAccepted';
type Errors = Partial<Record<FieldName | 'alert', string>>;
/** What gets the focus after the next render: the new step's first input or heading, or the field to fix. */
type FocusTarget = FieldName | 'send' | 'verify' | 'resend' | 'success';

/** WebOTP: not in TypeScript's DOM types yet. */
interface OtpCredential extends Credential {
  code: string;
}
type OtpRequestOptions = CredentialRequestOptions & { otp: { transport: string[] } };

function isOtpCredential(credential: Credential | null): credential is OtpCredential {
  return credential !== null && 'code' in credential && typeof credential.code === 'string';
}

/** The page's language, title and description, in the form's language (the revocation page uses it too). */
export function useDocumentHead(lang: string, title: string, description: string): void {
  useEffect(() => {
    document.documentElement.lang = lang;
    document.title = title;
    document.querySelector('meta[name="description"]')?.setAttribute('content', description);
  }, [lang, title, description]);
}

export interface VerifyPageProps {
  data: PublicPageData;
  /** The network boundary; tests pass a fake. Defaults to the global fetch. */
  fetch?: FetchLike;
}

export function VerifyPage({ data, fetch }: VerifyPageProps) {
  const api = useMemo(() => createPublicApi(data.csrfToken, fetch), [data.csrfToken, fetch]);
  // No form: an inactive one still tells its language; an unknown link has none, so the page speaks English.
  if (!data.form) return <NotAvailable texts={publicVerifyTexts[data.language ?? 'en']} takeFocus={false} />;
  return <VerifyFlow form={data.form} externalRefId={data.externalRefId} api={api} />;
}

/** An unknown link or an inactive form: said plainly, in the form's language (the revocation page's too). */
export function NotAvailable({ texts, takeFocus }: { texts: PublicVerifyTexts; takeFocus: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useDocumentHead(texts.htmlLang, texts.notAvailableTitle, texts.notAvailableBody);
  useEffect(() => {
    // Only when the form disappears mid-way (a 404 answer); on page load the focus stays where the browser put it.
    if (takeFocus) heading.current?.focus();
  }, [takeFocus]);
  return (
    <div className="vf-card">
      <div className="vf-body">
        <h1 className="vf-title" tabIndex={-1} ref={heading}>
          {texts.notAvailableTitle}
        </h1>
        <p>{texts.notAvailableBody}</p>
      </div>
    </div>
  );
}

interface VerifyFlowProps {
  form: PublicVerifyForm;
  externalRefId: string | null;
  api: PublicApi;
}

function VerifyFlow({ form, externalRefId, api }: VerifyFlowProps) {
  const t = publicVerifyTexts[form.language];
  const [step, setStep] = useState<Step>('phone');
  const [unavailable, setUnavailable] = useState(false);
  // Everything typed lives here, above the steps, so going back or failing never loses it.
  const [cellPhone, setCellPhone] = useState('');
  const [method, setMethod] = useState<VerificationMethod>('sms');
  const [email, setEmail] = useState('');
  const [agreed, setAgreed] = useState(false);
  const consent = form.consent;
  const [code, setCode] = useState('');
  const [attempt, setAttempt] = useState<SendCodeResponse | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState<Pending>(null);
  const countdown = useCountdown();
  // Issue #18: asked while the code step waits; a failed message says why, in the form's language.
  const delivery = useDeliveryStatus(
    api,
    step === 'code' ? (attempt?.attemptId ?? null) : null,
    attempt?.expiresAt ?? null,
  );

  const elements = useRef<Partial<Record<FocusTarget, HTMLElement | null>>>({});
  const focusNext = useRef<FocusTarget | null>(null);
  const bind = (target: FocusTarget) => (element: HTMLElement | null) => {
    elements.current[target] = element;
  };
  useLayoutEffect(() => {
    const target = focusNext.current;
    if (!target) return;
    focusNext.current = null;
    elements.current[target]?.focus();
  });

  useDocumentHead(t.htmlLang, `${form.name} – ${form.company}`, t.intro(form.company));

  /** Maps a refusal to what the consumer sees: beside a field shown in this step, or in the alert. */
  function showFailure(failure: Failure, shownFields: readonly FieldName[], fallbackFocus: FocusTarget) {
    if (failure.kind === 'notFound') {
      setUnavailable(true);
      return;
    }
    const next: Errors = {};
    if (failure.kind === 'validation') {
      const others = [...failure.others];
      for (const [field, message] of Object.entries(failure.fields)) {
        const shown = shownFields.find((name) => name === field);
        if (shown) next[shown] = message;
        else others.push(message);
      }
      if (others.length) next.alert = others.join(' ');
    } else if (failure.kind === 'detail') {
      next.alert = failure.detail;
    } else {
      next.alert = failure.kind === 'network' ? t.networkError : t.genericError;
    }
    setErrors(next);
    focusNext.current = shownFields.find((name) => next[name]) ?? fallbackFocus;
  }

  async function sendCode(origin: 'send' | 'resend') {
    if (pending || form.preview) return;
    const phone = cellPhone.trim();
    const address = email.trim();
    if (origin === 'send') {
      const found: Errors = {};
      if (!phone) found.cellPhone = t.cellPhoneRequired;
      if (method === 'email' && !address) found.email = t.emailRequired;
      if (consent?.requireCheckbox && !agreed) found.consentAccepted = t.consentRequired;
      if (found.cellPhone || found.email || found.consentAccepted) {
        setErrors(found);
        focusNext.current = found.cellPhone ? 'cellPhone' : found.email ? 'email' : 'consentAccepted';
        return;
      }
    }
    const request: SendCodeRequest = { cellPhone: phone, method };
    if (method === 'email') request.email = address;
    if (externalRefId) request.externalRefId = externalRefId;
    // A refresh link's token (issue #36 item 4): the server binds the verification to the one it refreshes.
    const refresh = new URLSearchParams(location.search).get('refresh');
    if (refresh) request.refresh = refresh;
    // This opening of the page (issue #18), so the member's timeline shows the page and consent before the code.
    if (form.pageViewId) request.pageViewId = form.pageViewId;
    // The version shown, so the attempt records what the consumer read (and a newer one is refused as stale).
    if (consent) {
      request.consentVersionId = consent.versionId;
      request.consentAccepted = agreed;
    }

    setPending(origin);
    setErrors({});
    const result = await api.sendCode(form.publicId, request);
    setPending(null);
    if (!result.ok) {
      const shown: FieldName[] = origin === 'send' ? ['cellPhone', 'email', 'consentAccepted'] : [];
      showFailure(result.failure, method === 'email' ? shown : shown.filter((f) => f !== 'email'), origin);
      return;
    }
    // A new attempt replaces the old one: its code is the only one that still works.
    setAttempt(result.data);
    setCode('');
    countdown.start(result.data.resendAfterSeconds);
    setStep('code');
    focusNext.current = 'code';
  }

  async function checkCode(typed: string) {
    if (pending || !attempt) return;
    const value = typed.replace(/\s+/g, '');
    if (!value || !CODE_PATTERN.test(value)) {
      setErrors({ code: value ? t.codeFormat : t.codeRequired });
      focusNext.current = 'code';
      return;
    }
    setPending('check');
    setErrors({});
    const result = await api.checkCode(attempt.attemptId, { code: value });
    setPending(null);
    if (!result.ok) {
      showFailure(result.failure, ['code'], 'verify');
      return;
    }
    setStep('done');
    focusNext.current = 'success';
  }

  // WebOTP (Chrome on Android): the browser offers the code from the SMS; take it and verify at once. Renewed for each
  // attempt, and aborted when the step changes or the page goes away.
  const checkLatest = useRef(checkCode);
  useLayoutEffect(() => {
    checkLatest.current = checkCode;
  });
  const attemptId = attempt?.attemptId;
  useEffect(() => {
    if (step !== 'code' || method !== 'sms' || !attemptId || !('OTPCredential' in window)) return;
    const controller = new AbortController();
    const options: OtpRequestOptions = { otp: { transport: ['sms'] }, signal: controller.signal };
    navigator.credentials
      .get(options)
      .then((credential) => {
        if (controller.signal.aborted || !isOtpCredential(credential)) return;
        setCode(credential.code);
        void checkLatest.current(credential.code);
      })
      .catch(() => {
        // Aborted, refused or timed out: the consumer types the code instead.
      });
    return () => controller.abort();
  }, [step, method, attemptId]);

  if (unavailable) return <NotAvailable texts={t} takeFocus />;

  const clearError = (field: FieldName) => {
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onSend = (event: FormEvent) => {
    event.preventDefault();
    void sendCode('send');
  };
  const onVerify = (event: FormEvent) => {
    event.preventDefault();
    void checkCode(code);
  };
  const switchToEmail = () => {
    setMethod('email');
    setStep('phone');
    setErrors({});
    setCode('');
    focusNext.current = 'email';
  };
  const changeNumber = () => {
    setStep('phone');
    setErrors({});
    setCode('');
    focusNext.current = 'cellPhone';
  };

  const sending = pending === 'send' || pending === 'resend';
  let status = '';
  if (sending) status = t.sending;
  else if (step === 'code' && attempt) status = t.codeSentTo(attempt.sentTo);
  const alert = errors.alert ? (
    <p className="vf-alert" role="alert">
      {errors.alert}
    </p>
  ) : null;

  return (
    <div className="vf-card">
      {form.bannerImage ? (
        // Decorative (the company and form names follow as text); width/height reserve a 4:1 box so nothing
        // moves when the image arrives, and the CSS letterboxes other proportions inside it.
        <img
          className="vf-banner"
          src={form.bannerImage}
          alt=""
          width={1200}
          height={300}
          fetchPriority="high"
          decoding="async"
        />
      ) : null}
      <div className="vf-body">
        <header className="vf-header">
          <p className="vf-company">{form.company}</p>
          {form.companyDomain ? (
            <p className="vf-domain">
              <span aria-hidden="true">✓ </span>
              {t.verifiedDomain(form.companyDomain)}
            </p>
          ) : null}
          <h1 className="vf-title">{form.name}</h1>
          {step === 'phone' ? <p className="vf-intro">{t.intro(form.company)}</p> : null}
        </header>

        {form.preview ? <p className="vf-notice">{t.previewNotice}</p> : null}

        {/* One live region for the whole page, so each change of step is announced. */}
        <p className="vf-status" role="status">
          {status}
        </p>

        {step === 'phone' ? (
          <form className="vf-form" onSubmit={onSend} noValidate>
            <TextField
              id="vf-cell-phone"
              ref={bind('cellPhone')}
              label={t.cellPhoneLabel}
              hint={t.cellPhoneHint}
              error={errors.cellPhone}
              type="tel"
              autoComplete="tel"
              inputMode="tel"
              value={cellPhone}
              onValueChange={(value) => {
                setCellPhone(value);
                clearError('cellPhone');
              }}
            />
            <fieldset className="vf-methods">
              <legend className="vf-label">{t.methodLegend}</legend>
              {(
                [
                  ['sms', t.methodSms],
                  ['email', t.methodEmail],
                ] as const
              ).map(([value, label]) => (
                <label className="vf-choice" key={value}>
                  <input
                    type="radio"
                    name="method"
                    value={value}
                    checked={method === value}
                    onChange={() => setMethod(value)}
                  />
                  <span>{label}</span>
                </label>
              ))}
            </fieldset>
            {method === 'email' ? (
              <TextField
                id="vf-email"
                ref={bind('email')}
                label={t.emailLabel}
                error={errors.email}
                type="email"
                autoComplete="email"
                value={email}
                onValueChange={(value) => {
                  setEmail(value);
                  clearError('email');
                }}
              />
            ) : null}
            {consent ? (
              <div className="vf-consent">
                <ConsentText id="vf-consent-text" className="vf-consent-text" text={consent.text} />
                {consent.requireCheckbox ? (
                  <label className="vf-choice vf-agree">
                    <input
                      type="checkbox"
                      ref={bind('consentAccepted')}
                      checked={agreed}
                      onChange={(event) => {
                        setAgreed(event.target.checked);
                        clearError('consentAccepted');
                      }}
                      aria-describedby={
                        errors.consentAccepted ? 'vf-consent-text vf-consent-error' : 'vf-consent-text'
                      }
                      aria-invalid={errors.consentAccepted ? true : undefined}
                    />
                    <span>{t.consentAgree}</span>
                  </label>
                ) : null}
                {errors.consentAccepted ? (
                  <p
                    className="vf-error"
                    id="vf-consent-error"
                    tabIndex={-1}
                    ref={consent.requireCheckbox ? undefined : bind('consentAccepted')}
                  >
                    {errors.consentAccepted}
                  </p>
                ) : null}
              </div>
            ) : null}
            {alert}
            <button
              className="vf-button"
              type="submit"
              ref={bind('send')}
              disabled={pending !== null || form.preview}
            >
              {sending ? t.sending : t.sendCode}
            </button>
          </form>
        ) : null}

        {step === 'code' ? (
          <>
            {delivery?.message ? (
              <div className="vf-alert vf-delivery" role="alert">
                <p>{delivery.message}</p>
                {delivery.suggestEmail ? (
                  <button
                    className="vf-link"
                    type="button"
                    disabled={pending !== null}
                    onClick={switchToEmail}
                  >
                    {t.useEmailInstead}
                  </button>
                ) : null}
              </div>
            ) : null}
            <form className="vf-form" onSubmit={onVerify} noValidate>
              <TextField
                id="vf-code"
                ref={bind('code')}
                className="vf-code"
                label={t.codeLabel}
                hint={t.codeHint}
                error={errors.code}
                type="text"
                autoComplete="one-time-code"
                inputMode="numeric"
                pattern="[0-9]*"
                maxLength={CODE_DIGITS}
                value={code}
                onValueChange={(value) => {
                  setCode(value);
                  clearError('code');
                }}
              />
              {alert}
              <button className="vf-button" type="submit" ref={bind('verify')} disabled={pending !== null}>
                {pending === 'check' ? t.verifying : t.verify}
              </button>
            </form>
            <div className="vf-secondary">
              {countdown.secondsLeft > 0 ? (
                <p className="vf-muted">{t.resendIn(countdown.secondsLeft)}</p>
              ) : (
                <button
                  className="vf-link"
                  type="button"
                  ref={bind('resend')}
                  disabled={pending !== null}
                  onClick={() => void sendCode('resend')}
                >
                  {pending === 'resend' ? t.sending : t.resend}
                </button>
              )}
              <button className="vf-link" type="button" disabled={pending !== null} onClick={changeNumber}>
                {t.changeNumber}
              </button>
            </div>
          </>
        ) : null}

        {step === 'done' && attempt ? (
          <section className="vf-success">
            <svg className="vf-check" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z" />
            </svg>
            <h2 className="vf-title" tabIndex={-1} ref={bind('success')}>
              {t.successTitle}
            </h2>
            <p>{t.successBody(attempt.cellPhone)}</p>
          </section>
        ) : null}
      </div>
      <footer className="vf-footer">
        {/* Issue #35: the consumer may revoke at any time, by any reasonable means (FCC 24-24). */}
        <p>
          <a className="vf-footer-link" href={revokePagePath(form.publicId)}>
            {revokeLinkTexts[form.language]}
          </a>
        </p>
        <p>{t.poweredBy}</p>
      </footer>
    </div>
  );
}
