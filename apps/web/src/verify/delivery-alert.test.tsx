import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type {
  PublicDeliveryStatus,
  PublicLanguage,
  PublicPageData,
  SendCodeResponse,
} from '@veriform/contracts';
import { publicVerifyTexts } from '@veriform/contracts/public-verify-texts';
import { describe, expect, it } from 'vitest';
import { createFakeServer } from '../test/fake-server';
import { VerifyPage } from './VerifyPage';

// Issue #18 item 5: while the consumer waits for the code, the page asks what became of the message and, when it
// could not be delivered, says why in the form's language, with a way to e-mail.

const SEND = 'POST /api/public/verify-forms/pub-1/send-code';
const DELIVERY = 'GET /api/public/attempts/att-1/delivery';

function pageData(language: PublicLanguage): PublicPageData {
  return {
    csrfToken: 'csrf-page',
    form: {
      publicId: 'pub-1',
      name: 'Solicitud de préstamo',
      company: 'Acme Lending',
      companyDomain: null,
      language,
      bannerImage: null,
      preview: false,
      consent: null,
      pageViewId: null,
    },
    externalRefId: null,
    language,
  };
}

const sent = (): SendCodeResponse => ({
  attemptId: 'att-1',
  resendAfterSeconds: 30,
  expiresAt: new Date(Date.now() + 10 * 60 * 1000).toISOString(),
  sentTo: '(•••) •••-0123',
  cellPhone: '+1 201 555 0123',
});

async function reachCodeStep(language: PublicLanguage, answers: PublicDeliveryStatus[]) {
  const texts = publicVerifyTexts[language];
  const server = createFakeServer({ [SEND]: [201, sent()] });
  let turn = 0;
  server.on(DELIVERY, () => {
    const answer = answers[Math.min(turn, answers.length - 1)];
    turn += 1;
    return [200, answer];
  });
  const user = userEvent.setup();
  render(<VerifyPage data={pageData(language)} fetch={server.fetch} />);
  await user.type(screen.getByLabelText(texts.cellPhoneLabel), '(201) 555-0123');
  await user.click(screen.getByRole('button', { name: texts.sendCode }));
  await screen.findByLabelText(texts.codeLabel);
  return { user, server, texts };
}

describe('public page: the code’s delivery', () => {
  it('an undelivered text: the reason in Spanish in an alert, and a button that switches to e-mail', async () => {
    const es = publicVerifyTexts.es;
    const { user, server } = await reachCodeStep('es', [
      { status: 'sent', message: null, suggestEmail: true },
      { status: 'undelivered', message: es.deliveryLandline, suggestEmail: true },
    ]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // Asked again a few seconds later.
    const alert = await screen.findByRole('alert', {}, { timeout: 6000 });
    expect(alert).toHaveTextContent(
      'Este número no puede recibir mensajes de texto. Use un número de celular o el correo electrónico.',
    );
    expect(server.calls(DELIVERY)).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: es.useEmailInstead }));
    // Back to the first step, e-mail chosen, the number kept, the focus in the e-mail field.
    const email = await screen.findByRole('textbox', { name: es.emailLabel });
    expect(email).toHaveFocus();
    expect(screen.getByRole('radio', { name: es.methodEmail })).toBeChecked();
    expect(screen.getByLabelText(es.cellPhoneLabel)).toHaveValue('(201) 555-0123');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a delivered text shows nothing', async () => {
    const { server } = await reachCodeStep('en', [
      { status: 'delivered', message: null, suggestEmail: true },
    ]);
    await waitFor(() => expect(server.calls(DELIVERY)).toHaveLength(1));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('no switch when the code went by e-mail', async () => {
    const en = publicVerifyTexts.en;
    await reachCodeStep('en', [{ status: 'failed', message: en.deliveryFailedEmail, suggestEmail: false }]);
    expect(await screen.findByRole('alert')).toHaveTextContent(en.deliveryFailedEmail);
    expect(screen.queryByRole('button', { name: en.useEmailInstead })).not.toBeInTheDocument();
  });
});
