import type {
  PublicPageData,
  PublicRevocationRequest,
  PublicRevocationResponse,
  PublicVerifyForm,
} from '@veriform/contracts';
import { publicRevokeTexts } from '@veriform/contracts/public-revoke-texts';
import { publicVerifyTexts } from '@veriform/contracts/public-verify-texts';
import { type FormEvent, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPublicApi, type Failure, type FetchLike, type PublicApi } from './api';
import { TextField } from './TextField';
import { NotAvailable, useDocumentHead } from './VerifyPage';

/**
 * The form's revocation page `/f/{publicId}/revoke` (issue #35; FCC 24-24, 47 CFR 64.1200(a)(12)): the consumer
 * revokes their consent to the company by the phone number or the e-mail address they gave it, with no proof that it
 * is theirs, may ask for the one confirmation text, and sees when the request was received. The hosted page's small
 * client and sheet, loaded as a chunk of its own (main.tsx), every text from the contracts in the form's language.
 */

type Channel = 'phone' | 'email';
type FieldName = 'phone' | 'email' | 'confirm';
type Errors = Partial<Record<FieldName | 'alert', string>>;
type FocusTarget = FieldName | 'submit' | 'done';

export interface RevokePageProps {
  data: PublicPageData;
  /** The network boundary; tests pass a fake. Defaults to the global fetch. */
  fetch?: FetchLike;
}

export function RevokePage({ data, fetch }: RevokePageProps) {
  const api = useMemo(() => createPublicApi(data.csrfToken, fetch), [data.csrfToken, fetch]);
  if (!data.form) return <NotAvailable texts={publicVerifyTexts[data.language ?? 'en']} takeFocus={false} />;
  return <RevokeFlow form={data.form} api={api} />;
}

/** "November 29, 2026 at 4:51 PM" / "29 de noviembre de 2026, 16:51": when it was received, in the reader's zone. */
function receivedText(language: 'en' | 'es', iso: string): string {
  return new Intl.DateTimeFormat(language === 'es' ? 'es-US' : 'en-US', {
    dateStyle: 'long',
    timeStyle: 'short',
  }).format(new Date(iso));
}

type Done = { revocation: PublicRevocationResponse; confirmAsked: boolean };

