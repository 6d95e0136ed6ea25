import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PublicPageData, PublicVerifyForm, SendCodeResponse } from '@veriform/contracts';
import { publicVerifyTexts } from '@veriform/contracts/public-verify-texts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeServer } from '../test/fake-server';
import { parsePageData } from './page-data';
import { VerifyPage } from './VerifyPage';

const en = publicVerifyTexts.en;
const es = publicVerifyTexts.es;
const SEND = 'POST /api/public/verify-forms/pub-1/send-code';
const CHECK = 'POST /api/public/attempts/att-1/check';

function makeForm(over: Partial<PublicVerifyForm> = {}): PublicVerifyForm {
  return {
    publicId: 'pub-1',
    name: 'Loan application',
    company: 'Acme Lending',
    companyDomain: null,
    language: 'en',
    bannerImage: null,
    preview: false,
    consent: null,
    pageViewId: null,
    ...over,
  };
}

function pageData(over: Partial<PublicPageData> = {}): PublicPageData {
  return { csrfToken: 'csrf-page', form: makeForm(), externalRefId: null, language: 'en', ...over };
}

function sent(over: Partial<SendCodeResponse> = {}): SendCodeResponse {
  return {
    attemptId: 'att-1',
    resendAfterSeconds: 30,
    expiresAt: '2026-01-01T00:10:00Z',
    sentTo: '(•••) •••-0123',
    cellPhone: '+1 201 555 0123',
    ...over,
  };
}

type FakeServer = ReturnType<typeof createFakeServer>;

function renderPage(data: PublicPageData = pageData(), server: FakeServer = createFakeServer()) {
  const view = render(<VerifyPage data={data} fetch={server.fetch} />);
  return { ...view, server };
}

