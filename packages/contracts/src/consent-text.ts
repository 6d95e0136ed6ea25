/**
 * Consent text (issue #18, ADR 22) as the public page and the form page render it: plain text whose http(s) URLs
 * become links, line breaks kept. No zod and no HTML here: the public page imports this module alone
 * (`@veriform/contracts/consent-text`), and React renders the segments as text and <a> elements, so nothing the
 * customer writes is ever markup.
 */

export type ConsentSegment = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

/** http(s) URLs up to the next space or angle bracket; trailing punctuation belongs to the sentence, not the link. */
const URL_PATTERN = /https?:\/\/[^\s<>"]+/g;
const TRAILING_PUNCTUATION = /[.,;:!?)\]'"]+$/;

/** The text cut into plain runs and links, in order; joined back, the segments' texts are the text itself. */
export function consentSegments(text: string): ConsentSegment[] {
  const segments: ConsentSegment[] = [];
  let at = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index;
    const url = match[0].replace(TRAILING_PUNCTUATION, '');
    if (!isHttpUrl(url)) continue;
    if (start > at) segments.push({ kind: 'text', text: text.slice(at, start) });
    segments.push({ kind: 'link', text: url, href: url });
    at = start + url.length;
  }
  if (at < text.length) segments.push({ kind: 'text', text: text.slice(at) });
  return segments;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * The text as stored and hashed: line ends made `\n` (a browser's textarea sends `\r\n`), trailing spaces of each
 * line and blank lines at either end dropped. What the customer sees in the preview is what is hashed.
 */
export function normalizeConsentText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

export const CONSENT_TEXT_MAX = 5_000;

/** Offered when a language has no version yet: a starting point the customer must adapt (their responsibility). */
export const defaultConsentTexts: Record<'en' | 'es', (company: string) => string> = {
  en: (company) =>
    `By entering your number you agree that ${company} may contact you at this number, including by automated calls and text messages, about the products and services you asked about. Consent is not a condition of purchase. Message and data rates may apply. Reply STOP to opt out.`,
  es: (company) =>
    `Al ingresar su número, usted acepta que ${company} lo contacte en este número, incluso mediante llamadas y mensajes de texto automatizados, sobre los productos y servicios que consultó. El consentimiento no es una condición de compra. Pueden aplicarse tarifas de mensajes y datos. Responda STOP para darse de baja.`,
};
