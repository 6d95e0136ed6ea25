import { type PublicLanguage, waitText } from './public-verify-texts.ts';

/**
 * Every text of the public revocation page `/f/{publicId}/revoke` (issue #35) and of its API's answers, in each form
 * language, beside the hosted page's (public-verify-texts.ts), and the one confirmation text the FCC allows. No zod
 * here, and a module of its own: the revocation page's chunk imports it (`@veriform/contracts/public-revoke-texts`),
 * so the verification page does not carry these texts in its JavaScript budget.
 *
 * FCC 24-24 (47 CFR 64.1200(a)(12)): consent may be revoked by any reasonable means, no proof that the number or
 * address is the consumer's may be asked, and one text confirming the revocation may be sent (within five minutes,
 * with nothing else in it).
 */

type RevokeTexts = {
  /** The browser tab: the page's title and the company. */
  pageTitle: (company: string) => string;
  title: string;
  intro: (company: string) => string;
  /** Phone number or e-mail address: which one the consumer gave the company. */
  whichLegend: string;
  choicePhone: string;
  choiceEmail: string;
  phoneLabel: string;
  phoneHint: string;
  emailLabel: string;
  emailHint: string;
  confirmLabel: string;
  confirmHint: string;
  submit: string;
  submitting: string;
  /** After the answer: when it was received (formatted in the form's language) and what happens next. */
  doneTitle: string;
  doneBody: (company: string, receivedAt: string) => string;
  doneConfirm: string;
  reference: (id: string) => string;
  /** Field errors (the page checks these before sending; the server answers the same). */
  phoneOrEmail: string;
  phoneRequired: string;
  phoneInvalid: string;
  emailRequired: string;
  emailInvalid: string;
  confirmInvalid: string;
  requestInvalid: string;
  /** 429 `detail`: too many revocations from one connection. */
  tooManyFromIp: (seconds: number) => string;
  /** The one confirmation text (SMS), with nothing but the confirmation in it. */
  confirmationSms: (company: string) => string;
};

const en: RevokeTexts = {
  pageTitle: (company) => `Revoke consent – ${company}`,
  title: 'Revoke your consent',
  intro: (company) =>
    `Tell ${company} to stop calling, texting and e-mailing you. Enter the phone number or the e-mail address you gave them: you do not need to prove it is yours.`,
  whichLegend: 'Which one did you give them?',
  choicePhone: 'My phone number',
  choiceEmail: 'My e-mail address',
  phoneLabel: 'Phone number',
  phoneHint: 'For example (201) 555-0123, or +44 7400 123456 outside the US.',
  emailLabel: 'E-mail address',
  emailHint: 'For example name@example.com.',
  confirmLabel: 'Text me one confirmation',
  confirmHint: 'One text message to this number saying that your request was received. Nothing else.',
  submit: 'Revoke consent',
  submitting: 'Sending…',
  doneTitle: 'Your consent is revoked',
  doneBody: (company, receivedAt) =>
    `We received your request on ${receivedAt}. ${company} must honour it within 10 business days.`,
  doneConfirm: 'If this number can receive text messages, we will send one to confirm it.',
  reference: (id) => `Reference: ${id}`,
  phoneOrEmail: 'Enter your phone number or your e-mail address.',
  phoneRequired: 'Enter your phone number.',
  phoneInvalid: 'This is not a valid phone number. Check the digits and the country code.',
  emailRequired: 'Enter your e-mail address.',
  emailInvalid: 'Enter a valid e-mail address, for example name@example.com.',
  confirmInvalid: 'Tick the box, or leave it empty.',
  requestInvalid: 'We could not read this request. Reload the page and try again.',
  tooManyFromIp: (seconds) =>
    `Too many requests came from your connection. Try again in ${waitText('en', seconds)}.`,
  confirmationSms: (company) =>
    `Confirmed: your consent to be contacted by ${company} at this number is revoked. No reply is needed; this is the only confirmation you will receive.`,
};

const es: RevokeTexts = {
  pageTitle: (company) => `Revocar el consentimiento – ${company}`,
  title: 'Revocar su consentimiento',
  intro: (company) =>
    `Pida a ${company} que deje de llamarle y de enviarle mensajes y correos. Escriba el número de teléfono o el correo electrónico que le dio: no necesita demostrar que es suyo.`,
  whichLegend: '¿Qué dato le dio?',
  choicePhone: 'Mi número de teléfono',
  choiceEmail: 'Mi correo electrónico',
  phoneLabel: 'Número de teléfono',
  phoneHint: 'Por ejemplo (201) 555-0123, o +52 55 1234 5678 fuera de EE. UU.',
  emailLabel: 'Correo electrónico',
  emailHint: 'Por ejemplo nombre@ejemplo.com.',
  confirmLabel: 'Envíenme una confirmación por mensaje de texto',
  confirmHint: 'Un solo mensaje de texto a este número para confirmar que recibimos su solicitud. Nada más.',
  submit: 'Revocar el consentimiento',
  submitting: 'Enviando…',
  doneTitle: 'Su consentimiento está revocado',
  doneBody: (company, receivedAt) =>
    `Recibimos su solicitud el ${receivedAt}. ${company} debe respetarla en un plazo de 10 días hábiles.`,
  doneConfirm: 'Si este número puede recibir mensajes de texto, le enviaremos uno para confirmarlo.',
  reference: (id) => `Referencia: ${id}`,
  phoneOrEmail: 'Escriba su número de teléfono o su correo electrónico.',
  phoneRequired: 'Escriba su número de teléfono.',
  phoneInvalid: 'Este no es un número de teléfono válido. Revise los dígitos y el código de país.',
  emailRequired: 'Escriba su correo electrónico.',
  emailInvalid: 'Escriba un correo electrónico válido, por ejemplo nombre@ejemplo.com.',
  confirmInvalid: 'Marque la casilla o déjela vacía.',
  requestInvalid: 'No pudimos leer esta solicitud. Vuelva a cargar la página e inténtelo de nuevo.',
  tooManyFromIp: (seconds) =>
    `Se recibieron demasiadas solicitudes desde su conexión. Inténtelo de nuevo en ${waitText('es', seconds)}.`,
  confirmationSms: (company) =>
    `Confirmado: su consentimiento para que ${company} le contacte en este número está revocado. No necesita responder; esta es la única confirmación que recibirá.`,
};

export const publicRevokeTexts: Record<PublicLanguage, RevokeTexts> = { en, es };
export type PublicRevokeTexts = RevokeTexts;
