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

/** Paragraphs are plain text (escaped here); `action` renders as a button-like link with the URL spelled out. */
export function renderHtml(options: {
  title: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footer?: string;
}): string {
  const p = (text: string) => `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`;
  const action = options.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(options.action.url)}" style="background:#1c7ed6;color:#fff;padding:10px 18px;border-radius:4px;text-decoration:none;display:inline-block">${escapeHtml(options.action.label)}</a></p>` +
      p(`Or paste this link into your browser: ${options.action.url}`)
    : '';
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(options.title)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#212529">',
    options.paragraphs.map(p).join(''),
    action,
    options.footer
      ? `<p style="margin:24px 0 0;color:#868e96;font-size:13px">${escapeHtml(options.footer)}</p>`
      : '',
    '</body></html>',
  ].join('');
}
