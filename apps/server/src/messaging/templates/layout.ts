import type { EmailMessage } from '../email.ts';

/** Plain building blocks for e-mail bodies: every message has a text part and a simple HTML part. */

const LINE_BREAKS_AND_CONTROLS = /[\p{Cc}\p{Zl}\p{Zp}]+/gu;

/**
 * A name as a message may print it: on one line. The contracts refuse line breaks and control characters in names
 * (`singleLineName`), but rows written before that rule, or by any other path, must still not start a line of our
 * text ("Hi Ann,\n\nYour account is locked, call …"): every run of them becomes one space.
 */
export function oneLine(value: string): string {
  return value.replace(LINE_BREAKS_AND_CONTROLS, ' ').trim();
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/**
 * Paragraphs are plain text (escaped here); `action` renders as a button-like link with the URL spelled out, `link` as
 * a plain link after the paragraphs (a consumer's "Revoke consent"). `lang`: the message's language (default English).
 */
export function renderHtml(options: {
  title: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  link?: { label: string; url: string };
  footer?: string;
  lang?: string;
}): string {
  const p = (text: string) => `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`;
  const action = options.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(options.action.url)}" style="background:#1c7ed6;color:#fff;padding:10px 18px;border-radius:4px;text-decoration:none;display:inline-block">${escapeHtml(options.action.label)}</a></p>` +
      p(`Or paste this link into your browser: ${options.action.url}`)
    : '';
  const link = options.link
    ? `<p style="margin:0 0 16px"><a href="${escapeHtml(options.link.url)}" style="color:#1c7ed6">${escapeHtml(options.link.label)}</a></p>`
    : '';
  return [
    '<!doctype html>',
    `<html lang="${escapeHtml(options.lang ?? 'en')}"><head><meta charset="utf-8">`,
    `<title>${escapeHtml(options.title)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#212529">',
    options.paragraphs.map(p).join(''),
    link,
    action,
    options.footer
      ? `<p style="margin:24px 0 0;color:#868e96;font-size:13px">${escapeHtml(options.footer)}</p>`
      : '',
    '</body></html>',
  ].join('');
}

/** "Hi Ann," or, when the name has nothing printable, "Hi,". */
export function greeting(name: string): string {
  const printable = oneLine(name);
  return printable ? `Hi ${printable},` : 'Hi,';
}

/**
 * A message that exists for one link (a confirmation, a reset, an invitation): its paragraphs, the link (spelled out
 * in the text part, a button in the HTML one), how long the link works, and a footer that tells a reader who did not
 * ask for it what to do.
 */
export function linkMessage(options: {
  to: string;
  subject: string;
  paragraphs: string[];
  action: { label: string; url: string };
  validity: string;
  footer: string;
}): EmailMessage {
  const { subject, paragraphs, action, validity, footer } = options;
  return {
    to: options.to,
    subject,
    text: [...paragraphs.flatMap((p) => [p, '']), action.url, '', validity, '', footer, ''].join('\n'),
    html: renderHtml({ title: subject, paragraphs, action, footer: `${validity} ${footer}` }),
  };
}

/**
 * An e-mail to an owner of a company about something to act on (a failing webhook endpoint, overdue revocations): a
 * greeting, the paragraphs, one link as the action, and the footer that says why they receive it.
 */
export function ownerNoticeMessage(options: {
  to: string;
  subject: string;
  paragraphs: string[];
  link: string;
  actionLabel: string;
}): EmailMessage {
  const footer = 'You receive this as an owner of the company on Veriform.';
  return {
    to: options.to,
    subject: options.subject,
    text: ['Hi,', '', ...options.paragraphs.flatMap((p) => [p, '']), options.link, '', footer, ''].join('\n'),
    html: renderHtml({
      title: options.subject,
      paragraphs: ['Hi,', ...options.paragraphs],
      action: { label: options.actionLabel, url: options.link },
      footer,
    }),
  };
}