function RevokeFlow({ form, api }: { form: PublicVerifyForm; api: PublicApi }) {
  const t = publicRevokeTexts[form.language];
  const page = publicVerifyTexts[form.language];
  const [channel, setChannel] = useState<Channel>('phone');
  const [phone, setPhone] = useState('');
  const [email, setEmail] = useState('');
  const [confirm, setConfirm] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState<Done | null>(null);
  const [unavailable, setUnavailable] = useState(false);

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

  useDocumentHead(page.htmlLang, t.pageTitle(form.company), t.intro(form.company));

  if (unavailable) return <NotAvailable texts={page} takeFocus />;

  const shownFields: readonly FieldName[] = channel === 'phone' ? ['phone', 'confirm'] : ['email'];

  /** A refusal beside the field it names (when shown), else in the alert; a form gone offline is "not available". */
  function showFailure(failure: Failure) {
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
      next.alert = failure.kind === 'network' ? page.networkError : page.genericError;
    }
    setErrors(next);
    focusNext.current = shownFields.find((name) => next[name]) ?? 'submit';
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    const value = (channel === 'phone' ? phone : email).trim();
    if (!value) {
      setErrors(channel === 'phone' ? { phone: t.phoneRequired } : { email: t.emailRequired });
      focusNext.current = channel;
      return;
    }
    const request: PublicRevocationRequest =
      channel === 'phone' ? { phone: value, confirm } : { email: value };
    setPending(true);
    setErrors({});
    const result = await api.revoke(form.publicId, request);
    setPending(false);
    if (!result.ok) {
      showFailure(result.failure);
      return;
    }
    setDone({ revocation: result.data, confirmAsked: channel === 'phone' && confirm });
    focusNext.current = 'done';
  }

  const clearError = (field: FieldName) => {
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const choose = (next: Channel) => {
    setChannel(next);
    setErrors({});
  };

  return (
    <div className="vf-card">
      {form.bannerImage ? (
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
              {page.verifiedDomain(form.companyDomain)}
            </p>
          ) : null}
          <h1 className="vf-title">{t.title}</h1>
          {done ? null : <p className="vf-intro">{t.intro(form.company)}</p>}
        </header>

        <p className="vf-status" role="status">
          {pending ? t.submitting : ''}
        </p>

        {done ? (
          <section className="vf-success">
            <svg className="vf-check" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z" />
            </svg>
            <h2 className="vf-title" tabIndex={-1} ref={bind('done')}>
              {t.doneTitle}
            </h2>
            <p>{t.doneBody(form.company, receivedText(form.language, done.revocation.receivedAt))}</p>
            {done.confirmAsked ? <p>{t.doneConfirm}</p> : null}
            <p className="vf-muted vf-reference">{t.reference(done.revocation.id)}</p>
          </section>
        ) : (
          <form className="vf-form" onSubmit={(event) => void submit(event)} noValidate>
            <fieldset className="vf-methods">
              <legend className="vf-label">{t.whichLegend}</legend>
              {(
                [
                  ['phone', t.choicePhone],
                  ['email', t.choiceEmail],
                ] as const
              ).map(([value, label]) => (
                <label className="vf-choice" key={value}>
                  <input
                    type="radio"
                    name="channel"
                    value={value}
                    checked={channel === value}
                    onChange={() => choose(value)}
                  />
                  <span>{label}</span>
                </label>
              ))}
            </fieldset>
            {channel === 'phone' ? (
              <>
                <TextField
                  id="vf-revoke-phone"
                  ref={bind('phone')}
                  label={t.phoneLabel}
                  hint={t.phoneHint}
                  error={errors.phone}
                  type="tel"
                  autoComplete="tel"
                  inputMode="tel"
                  value={phone}
                  onValueChange={(value) => {
                    setPhone(value);
                    clearError('phone');
                  }}
                />
                <div className="vf-field">
                  <label className="vf-choice">
                    <input
                      type="checkbox"
                      ref={bind('confirm')}
                      checked={confirm}
                      onChange={(event) => {
                        setConfirm(event.target.checked);
                        clearError('confirm');
                      }}
                      aria-describedby={
                        errors.confirm
                          ? 'vf-revoke-confirm-hint vf-revoke-confirm-error'
                          : 'vf-revoke-confirm-hint'
                      }
                      aria-invalid={errors.confirm ? true : undefined}
                    />
                    <span>{t.confirmLabel}</span>
                  </label>
                  <p className="vf-hint vf-choice-hint" id="vf-revoke-confirm-hint">
                    {t.confirmHint}
                  </p>
                  {errors.confirm ? (
                    <p className="vf-error" id="vf-revoke-confirm-error">
                      {errors.confirm}
                    </p>
                  ) : null}
                </div>
              </>
            ) : (
              <TextField
                id="vf-revoke-email"
                ref={bind('email')}
                label={t.emailLabel}
                hint={t.emailHint}
                error={errors.email}
                type="email"
                autoComplete="email"
                value={email}
                onValueChange={(value) => {
                  setEmail(value);
                  clearError('email');
                }}
              />
            )}
            {errors.alert ? (
              <p className="vf-alert" role="alert">
                {errors.alert}
              </p>
            ) : null}
            <button
              className="vf-button"
              type="submit"
              ref={bind('submit')}
              disabled={pending}
              aria-busy={pending || undefined}
            >
              {pending ? t.submitting : t.submit}
            </button>
          </form>
        )}
      </div>
      <footer className="vf-footer">{page.poweredBy}</footer>
    </div>
  );
}
