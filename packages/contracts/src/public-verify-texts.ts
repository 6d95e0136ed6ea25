/**
 * Every text of the public verification page and of the public API's answers, in each form language (English and
 * Spanish, both complete). No zod here: the public page imports this module alone
 * (`@veriform/contracts/public-verify-texts`) to stay inside its JavaScript budget.
 *
 * The server answers refusals in the form's language with these texts; the page shows them verbatim.
 */

export type PublicLanguage = 'en' | 'es';

/** "30 seconds", "5 minutes", "3 hours" — rounded up, so the consumer never comes back too early. */
export function waitText(language: PublicLanguage, seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  const [n, unit] =
    s < 60 ? [s, 'second'] : s < 3600 ? [Math.ceil(s / 60), 'minute'] : [Math.ceil(s / 3600), 'hour'];
  if (language === 'es') {
    const es = { second: ['segundo', 'segundos'], minute: ['minuto', 'minutos'], hour: ['hora', 'horas'] }[
      unit
    ];
    return `${n} ${n === 1 ? es?.[0] : es?.[1]}`;
  }
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

type Texts = {
  htmlLang: string;
  /** Page */
  poweredBy: string;
  intro: (company: string) => string;
  /** Beside the company's name when the account proved a domain (issue #33 item 10). */
  verifiedDomain: (domain: string) => string;
  previewNotice: string;
  cellPhoneLabel: string;
  cellPhoneHint: string;
  methodLegend: string;
  methodSms: string;
  methodEmail: string;
  emailLabel: string;
  sendCode: string;
  sending: string;
  codeSentTo: (sentTo: string) => string;
  codeLabel: string;
  codeHint: string;
  verify: string;
  verifying: string;
  resendIn: (seconds: number) => string;
  resend: string;
  changeNumber: string;
  successTitle: string;
  successBody: (cellPhone: string) => string;
  notAvailableTitle: string;
  notAvailableBody: string;
  genericError: string;
  networkError: string;
  /** Field errors (the page checks these before sending; the server answers the same) */
  cellPhoneRequired: string;
  cellPhoneInvalid: string;
  cellPhoneLandline: string;
  /** Premium-rate, toll-free, shared-cost, VoIP, pager, satellite …: every type but mobile and fixed-or-mobile. */
  cellPhoneUnsupported: string;
  /** A number of a country the form's account does not send codes to (the country's name in the form's language). */
  cellPhoneCountry: (country: string) => string;
  /**
   * The carrier says the number's SIM card was changed within the account's window, and the account refuses texts
   * then (issue #36): the code is not sent; e-mail is offered instead.
   */
  cellPhoneSimSwap: string;
  emailRequired: string;
  emailInvalid: string;
  /** The API's answers to a request the page would not send (a method other than sms/email, a bad body). */
  methodInvalid: string;
  externalRefIdInvalid: string;
  requestInvalid: string;
  codeRequired: string;
  codeFormat: string;
  /** Check refusals (400 on `code`) */
  codeWrong: (triesLeft: number) => string;
  codeExpired: string;
  codeLocked: string;
  codeUsed: string;
  codeReplaced: string;
  /** The customer canceled the verification through the API. */
  codeCanceled: string;
  /** Consent (issue #18): the checkbox beside the customer's text, and send-code's refusals on `consentAccepted`. */
  consentAgree: string;
  consentRequired: string;
  /** The customer published a new text since the page was loaded. */
  consentStale: string;
  /** Send refusals (429 `detail`) */
  resendTooSoon: (seconds: number) => string;
  tooManyForPhone: (seconds: number) => string;
  tooManyForEmail: (seconds: number) => string;
  tooManyFromIp: (seconds: number) => string;
  /** The account's daily cap on text messages (toll fraud; SMS_PER_ACCOUNT_PER_DAY): e-mail may still go. */
  tooManySmsForAccount: (seconds: number) => string;
  tooManyEmailsForAccount: (seconds: number) => string;
  tooManyChecks: (seconds: number) => string;
  /**
   * While the consumer waits (issue #18 item 5): the code's message could not be delivered, why in their words and
   * what to do, by the reason's family (provider error codes: apps/server/src/modules/public-verify/delivery.ts).
   */
  deliveryFailedSms: string;
  deliveryLandline: string;
  deliveryUnreachable: string;
  deliveryOptedOut: string;
  deliveryCarrierFilter: string;
  deliveryUnknownNumber: string;
  deliveryFailedEmail: string;
  /** The button beside an SMS failure: back to the first step with e-mail chosen. */
  useEmailInstead: string;
  /** Messages */
  smsText: (company: string, code: string) => string;
  emailSubject: (company: string) => string;
  emailText: (company: string, code: string) => string;
};

const en: Texts = {
  htmlLang: 'en',
  poweredBy: 'Verified by Veriform',
  intro: (company) =>
    `${company} asks you to confirm your cell phone number. We will send you a 6-digit code.`,
  verifiedDomain: (domain) => `Verified domain: ${domain}`,
  previewNotice: 'Preview: this form is inactive. Make it live to send codes.',
  cellPhoneLabel: 'Cell phone number',
  cellPhoneHint: 'For example (201) 555-0123, or +44 7400 123456 outside the US.',
  methodLegend: 'How should we send the code?',
  methodSms: 'Text message (SMS)',
  methodEmail: 'E-mail',
  emailLabel: 'E-mail address',
  sendCode: 'Send code',
  sending: 'Sending…',
  codeSentTo: (sentTo) => `We sent a 6-digit code to ${sentTo}. It is valid for 10 minutes.`,
  codeLabel: 'Verification code',
  codeHint: 'Enter the 6 digits from the message.',
  verify: 'Verify',
  verifying: 'Verifying…',
  resendIn: (seconds) => `You can ask for a new code in ${waitText('en', seconds)}.`,
  resend: 'Send a new code',
  changeNumber: 'Use a different number',
  successTitle: 'Your number is verified',
  successBody: (cellPhone) => `Thank you. ${cellPhone} is confirmed. You can close this page.`,
  notAvailableTitle: 'This form is not available',
  notAvailableBody:
    'The link may be incomplete, or the company has turned this form off. Please contact the company that sent it to you.',
  genericError: 'Something went wrong on our side. Please try again in a moment.',
  networkError: 'We could not reach the server. Check your connection and try again.',
  cellPhoneRequired: 'Enter your cell phone number.',
  cellPhoneInvalid: 'This is not a valid phone number. Check the digits and the country code.',
  cellPhoneLandline: 'This looks like a landline. Enter a cell phone number that can receive text messages.',
  cellPhoneUnsupported: 'This number cannot receive verification codes. Use a mobile number.',
  cellPhoneCountry: (country) =>
    `This company does not send verification codes to numbers in ${country}. Use a mobile number from another country.`,
  cellPhoneSimSwap:
    'This number’s SIM card was changed recently. To protect you, get your code by e-mail instead.',
  emailRequired: 'Enter your e-mail address.',
  emailInvalid: 'Enter a valid e-mail address, for example name@example.com.',
  methodInvalid: 'Choose how to receive the code: text message or e-mail.',
  externalRefIdInvalid:
    'The reference in this link is not valid (at most 200 characters). Ask the company for a new link.',
  requestInvalid: 'We could not read this request. Reload the page and try again.',
  codeRequired: 'Enter the code from the message.',
  codeFormat: 'The code has 6 digits.',
  codeWrong: (triesLeft) =>
    `That code is not right. ${triesLeft === 1 ? '1 try left' : `${triesLeft} tries left`}.`,
  codeExpired: 'This code has expired. Ask for a new code.',
  codeLocked: 'Too many wrong tries. Ask for a new code.',
  codeUsed: 'This code has already been used.',
  codeReplaced: 'A newer code was sent. Enter the code from the latest message.',
  codeCanceled: 'This code was canceled. Ask for a new code.',
  consentAgree: 'I agree',
  consentRequired: 'Tick “I agree” to accept the terms above before we send the code.',
  consentStale: 'The terms above have changed. Reload the page to read the current version.',
  resendTooSoon: (seconds) => `Please wait ${waitText('en', seconds)} before asking for a new code.`,
  tooManyForPhone: (seconds) =>
    `Too many codes were sent to this number today. Try again in ${waitText('en', seconds)}.`,
  tooManyForEmail: (seconds) =>
    `Too many codes were sent to this e-mail address today. Try again in ${waitText('en', seconds)}.`,
  tooManyFromIp: (seconds) =>
    `Too many codes were requested from your connection. Try again in ${waitText('en', seconds)}.`,
  tooManySmsForAccount: (seconds) =>
    `This form has reached its daily limit of text messages. Choose e-mail, or try again in ${waitText('en', seconds)}.`,
  tooManyEmailsForAccount: (seconds) =>
    `This form has reached its daily limit of codes by e-mail. Try again in ${waitText('en', seconds)}.`,
  tooManyChecks: (seconds) => `Too many tries. Try again in ${waitText('en', seconds)}.`,
  deliveryFailedSms: 'We couldn’t deliver the text to this number. Try e-mail instead.',
  deliveryLandline: 'This number can’t receive text messages. Use a mobile number or e-mail.',
  deliveryUnreachable:
    'We couldn’t reach your phone: it may be off or out of coverage. Ask for a new code later, or use e-mail.',
  deliveryOptedOut:
    'This number has blocked our text messages (STOP was sent). Reply START to our last message to receive codes again, or use e-mail.',
  deliveryCarrierFilter: 'Your mobile carrier blocked our text message. Try e-mail instead.',
  deliveryUnknownNumber: 'This number doesn’t seem to be in service. Check the number, or use e-mail.',
  deliveryFailedEmail:
    'We couldn’t deliver the e-mail to this address. Check the address and ask for a new code.',
  useEmailInstead: 'Use e-mail instead',
  smsText: (company, code) => `Your ${company} verification code is ${code}. It expires in 10 minutes.`,
  emailSubject: (company) => `Your ${company} verification code`,
  emailText: (company, code) =>
    `Your ${company} verification code is ${code}.\n\nIt expires in 10 minutes. If you did not ask for it, ignore this message.`,
};

const es: Texts = {
  htmlLang: 'es',
  poweredBy: 'Verificado por Veriform',
  intro: (company) =>
    `${company} le pide que confirme su número de celular. Le enviaremos un código de 6 dígitos.`,
  verifiedDomain: (domain) => `Dominio verificado: ${domain}`,
  previewNotice: 'Vista previa: este formulario está inactivo. Actívelo para enviar códigos.',
  cellPhoneLabel: 'Número de celular',
  cellPhoneHint: 'Por ejemplo (201) 555-0123, o +52 55 1234 5678 fuera de EE. UU.',
  methodLegend: '¿Cómo quiere recibir el código?',
  methodSms: 'Mensaje de texto (SMS)',
  methodEmail: 'Correo electrónico',
  emailLabel: 'Correo electrónico',
  sendCode: 'Enviar código',
  sending: 'Enviando…',
  codeSentTo: (sentTo) => `Enviamos un código de 6 dígitos a ${sentTo}. Es válido por 10 minutos.`,
  codeLabel: 'Código de verificación',
  codeHint: 'Escriba los 6 dígitos del mensaje.',
  verify: 'Verificar',
  verifying: 'Verificando…',
  resendIn: (seconds) => `Podrá pedir un código nuevo en ${waitText('es', seconds)}.`,
  resend: 'Enviar un código nuevo',
  changeNumber: 'Usar otro número',
  successTitle: 'Su número está verificado',
  successBody: (cellPhone) => `Gracias. ${cellPhone} está confirmado. Ya puede cerrar esta página.`,
  notAvailableTitle: 'Este formulario no está disponible',
  notAvailableBody:
    'Es posible que el enlace esté incompleto o que la empresa haya desactivado este formulario. Comuníquese con la empresa que se lo envió.',
  genericError: 'Algo salió mal de nuestro lado. Inténtelo de nuevo en un momento.',
  networkError: 'No pudimos comunicarnos con el servidor. Revise su conexión e inténtelo de nuevo.',
  cellPhoneRequired: 'Escriba su número de celular.',
  cellPhoneInvalid: 'Este no es un número de teléfono válido. Revise los dígitos y el código de país.',
  cellPhoneLandline:
    'Parece un teléfono fijo. Escriba un número de celular que pueda recibir mensajes de texto.',
  cellPhoneUnsupported: 'Este número no puede recibir códigos de verificación. Use un número de celular.',
  cellPhoneCountry: (country) =>
    `Esta empresa no envía códigos de verificación a números de ${country}. Use un número de celular de otro país.`,
  cellPhoneSimSwap:
    'La tarjeta SIM de este número se cambió recientemente. Para protegerlo, reciba su código por correo electrónico.',
  emailRequired: 'Escriba su correo electrónico.',
  emailInvalid: 'Escriba un correo electrónico válido, por ejemplo nombre@ejemplo.com.',
  methodInvalid: 'Elija cómo recibir el código: mensaje de texto o correo electrónico.',
  externalRefIdInvalid:
    'La referencia de este enlace no es válida (máximo 200 caracteres). Pida a la empresa un enlace nuevo.',
  requestInvalid: 'No pudimos leer esta solicitud. Vuelva a cargar la página e inténtelo de nuevo.',
  codeRequired: 'Escriba el código del mensaje.',
  codeFormat: 'El código tiene 6 dígitos.',
  codeWrong: (triesLeft) =>
    `Ese código no es correcto. ${triesLeft === 1 ? 'Le queda 1 intento' : `Le quedan ${triesLeft} intentos`}.`,
  codeExpired: 'Este código ha vencido. Pida un código nuevo.',
  codeLocked: 'Demasiados intentos incorrectos. Pida un código nuevo.',
  codeUsed: 'Este código ya se utilizó.',
  codeReplaced: 'Se envió un código más reciente. Escriba el código del último mensaje.',
  codeCanceled: 'Este código fue cancelado. Pida un código nuevo.',
  consentAgree: 'Acepto',
  consentRequired: 'Marque “Acepto” para aceptar los términos de arriba antes de que enviemos el código.',
  consentStale: 'Los términos de arriba cambiaron. Vuelva a cargar la página para leer la versión vigente.',
  resendTooSoon: (seconds) => `Espere ${waitText('es', seconds)} antes de pedir un código nuevo.`,
  tooManyForPhone: (seconds) =>
    `Se enviaron demasiados códigos a este número hoy. Inténtelo de nuevo en ${waitText('es', seconds)}.`,
  tooManyForEmail: (seconds) =>
    `Se enviaron demasiados códigos a este correo electrónico hoy. Inténtelo de nuevo en ${waitText('es', seconds)}.`,
  tooManyFromIp: (seconds) =>
    `Se pidieron demasiados códigos desde su conexión. Inténtelo de nuevo en ${waitText('es', seconds)}.`,
  tooManySmsForAccount: (seconds) =>
    `Este formulario alcanzó su límite diario de mensajes de texto. Elija correo electrónico o inténtelo de nuevo en ${waitText('es', seconds)}.`,
  tooManyEmailsForAccount: (seconds) =>
    `Este formulario alcanzó su límite diario de códigos por correo electrónico. Inténtelo de nuevo en ${waitText('es', seconds)}.`,
  tooManyChecks: (seconds) => `Demasiados intentos. Inténtelo de nuevo en ${waitText('es', seconds)}.`,
  deliveryFailedSms:
    'No pudimos entregar el mensaje de texto a este número. Pruebe con el correo electrónico.',
  deliveryLandline:
    'Este número no puede recibir mensajes de texto. Use un número de celular o el correo electrónico.',
  deliveryUnreachable:
    'No pudimos comunicarnos con su teléfono: puede estar apagado o sin cobertura. Pida un código nuevo más tarde o use el correo electrónico.',
  deliveryOptedOut:
    'Este número bloqueó nuestros mensajes de texto (se envió STOP). Responda START a nuestro último mensaje para volver a recibir códigos, o use el correo electrónico.',
  deliveryCarrierFilter:
    'Su compañía telefónica bloqueó nuestro mensaje de texto. Pruebe con el correo electrónico.',
  deliveryUnknownNumber:
    'Parece que este número no está en servicio. Revise el número o use el correo electrónico.',
  deliveryFailedEmail:
    'No pudimos entregar el correo electrónico a esta dirección. Revise la dirección y pida un código nuevo.',
  useEmailInstead: 'Usar correo electrónico',
  smsText: (company, code) => `Su código de verificación de ${company} es ${code}. Vence en 10 minutos.`,
  emailSubject: (company) => `Su código de verificación de ${company}`,
  emailText: (company, code) =>
    `Su código de verificación de ${company} es ${code}.\n\nVence en 10 minutos. Si usted no lo pidió, ignore este mensaje.`,
};

export const publicVerifyTexts: Record<PublicLanguage, Texts> = { en, es };
export type PublicVerifyTexts = Texts;

/** The public page reads its data from this element, like the app's initial data. */
export const PUBLIC_PAGE_DATA_ELEMENT_ID = 'initial-data';