/** Step 1 done in the English form: the number typed and sent, the code step shown. */
async function reachCodeStep(server: FakeServer, data: PublicPageData = pageData()) {
  const user = userEvent.setup();
  renderPage(data, server);
  await user.type(screen.getByLabelText(en.cellPhoneLabel), '(201) 555-0123');
  await user.click(screen.getByRole('button', { name: en.sendCode }));
  const code = await screen.findByLabelText(en.codeLabel);
  return { user, code };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('public verification page', () => {
  it('names the company’s verified domain beside its name, in the form’s language; nothing without one', () => {
    const { unmount } = renderPage(pageData({ form: makeForm({ companyDomain: 'acme-lending.example' }) }));
    expect(screen.getByText(en.verifiedDomain('acme-lending.example'))).toBeInTheDocument();
    unmount();
    const spanish = renderPage(
      pageData({ form: makeForm({ language: 'es', companyDomain: 'acme-lending.example' }), language: 'es' }),
    );
    expect(screen.getByText(es.verifiedDomain('acme-lending.example'))).toBeInTheDocument();
    spanish.unmount();
    renderPage();
    expect(screen.queryByText(/acme-lending\.example|Verified domain/)).toBeNull();
    // The page data carries it as the server embedded it.
    expect(
      parsePageData(JSON.stringify(pageData({ form: makeForm({ companyDomain: 'acme-lending.example' }) })))
        .form?.companyDomain,
    ).toBe('acme-lending.example');
  });

  it('an inactive Spanish form: the not-available page in Spanish, with the page language set', () => {
    renderPage(pageData({ form: null, language: 'es' }));
    expect(screen.getByRole('heading', { level: 1, name: es.notAvailableTitle })).toBeInTheDocument();
    expect(screen.getByText(es.notAvailableBody)).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('es');
    expect(document.title).toBe(es.notAvailableTitle);
  });

  it('shows the polite not-available page, in English, when there is no form', () => {
    renderPage(pageData({ form: null, language: null }));
    expect(screen.getByRole('heading', { level: 1, name: en.notAvailableTitle })).toBeInTheDocument();
    expect(screen.getByText(en.notAvailableBody)).toBeInTheDocument();
    expect(screen.queryByLabelText(en.cellPhoneLabel)).not.toBeInTheDocument();
    expect(document.documentElement.lang).toBe('en');
    expect(document.title).toBe(en.notAvailableTitle);
  });

  it('reads missing or malformed page data as "no form"', () => {
    expect(parsePageData(undefined).form).toBeNull();
    expect(parsePageData('{not json').form).toBeNull();
    expect(parsePageData(JSON.stringify({ csrfToken: 't', form: { name: 'x' } })).form).toBeNull();
    const good = parsePageData(JSON.stringify({ ...pageData(), externalRefId: 'CRM-1' }));
    expect(good).toEqual({ ...pageData(), externalRefId: 'CRM-1' });
    expect(parsePageData(JSON.stringify({ form: null, language: 'es' })).language).toBe('es');
    expect(parsePageData(JSON.stringify({ form: null, language: 'fr' })).language).toBeNull();
  });

  it('shows the form with its banner, names and introduction, in the form language', () => {
    renderPage(pageData({ form: makeForm({ bannerImage: `/media/${'a'.repeat(64)}.webp` }) }));
    expect(screen.getByRole('heading', { level: 1, name: 'Loan application' })).toBeInTheDocument();
    expect(screen.getByText(en.intro('Acme Lending'))).toBeInTheDocument();
    // Decorative banner: no name, and its box reserved by width/height so nothing shifts when it loads.
    const banner = document.querySelector('img');
    expect(banner).toHaveAttribute('alt', '');
    expect(banner).toHaveAttribute('width', '1200');
    expect(banner).toHaveAttribute('height', '300');
    expect(document.title).toBe('Loan application – Acme Lending');
    expect(document.querySelector('html')?.lang).toBe('en');
    expect(screen.getByRole('radio', { name: en.methodSms })).toBeChecked();
    const phone = screen.getByLabelText(en.cellPhoneLabel);
    expect(phone).toHaveAttribute('type', 'tel');
    expect(phone).toHaveAttribute('autocomplete', 'tel');
    expect(phone).toHaveAttribute('inputmode', 'tel');
    expect(phone).toHaveAccessibleDescription(en.cellPhoneHint);
  });

  it('in preview, shows the notice and does not send', async () => {
    const { server } = renderPage(pageData({ form: makeForm({ preview: true }) }));
    expect(screen.getByText(en.previewNotice)).toBeVisible();
    expect(screen.getByRole('button', { name: en.sendCode })).toBeDisabled();
    fireEvent.change(screen.getByLabelText(en.cellPhoneLabel), { target: { value: '2015550123' } });
    fireEvent.submit(screen.getByRole('button', { name: en.sendCode }));
    await Promise.resolve();
    expect(server.requests).toHaveLength(0);
  });

  it('checks the number, and the e-mail address when sending by e-mail, before sending', async () => {
    const user = userEvent.setup();
    const { server } = renderPage();
    await user.click(screen.getByRole('button', { name: en.sendCode }));
    const phone = screen.getByLabelText(en.cellPhoneLabel);
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(phone).toHaveAccessibleDescription(`${en.cellPhoneHint} ${en.cellPhoneRequired}`);
    expect(phone).toHaveFocus();

    await user.type(phone, '(201) 555-0123');
    expect(phone).not.toHaveAttribute('aria-invalid');
    await user.click(screen.getByRole('radio', { name: en.methodEmail }));
    const email = screen.getByRole('textbox', { name: en.emailLabel });
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toHaveAttribute('autocomplete', 'email');
    await user.click(screen.getByRole('button', { name: en.sendCode }));
    expect(email).toHaveAccessibleDescription(en.emailRequired);
    expect(email).toHaveFocus();
    expect(server.requests).toHaveLength(0);
  });

  it('sends the code and moves to the code step, which says where the code went', async () => {
    const server = createFakeServer({ [SEND]: [200, sent()] });
    const user = userEvent.setup();
    renderPage(pageData({ externalRefId: 'CRM-4411' }), server);
    await user.type(screen.getByLabelText(en.cellPhoneLabel), ' (201) 555-0123 ');
    await user.click(screen.getByRole('radio', { name: en.methodEmail }));
    await user.type(screen.getByRole('textbox', { name: en.emailLabel }), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: en.sendCode }));

    const code = await screen.findByLabelText(en.codeLabel);
    expect(code).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent(en.codeSentTo('(•••) •••-0123'));
    const [request] = server.calls(SEND);
    expect(request?.body).toEqual({
      cellPhone: '(201) 555-0123',
      method: 'email',
      email: 'ada@example.com',
      externalRefId: 'CRM-4411',
    });
    expect(request?.headers).toMatchObject({
      'Content-Type': 'application/json',
      'X-CSRFToken': 'csrf-page',
    });
  });

  it('sends the refresh link’s token from its URL (issue #36 item 4), and nothing without one', async () => {
    window.history.replaceState(null, '', '/f/abc?ref=CRM-1&refresh=Tok_en-0123456789abcdef');
    try {
      const server = createFakeServer({ [SEND]: [200, sent()] });
      const user = userEvent.setup();
      renderPage(pageData({ externalRefId: 'CRM-1' }), server);
      await user.type(screen.getByLabelText(en.cellPhoneLabel), '(201) 555-0123');
      await user.click(screen.getByRole('button', { name: en.sendCode }));
      await screen.findByLabelText(en.codeLabel);
      expect(server.calls(SEND)[0]?.body).toEqual({
        cellPhone: '(201) 555-0123',
        method: 'sms',
        externalRefId: 'CRM-1',
        refresh: 'Tok_en-0123456789abcdef',
      });
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it('sends back the page view its data carried (issue #18), which the page data keeps', async () => {
    const data = parsePageData(JSON.stringify(pageData({ form: makeForm({ pageViewId: 'pv_opened-1' }) })));
    expect(data.form?.pageViewId).toBe('pv_opened-1');
    const server = createFakeServer({ [SEND]: [200, sent()] });
    const user = userEvent.setup();
    renderPage(data, server);
    await user.type(screen.getByLabelText(en.cellPhoneLabel), '(201) 555-0123');
    await user.click(screen.getByRole('button', { name: en.sendCode }));
    await screen.findByLabelText(en.codeLabel);
    expect(server.calls(SEND)[0]?.body).toEqual({
      cellPhone: '(201) 555-0123',
      method: 'sms',
      pageViewId: 'pv_opened-1',
    });
  });

  it('gives the code input what phones need to fill it', async () => {
    const { code } = await reachCodeStep(createFakeServer({ [SEND]: [200, sent()] }));
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('pattern', '[0-9]*');
    expect(code).toHaveAttribute('maxlength', '6');
    expect(code).toHaveAccessibleDescription(en.codeHint);
  });

  it('shows a server field error beside the phone field, in Spanish for a Spanish form, keeping the number', async () => {
    const server = createFakeServer({
      'POST /api/public/verify-forms/pub-es/send-code': [
        400,
        { cellPhone: [es.cellPhoneLandline], MainCode_: 'invalid' },
      ],
    });
    const user = userEvent.setup();
    renderPage(
      pageData({ form: makeForm({ publicId: 'pub-es', name: 'Alta de clientes', language: 'es' }) }),
      server,
    );
    expect(document.documentElement.lang).toBe('es');
    expect(screen.getByRole('radio', { name: es.methodSms })).toBeChecked();
    const phone = screen.getByLabelText(es.cellPhoneLabel);
    await user.type(phone, '(201) 555-0100');
    await user.click(screen.getByRole('button', { name: es.sendCode }));

    await waitFor(() =>
      expect(phone).toHaveAccessibleDescription(`${es.cellPhoneHint} ${es.cellPhoneLandline}`),
    );
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(phone).toHaveValue('(201) 555-0100');
    expect(phone).toHaveFocus();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows other fields and non-field errors in an alert above the button', async () => {
    const server = createFakeServer({
      [SEND]: [400, { externalRefId: [en.externalRefIdInvalid], nonFieldErrors: [en.requestInvalid] }],
    });
    const user = userEvent.setup();
    renderPage(pageData(), server);
    await user.type(screen.getByLabelText(en.cellPhoneLabel), '2015550123');
    await user.click(screen.getByRole('button', { name: en.sendCode }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `${en.requestInvalid} ${en.externalRefIdInvalid}`,
    );
  });

  it('shows a 429 refusal in an alert and keeps what was typed', async () => {
    const detail = en.tooManyForPhone(3 * 3600);
    const server = createFakeServer({ [SEND]: [429, { detail }] });
    const user = userEvent.setup();
    renderPage(pageData(), server);
    const phone = screen.getByLabelText(en.cellPhoneLabel);
    await user.type(phone, '2015550123');
    await user.click(screen.getByRole('button', { name: en.sendCode }));
    expect(await screen.findByRole('alert')).toHaveTextContent(detail);
    expect(phone).toHaveValue('2015550123');
    expect(screen.getByRole('button', { name: en.sendCode })).toBeEnabled();
  });

  it('says "try again" on a server error, a CSRF refusal and a lost connection', async () => {
    const server = createFakeServer({ [SEND]: [500, { detail: 'Internal error.' }] });
    const user = userEvent.setup();
    renderPage(pageData(), server);
    await user.type(screen.getByLabelText(en.cellPhoneLabel), '2015550123');
    await user.click(screen.getByRole('button', { name: en.sendCode }));
    expect(await screen.findByRole('alert')).toHaveTextContent(en.genericError);

    server.on(SEND, [403, { detail: 'CSRF token missing or incorrect.' }]);
    await user.click(screen.getByRole('button', { name: en.sendCode }));
    await waitFor(() => expect(server.calls(SEND)).toHaveLength(2));
    expect(await screen.findByRole('alert')).toHaveTextContent(en.genericError);

    server.on(SEND, () => {
      throw new TypeError('Failed to fetch');
    });
    await user.click(screen.getByRole('button', { name: en.sendCode }));
    expect(await screen.findByText(en.networkError)).toBeInTheDocument();
  });

  it('switches to the not-available page when the form is gone (404)', async () => {
    const user = userEvent.setup();
    renderPage(pageData(), createFakeServer({ [SEND]: [404, { detail: 'Not found.' }] }));
    await user.type(screen.getByLabelText(en.cellPhoneLabel), '2015550123');
    await user.click(screen.getByRole('button', { name: en.sendCode }));
    const heading = await screen.findByRole('heading', { name: en.notAvailableTitle });
    expect(heading).toHaveFocus();
  });

  it('checks the code before sending it', async () => {
    const server = createFakeServer({ [SEND]: [200, sent()] });
    const { user, code } = await reachCodeStep(server);
    await user.click(screen.getByRole('button', { name: en.verify }));
    expect(code).toHaveAccessibleDescription(`${en.codeHint} ${en.codeRequired}`);
    await user.type(code, '12a4');
    await user.click(screen.getByRole('button', { name: en.verify }));
    expect(code).toHaveAccessibleDescription(`${en.codeHint} ${en.codeFormat}`);
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls(CHECK)).toHaveLength(0);
  });

  it('shows a wrong code beside the code field', async () => {
    const server = createFakeServer({ [SEND]: [200, sent()], [CHECK]: [400, { code: [en.codeWrong(4)] }] });
    const { user, code } = await reachCodeStep(server);
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: en.verify }));
    await waitFor(() => expect(code).toHaveAccessibleDescription(`${en.codeHint} ${en.codeWrong(4)}`));
    expect(code).toHaveValue('000000');
    expect(server.calls(CHECK)[0]?.body).toEqual({ code: '000000' });
  });

  it('shows the success screen with the number from the send-code answer', async () => {
    const server = createFakeServer({
      [SEND]: [200, sent({ cellPhone: '+1 201-555-0123' })],
      [CHECK]: [200, { verified: true, verificationId: 9 }],
    });
    const { user, code } = await reachCodeStep(server);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: en.verify }));
    const title = await screen.findByRole('heading', { name: en.successTitle });
    expect(title).toHaveFocus();
    expect(screen.getByText(en.successBody('+1 201-555-0123'))).toBeInTheDocument();
    expect(screen.queryByLabelText(en.codeLabel)).not.toBeInTheDocument();
  });

  it('counts down to the resend button, and a resend replaces the attempt', async () => {
    // Only the clock and intervals are faked: fetch and Testing Library keep their real timers.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const server = createFakeServer({
      [SEND]: [200, sent()],
      'POST /api/public/attempts/att-2/check': [200, { verified: true, verificationId: 9 }],
    });
    renderPage(pageData(), server);
    fireEvent.change(screen.getByLabelText(en.cellPhoneLabel), { target: { value: '2015550123' } });
    fireEvent.click(screen.getByRole('button', { name: en.sendCode }));
    await screen.findByLabelText(en.codeLabel);
    expect(screen.getByText(en.resendIn(30))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: en.resend })).not.toBeInTheDocument();

    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByText(en.resendIn(29))).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(29_000));
    expect(screen.queryByText(/new code in/)).not.toBeInTheDocument();

    server.on(SEND, [200, sent({ attemptId: 'att-2' })]);
    fireEvent.click(screen.getByRole('button', { name: en.resend }));
    await screen.findByText(en.resendIn(30));
    expect(server.calls(SEND).map((r) => r.body)).toEqual([
      { cellPhone: '2015550123', method: 'sms' },
      { cellPhone: '2015550123', method: 'sms' },
    ]);
    expect(screen.getByLabelText(en.codeLabel)).toHaveFocus();

    fireEvent.change(screen.getByLabelText(en.codeLabel), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: en.verify }));
    expect(await screen.findByRole('heading', { name: en.successTitle })).toBeInTheDocument();
    expect(server.calls(CHECK)).toHaveLength(0);
  });

  it('goes back to change the number, with the number kept', async () => {
    const { user } = await reachCodeStep(createFakeServer({ [SEND]: [200, sent()] }));
    await user.click(screen.getByRole('button', { name: en.changeNumber }));
    const phone = screen.getByLabelText(en.cellPhoneLabel);
    expect(phone).toHaveValue('(201) 555-0123');
    expect(phone).toHaveFocus();
  });

  it('takes the code from WebOTP and verifies it', async () => {
    let aborted: AbortSignal | undefined;
    const get = vi.fn((options: CredentialRequestOptions) => {
      aborted = options.signal ?? undefined;
      return Promise.resolve({ id: 'otp', type: 'otp', code: '654321' });
    });
    Object.defineProperty(window, 'OTPCredential', { value: class {}, configurable: true });
    Object.defineProperty(navigator, 'credentials', { value: { get }, configurable: true });
    try {
      const server = createFakeServer({
        [SEND]: [200, sent()],
        [CHECK]: [200, { verified: true, verificationId: 9 }],
      });
      // Not reachCodeStep: the code step may already be over when it looks for the code input.
      const user = userEvent.setup();
      renderPage(pageData(), server);
      await user.type(screen.getByLabelText(en.cellPhoneLabel), '2015550123');
      await user.click(screen.getByRole('button', { name: en.sendCode }));
      expect(await screen.findByRole('heading', { name: en.successTitle })).toBeInTheDocument();
      expect(get).toHaveBeenCalledWith(expect.objectContaining({ otp: { transport: ['sms'] } }));
      expect(server.calls(CHECK)[0]?.body).toEqual({ code: '654321' });
      // Leaving the code step aborts the browser's request.
      expect(aborted?.aborted).toBe(true);
    } finally {
      Reflect.deleteProperty(window, 'OTPCredential');
      Reflect.deleteProperty(navigator, 'credentials');
    }
  });

  describe('consent text (issue #18)', () => {
    const consent = {
      versionId: 'cv_1',
      text: 'By entering your number you agree that Acme may text you.\nTerms: https://acme.example/terms. <b>not bold</b>',
      requireCheckbox: true,
    };

    it('shows the text above the button, its URL as a link and markup as text', () => {
      renderPage(pageData({ form: makeForm({ consent }) }));
      const link = screen.getByRole('link', { name: 'https://acme.example/terms' });
      expect(link).toHaveAttribute('href', 'https://acme.example/terms');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      const text = document.getElementById('vf-consent-text');
      expect(text?.textContent).toBe(consent.text);
      expect(text?.querySelector('b')).toBeNull();
      const button = screen.getByRole('button', { name: en.sendCode });
      expect(text?.compareDocumentPosition(button)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    });

    it('a required tick: refused before sending, beside the box; ticked, the version goes with the request', async () => {
      const server = createFakeServer({ [SEND]: [200, sent()] });
      const user = userEvent.setup();
      renderPage(pageData({ form: makeForm({ consent }) }), server);
      await user.type(screen.getByLabelText(en.cellPhoneLabel), '(201) 555-0123');
      await user.click(screen.getByRole('button', { name: en.sendCode }));
      const box = screen.getByRole('checkbox', { name: en.consentAgree });
      expect(box).toHaveAttribute('aria-invalid', 'true');
      expect(box).toHaveFocus();
      // Described by the text itself and the refusal (the text's inner spacing is the accessibility tree's).
      expect(box).toHaveAccessibleDescription(expect.stringContaining('Acme may text you.'));
      expect(box).toHaveAccessibleDescription(expect.stringContaining(en.consentRequired));
      expect(server.requests).toHaveLength(0);

      await user.click(box);
      expect(box).not.toHaveAttribute('aria-invalid');
      await user.click(screen.getByRole('button', { name: en.sendCode }));
      await screen.findByLabelText(en.codeLabel);
      expect(server.calls(SEND)[0]?.body).toEqual({
        cellPhone: '(201) 555-0123',
        method: 'sms',
        consentVersionId: 'cv_1',
        consentAccepted: true,
      });
    });

    it('the server’s refusal in Spanish on a Spanish form (a newer version) shows beside the text', async () => {
      const server = createFakeServer({
        'POST /api/public/verify-forms/pub-es/send-code': [
          400,
          { consentAccepted: [es.consentStale], MainCode_: 'validation_error' },
        ],
      });
      const user = userEvent.setup();
      renderPage(
        pageData({
          form: makeForm({
            publicId: 'pub-es',
            language: 'es',
            consent: { versionId: 'cv_old', text: 'Acepto.', requireCheckbox: false },
          }),
        }),
        server,
      );
      expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
      await user.type(screen.getByLabelText(es.cellPhoneLabel), '(201) 555-0123');
      await user.click(screen.getByRole('button', { name: es.sendCode }));
      const error = await screen.findByText(es.consentStale);
      expect(error).toHaveFocus();
      expect(server.calls('POST /api/public/verify-forms/pub-es/send-code')[0]?.body).toMatchObject({
        consentVersionId: 'cv_old',
        consentAccepted: false,
      });
    });
  });
});
