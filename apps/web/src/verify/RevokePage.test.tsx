import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PublicPageData, PublicVerifyForm } from '@veriform/contracts';
import { publicRevokeTexts } from '@veriform/contracts/public-revoke-texts';
import { publicVerifyTexts } from '@veriform/contracts/public-verify-texts';
import { isRevokePagePath, revokeLinkTexts, revokePagePath } from '@veriform/contracts/revoke-link';
import { describe, expect, it } from 'vitest';
import { type Answer, createFakeServer } from '../test/fake-server';
import { RevokePage } from './RevokePage';
import { VerifyPage } from './VerifyPage';

const en = publicRevokeTexts.en;
const es = publicRevokeTexts.es;
const REVOKE = 'POST /api/public/verify-forms/pub-1/revocations';
const RECEIVED_AT = '2026-11-30T15:04:00.000Z';

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

function renderPage(
  data: PublicPageData = pageData(),
  answer: Answer = [201, { id: 'rv_1', receivedAt: RECEIVED_AT }],
) {
  const server = createFakeServer({ [REVOKE]: answer });
  const view = render(<RevokePage data={data} fetch={server.fetch} />);
  return { ...view, server, user: userEvent.setup() };
}

const formatted = (language: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(RECEIVED_AT));

describe('the public revocation page', () => {
  it('revokes by phone number with the one confirmation asked, and shows when it was received', async () => {
    const { server, user } = renderPage();
    expect(screen.getByRole('heading', { level: 1, name: en.title })).toBeInTheDocument();
    expect(screen.getByText(en.intro('Acme Lending'))).toBeInTheDocument();
    expect(document.title).toBe(en.pageTitle('Acme Lending'));
    await user.type(screen.getByLabelText(en.phoneLabel), '(201) 555-0123');
    const confirm = screen.getByRole('checkbox', { name: en.confirmLabel });
    expect(confirm).toHaveAccessibleDescription(en.confirmHint);
    await user.click(confirm);
    await user.click(screen.getByRole('button', { name: en.submit }));

    const done = await screen.findByRole('heading', { level: 2, name: en.doneTitle });
    expect(done).toHaveFocus();
    expect(screen.getByText(en.doneBody('Acme Lending', formatted('en-US')))).toBeInTheDocument();
    expect(screen.getByText(en.doneConfirm)).toBeInTheDocument();
    expect(screen.getByText(en.reference('rv_1'))).toBeInTheDocument();
    const [call] = server.calls(REVOKE);
    expect(call?.body).toEqual({ phone: '(201) 555-0123', confirm: true });
    expect(call?.headers['X-CSRFToken']).toBe('csrf-page');
  });

  it('revokes by e-mail address (no confirmation text offered), in Spanish on a Spanish form', async () => {
    const { server, user } = renderPage(pageData({ form: makeForm({ language: 'es' }), language: 'es' }));
    expect(document.documentElement.lang).toBe('es');
    await user.click(screen.getByRole('radio', { name: es.choiceEmail }));
    expect(screen.queryByRole('checkbox')).toBeNull();
    await user.type(screen.getByLabelText(es.emailLabel), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: es.submit }));
    await screen.findByRole('heading', { level: 2, name: es.doneTitle });
    expect(screen.getByText(es.doneBody('Acme Lending', formatted('es-US')))).toBeInTheDocument();
    expect(screen.queryByText(es.doneConfirm)).toBeNull();
    expect(server.calls(REVOKE)[0]?.body).toEqual({ email: 'ana@example.com' });
  });

  it('asks for the number before sending anything, and shows the server’s refusal beside the field', async () => {
    const { server, user } = renderPage(pageData(), [
      400,
      { phone: [en.phoneInvalid], MainCode_: 'invalid' },
    ]);
    await user.click(screen.getByRole('button', { name: en.submit }));
    const phone = screen.getByLabelText(en.phoneLabel);
    expect(phone).toHaveAccessibleDescription(`${en.phoneHint} ${en.phoneRequired}`);
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(phone).toHaveFocus();
    expect(server.calls(REVOKE)).toHaveLength(0);

    await user.type(phone, '12345');
    await user.click(screen.getByRole('button', { name: en.submit }));
    await waitFor(() => expect(phone).toHaveAccessibleDescription(`${en.phoneHint} ${en.phoneInvalid}`));
    expect(phone).toHaveFocus();
  });

  it('says a rate limit in the server’s words, and a network failure in the page’s', async () => {
    const limited = renderPage(pageData(), [429, { detail: en.tooManyFromIp(120) }]);
    await limited.user.type(screen.getByLabelText(en.phoneLabel), '(201) 555-0123');
    await limited.user.click(screen.getByRole('button', { name: en.submit }));
    expect(await screen.findByRole('alert')).toHaveTextContent(en.tooManyFromIp(120));
    limited.unmount();

    const failing = createFakeServer();
    const user = userEvent.setup();
    render(
      <RevokePage
        data={pageData()}
        fetch={async (input, init) => {
          if (input.includes('/revocations')) throw new TypeError('offline');
          return failing.fetch(input, init);
        }}
      />,
    );
    await user.type(screen.getByLabelText(en.phoneLabel), '(201) 555-0123');
    await user.click(screen.getByRole('button', { name: en.submit }));
    expect(await screen.findByRole('alert')).toHaveTextContent(publicVerifyTexts.en.networkError);
  });

  it('shows "sending" while the request is on its way, and the button cannot be pressed twice', async () => {
    let release: (answer: Answer) => void = () => {};
    const { server, user } = renderPage(
      pageData(),
      // Held until the test lets it go.
      [201, { id: 'rv_1', receivedAt: RECEIVED_AT }],
    );
    server.on(REVOKE, () => new Promise<Answer>((resolve) => (release = resolve)));
    await user.type(screen.getByLabelText(en.phoneLabel), '(201) 555-0123');
    await user.click(screen.getByRole('button', { name: en.submit }));
    const button = await screen.findByRole('button', { name: en.submitting });
    expect(button).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent(en.submitting);
    release([201, { id: 'rv_1', receivedAt: RECEIVED_AT }]);
    await screen.findByRole('heading', { level: 2, name: en.doneTitle });
    expect(server.calls(REVOKE)).toHaveLength(1);
  });

  it('an unknown or inactive form: the not-available page in its language; a form gone mid-way too', async () => {
    const inactive = renderPage(pageData({ form: null, language: 'es' }));
    expect(
      screen.getByRole('heading', { level: 1, name: publicVerifyTexts.es.notAvailableTitle }),
    ).toBeInTheDocument();
    inactive.unmount();
    const { user } = renderPage(pageData(), [404, { detail: 'Not found.' }]);
    await user.type(screen.getByLabelText(en.phoneLabel), '(201) 555-0123');
    await user.click(screen.getByRole('button', { name: en.submit }));
    expect(
      await screen.findByRole('heading', { level: 1, name: publicVerifyTexts.en.notAvailableTitle }),
    ).toHaveFocus();
  });
});

describe('the link to it', () => {
  it('the hosted verification page links to /f/{publicId}/revoke, in the form’s language', () => {
    const server = createFakeServer();
    const { unmount } = render(<VerifyPage data={pageData()} fetch={server.fetch} />);
    expect(screen.getByRole('link', { name: revokeLinkTexts.en })).toHaveAttribute('href', '/f/pub-1/revoke');
    unmount();
    render(
      <VerifyPage
        data={pageData({ form: makeForm({ language: 'es' }), language: 'es' })}
        fetch={server.fetch}
      />,
    );
    expect(screen.getByRole('link', { name: revokeLinkTexts.es })).toHaveAttribute('href', '/f/pub-1/revoke');
  });

  it('the page’s path: built and recognised alike', () => {
    expect(revokePagePath('a/b')).toBe('/f/a%2Fb/revoke');
    expect(isRevokePagePath('/f/AbCdEfGhIjKlMnOp/revoke')).toBe(true);
    expect(isRevokePagePath('/f/AbCdEfGhIjKlMnOp/revoke/')).toBe(true);
    expect(isRevokePagePath('/f/AbCdEfGhIjKlMnOp')).toBe(false);
    expect(isRevokePagePath('/f/revoke')).toBe(false);
  });
});
