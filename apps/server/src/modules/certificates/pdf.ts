import {
  type ApiReassignment,
  CERTIFICATE_ALG,
  CERTIFICATE_KEYS_PATH,
  type Certificate,
  carrierLineTypeLabels,
  certificateSchema,
  deliveryReasonOf,
  issuerLabel,
  reassignmentAnswerLabels,
  type TimelineEvent,
} from '@veriform/contracts';
import { PDF_SEAL_PREFIX } from '@veriform/verify-certificate';
import {
  AFRelationship,
  beginText,
  endText,
  fill,
  moveText,
  PDFDocument,
  type PDFFont,
  type PDFName,
  type PDFOperator,
  type PDFPage,
  PDFString,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  StandardFonts,
  setFillingColor,
  setFontAndSize,
  showText,
} from 'pdf-lib';
import { create as createQrCode } from 'qrcode';
import type { Config } from '../../config.ts';
import { AppError } from '../../lib/errors.ts';
import { certificateFileName } from './file-name.ts';
import { deriveSigningKey, type SigningKey } from './keys.ts';

/**
 * The certificate as a PDF (issue #19 item 3, ADR 24's addendum): everything the signed JSON says, in words, the
 * signature, a QR code to the public check page, and the signed JSON itself as an attachment, exactly the bytes of
 * `certificateFile`. After `%%EOF` one comment line seals the whole file, `%VERIFORM-SEAL <keyId> <base64 Ed25519 of
 * every byte before that line>`, so one changed byte anywhere is caught with no database; the checker is
 * packages/verify-certificate. The same certificate gives the same bytes on every download: no clock, no randomness
 * (pdf-lib's resource names come from a fixed-seed generator, and the document's dates are the issue time).
 */

/** The public check page (no login) a certificate's QR code opens. */
export const publicCheckUrl = (publicUrl: string, certificateId: string) =>
  `${publicUrl}/certificates/${certificateId}`;

/** What the PDF is made of: the signed certificate file (`certificateFile`), its `certificate` as signed, and its key. */
export type SignedCertificateText = { file: string; content: string; keyId: string; signature: string };

/**
 * The key that signed a certificate, to seal its PDF with: one key vouches for both, so the checker can require the
 * seal's key id to be the certificate's, and a PDF's bytes do not change when the current key rotates. The keys are
 * derived (keys.ts), so any generation up to the current one is at hand while SECRET_KEY is the same.
 */
function sealingKeys(config: Pick<Config, 'secretKey' | 'certificateKeyGeneration'>) {
  const found = new Map<string, SigningKey>();
  return (keyId: string): SigningKey => {
    const known = found.get(keyId);
    if (known) return known;
    for (let generation = config.certificateKeyGeneration; generation >= 1; generation -= 1) {
      const key = deriveSigningKey(config.secretKey, generation);
      found.set(key.keyId, key);
      if (key.keyId === keyId) return key;
    }
    throw new AppError('not_found', {
      detail: `This certificate was signed with ${keyId}, which this server can no longer derive (SECRET_KEY changed), so it cannot seal its PDF; the JSON certificate still verifies.`,
    });
  };
}

/** Renders and seals certificate PDFs; one per process (it remembers the keys it derived). */
export function createCertificatePdfs(
  config: Pick<Config, 'secretKey' | 'certificateKeyGeneration' | 'publicUrl'>,
) {
  const keyFor = sealingKeys(config);
  return async (
    signed: SignedCertificateText,
    reassignment: ApiReassignment | null = null,
  ): Promise<Buffer> =>
    sealPdf(await renderCertificatePdf(signed, config.publicUrl, reassignment), keyFor(signed.keyId));
}

/** The seal line after `%%EOF`: signed are the PDF's bytes and the line break that ends them. */
export function sealPdf(pdf: Uint8Array, key: Pick<SigningKey, 'keyId' | 'sign'>): Buffer {
  const signed = Buffer.concat([pdf, Buffer.from('\n')]);
  const seal = `${PDF_SEAL_PREFIX}${key.keyId} ${key.sign(signed).toString('base64')}\n`;
  return Buffer.concat([signed, Buffer.from(seal, 'latin1')]);
}

// ---- Layout -----------------------------------------------------------------------------------------------------

const PAGE = { width: 612, height: 792 }; // US Letter: the numbers are North American
const MARGIN = 54;
const WIDTH = PAGE.width - 2 * MARGIN;
const BOTTOM = MARGIN + 24; // room for the footer
const LABEL_WIDTH = 150;
const BODY = 9.5;
const MONO = 8.5;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.4, 0.4, 0.45);
const RULE = rgb(0.8, 0.8, 0.83);

type Fonts = { regular: PDFFont; bold: PDFFont; mono: PDFFont };
type Style = { font: keyof Fonts; size: number; color?: ReturnType<typeof rgb> };

const leading = (size: number) => size * 1.35;

/**
 * Text the standard fonts can draw. They are WinAnsi only (Latin-1 and a few more: `•`, `—`, `€` are in it, so
 * masked numbers and Spanish consent text print as they are); anything else is printed as `[U+XXXX]`, and the page
 * says the attached JSON has it as signed. Deliberately not an embedded Unicode font: that would add tens of
 * kilobytes to every certificate for the rare emoji, and the words that count are the signed ones in the JSON.
 */
function printable(winAnsi: ReadonlySet<number>, text: string, replaced: { any: boolean }): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '\t') out += ' ';
    else if (winAnsi.has(code)) out += char;
    else {
      replaced.any = true;
      out += `[U+${code.toString(16).toUpperCase().padStart(4, '0')}]`;
    }
  }
  return out;
}

/** Greedy word wrap by measured width; a word longer than the line (a hash, a user agent) is cut where it must be. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  const fits = (candidate: string) => font.widthOfTextAtSize(candidate, size) <= width;
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      const candidate = line === '' ? word : `${line} ${word}`;
      if (fits(candidate)) {
        line = candidate;
        continue;
      }
      if (line !== '') lines.push(line);
      line = '';
      let rest = word;
      while (!fits(rest)) {
        let cut = rest.length - 1;
        while (cut > 1 && !fits(rest.slice(0, cut))) cut -= 1;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}

/**
 * Draws one line of text as plain text operators, each font registered once per page: pdf-lib's `drawText({font})`
 * adds two font resources to the page per call, which grows every certificate by kilobytes of names.
 */
function createTextDrawer(fonts: Fonts) {
  const keys = new Map<PDFPage, Map<PDFFont, PDFName>>();
  return (page: PDFPage, line: string, x: number, baseline: number, style: Style) => {
    const font = fonts[style.font];
    const ofPage = keys.get(page) ?? new Map<PDFFont, PDFName>();
    keys.set(page, ofPage);
    const key = ofPage.get(font) ?? page.node.newFontDictionary(font.name, font.ref);
    ofPage.set(font, key);
    page.pushOperators(
      beginText(),
      setFillingColor(style.color ?? INK),
      setFontAndSize(key, style.size),
      moveText(x, baseline),
      showText(font.encodeText(line)),
      endText(),
    );
  };
}

function createLayout(doc: PDFDocument, fonts: Fonts, winAnsi: ReadonlySet<number>) {
  const lineOn = createTextDrawer(fonts);
  const replaced = { any: false };
  let page: PDFPage = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - MARGIN;

  const text = (value: string) => printable(winAnsi, value, replaced);

  function newPage() {
    page = doc.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - MARGIN;
  }

  function ensure(height: number) {
    if (y - height < BOTTOM) newPage();
  }

  function drawLine(line: string, x: number, baseline: number, style: Style) {
    lineOn(page, line, x, baseline, style);
  }

  function draw(line: string, x: number, style: Style) {
    drawLine(line, x, y - style.size, style);
  }

  /** Lines at `x` within `width`, each kept whole on a page. */
  function block(value: string, style: Style, x = MARGIN, width = WIDTH) {
    for (const line of wrap(text(value), fonts[style.font], style.size, width)) {
      ensure(leading(style.size));
      draw(line, x, style);
      y -= leading(style.size);
    }
  }

  function heading(title: string) {
    ensure(48);
    y -= 10;
    draw(title, MARGIN, { font: 'bold', size: 12 });
    y -= leading(12);
    page.drawLine({
      start: { x: MARGIN, y: y + 2 },
      end: { x: MARGIN + WIDTH, y: y + 2 },
      thickness: 0.5,
      color: RULE,
    });
    y -= 4;
  }

  /** A label and its value beside it; the value wraps under itself. */
  function field(label: string, value: string, font: keyof Fonts = 'regular') {
    const size = font === 'mono' ? MONO : BODY;
    const lines = wrap(text(value), fonts[font], size, WIDTH - LABEL_WIDTH);
    ensure(leading(BODY));
    draw(text(label), MARGIN, { font: 'bold', size: BODY, color: MUTED });
    for (const [index, line] of lines.entries()) {
      if (index > 0) ensure(leading(BODY));
      draw(line, MARGIN + LABEL_WIDTH, { font, size });
      y -= leading(BODY);
    }
  }

  /** Rows of cells; a row is kept whole on a page, and the header repeats on each page the table reaches. */
  function table(columns: readonly { title: string; width: number }[], rows: readonly string[][]) {
    const lineHeight = leading(BODY);
    const header = () => {
      let x = MARGIN;
      for (const column of columns) {
        draw(column.title, x, { font: 'bold', size: BODY, color: MUTED });
        x += column.width;
      }
      y -= lineHeight;
    };
    ensure(2 * lineHeight);
    header();
    for (const row of rows) {
      const cells = row.map((cell, index) =>
        wrap(text(cell), fonts.regular, BODY, (columns[index]?.width ?? WIDTH) - 8),
      );
      const height = Math.max(...cells.map((lines) => lines.length)) * lineHeight;
      if (y - height < BOTTOM) {
        newPage();
        header();
      }
      let x = MARGIN;
      for (const [index, lines] of cells.entries()) {
        for (const [n, line] of lines.entries()) {
          page.drawText(line, {
            x,
            y: y - BODY - n * lineHeight,
            size: BODY,
            font: fonts.regular,
            color: INK,
          });
        }
        x += columns[index]?.width ?? 0;
      }
      y -= height + 2;
    }
  }

  function gap(points: number) {
    y -= points;
  }

  return {
    block,
    heading,
    field,
    table,
    gap,
    lineOn,
    replaced: () => replaced.any,
    page: () => page,
    y: () => y,
    moveTo: (top: number) => {
      y = top;
    },
  };
}

/**
 * The QR code's dark modules as one filled path of rectangles (one per run of dark modules in a row): vector, no
 * canvas, one operator per run.
 */
function drawQrCode(page: PDFPage, url: string, x: number, top: number, size: number) {
  const { modules } = createQrCode(url, { errorCorrectionLevel: 'M' });
  const unit = size / modules.size;
  const runs: PDFOperator[] = [];
  for (let row = 0; row < modules.size; row += 1) {
    let col = 0;
    while (col < modules.size) {
      if (!modules.get(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < modules.size && modules.get(row, col)) col += 1;
      runs.push(rectangle(x + start * unit, top - (row + 1) * unit, (col - start) * unit, unit));
    }
  }
  page.pushOperators(pushGraphicsState(), setFillingColor(rgb(0, 0, 0)), ...runs, fill(), popGraphicsState());
  link(page, url, x, top - size, size, size);
}

/** A clickable area that opens `url` (pdf-lib has no link API; this is the plain PDF link annotation). */
function link(page: PDFPage, url: string, x: number, y: number, width: number, height: number) {
  const { context } = page.doc;
  const annotation = context.register(
    context.obj({
      Type: 'Annot',
      Subtype: 'Link',
      Rect: [x, y, x + width, y + height],
      Border: [0, 0, 0],
      A: { Type: 'Action', S: 'URI', URI: PDFString.of(url) },
    }),
  );
  page.node.addAnnot(annotation);
}

// ---- Words ------------------------------------------------------------------------------------------------------

/** ISO 8601 as people read it, to the millisecond the certificate holds. */
const when = (iso: string | null) => (iso === null ? 'never' : iso.replace('T', ' ').replace('Z', ' UTC'));

const CHANNELS: Record<Certificate['verification']['channel'], string> = { sms: 'SMS', email: 'E-mail' };
const LANGUAGES: Record<NonNullable<Certificate['consent']>['language'], string> = {
  en: 'English',
  es: 'Spanish',
};
const EVENTS: Record<TimelineEvent['kind'], string> = {
  page_opened: 'Page opened',
  consent_shown: 'Consent text shown',
  code_requested: 'Code requested',
  code_sent: 'Code sent',
  code_delivered: 'Code delivered',
  code_undelivered: 'Code not delivered',
  code_failed: 'Code could not be sent',
  code_entered: 'Code entered',
  verified: 'Verified',
};

function eventDetails(event: TimelineEvent, channel: Certificate['verification']['channel']): string {
  const parts: string[] = [];
  if (event.kind === 'code_entered') parts.push(event.correct ? 'the right code' : 'a wrong code');
  if (event.detail !== null) {
    if (event.kind === 'consent_shown') parts.push(`version ${event.detail.replace(/^v/, '')}`);
    else if (event.kind === 'code_sent') parts.push(`provider message id ${event.detail}`);
    else if (event.kind === 'code_requested') parts.push(`by ${event.detail}`);
    else parts.push(event.detail);
  }
  if (event.errorCode !== null) {
    const reason = deliveryReasonOf(channel, event.errorCode);
    parts.push(`error ${event.errorCode}${reason ? `: ${reason.reason}` : ''}`);
  }
  if (event.attemptId !== null) parts.push(`attempt ${event.attemptId}`);
  return parts.join('; ');
}

/** The PDF before its seal. */
export async function renderCertificatePdf(
  row: SignedCertificateText,
  publicUrl: string,
  /** The latest reassigned-number check when the PDF is made (issue #36): the standing's, not signed. */
  reassignment: ApiReassignment | null = null,
): Promise<Uint8Array> {
  const { file } = row;
  const certificate = certificateSchema.parse(JSON.parse(row.content));
  const { id, verification, consent, page, attempts, evidence } = certificate;
  const issued = new Date(certificate.issued);
  const checkUrl = publicCheckUrl(publicUrl, id);
  const keysUrl = `${publicUrl}${CERTIFICATE_KEYS_PATH}`;
  // "Acme Inc. — verified domain acme.com" or "Acme Inc. — name not verified" (ADR 31): the name alone is whatever the
  // account chose to call itself.
  const issuer = issuerLabel(certificate.account.name, certificate.account.verifiedDomains ?? []);
  const pdfName = certificateFileName(id, 'pdf');
  const jsonName = certificateFileName(id, 'json');

  // No default metadata: pdf-lib's would stamp the time of the download.
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(`Verification certificate ${id}`);
  doc.setAuthor(certificate.account.name);
  doc.setSubject(`Verification ${verification.id} of ${verification.cellPhone}, signed by Veriform`);
  doc.setCreator('Veriform');
  doc.setProducer('Veriform');
  doc.setCreationDate(issued);
  doc.setModificationDate(issued);
  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    mono: await doc.embedFont(StandardFonts.Courier),
  };
  const winAnsi = new Set(fonts.regular.getCharacterSet());
  const layout = createLayout(doc, fonts, winAnsi);

  // Header: the title and who, with the QR code to the public check page at the right.
  const qrSize = 96;
  const top = layout.y();
  drawQrCode(layout.page(), checkUrl, MARGIN + WIDTH - qrSize, top, qrSize);
  const headerWidth = WIDTH - qrSize - 16;
  layout.block('Verification certificate', { font: 'bold', size: 20 }, MARGIN, headerWidth);
  layout.gap(4);
  layout.block(
    `Issued ${when(certificate.issued)} by Veriform for ${issuer}.`,
    { font: 'regular', size: 10.5 },
    MARGIN,
    headerWidth,
  );
  layout.block(`Certificate ${id}`, { font: 'mono', size: 9.5 }, MARGIN, headerWidth);
  layout.gap(6);
  layout.block(
    'Scan the code or open the address below to check this certificate online; the last section says how to check it offline.',
    { font: 'regular', size: 8.5, color: MUTED },
    MARGIN,
    headerWidth,
  );
  layout.moveTo(Math.min(layout.y(), top - qrSize - 8));

  layout.heading('Company and form');
  layout.field('Company', `${issuer} (account ${certificate.account.id})`);
  layout.field(
    'Form',
    `${certificate.form.name} (form ${certificate.form.id}, public id ${certificate.form.publicId})`,
  );

  layout.heading('Verification');
  layout.field('Verification', String(verification.id));
  layout.field('Phone number', verification.cellPhone);
  layout.field('Phone number SHA-256', `salted: ${verification.cellPhoneSha256}`, 'mono');
  layout.field('E-mail address', verification.email ?? 'none');
  if (verification.emailSha256 !== null)
    layout.field('E-mail SHA-256', `salted: ${verification.emailSha256}`, 'mono');
  layout.field('Channel', CHANNELS[verification.channel]);
  layout.field('Started', when(verification.created));
  layout.field('Code sent', when(verification.codeSent));
  layout.field('Verified', when(verification.verified));
  layout.field('Through', verification.source === 'hosted' ? 'The hosted page' : 'API v1');
  layout.field('External reference', verification.externalRefId === '' ? 'none' : verification.externalRefId);
  layout.field('Test', verification.isTest ? 'Yes: a test number, nothing was sent' : 'No');
  // Issue #36 item 4: made through a fresh verification link of an earlier verification, whose consent it refreshes.
  const { refreshes } = certificate;
  if (refreshes)
    layout.field(
      'Refreshes',
      `verification ${refreshes.verificationId ?? 'no longer kept'} (API ${refreshes.apiVerificationId}${
        refreshes.certificateId ? `, certificate ${refreshes.certificateId}` : ''
      })`,
    );

  // Issue #36: the carrier's answers when the code was requested, signed (absent from certificates issued before), and
  // the latest reassigned-number check, which is not: checks come later, so the PDF prints the one known when it is
  // made (the same bytes on every download until a new check is made).
  layout.heading('Number checks');
  const { carrier, simSwap } = certificate;
  layout.field(
    'Line type',
    carrier
      ? `${carrierLineTypeLabels[carrier.lineType]}${carrier.name ? ` (${carrier.name})` : ''}`
      : 'not looked up',
  );
  layout.field(
    'Last SIM swap',
    simSwap
      ? `${simSwap.lastSwapAt ? when(simSwap.lastSwapAt) : 'no date given by the carrier'}; ${
          simSwap.withinWindow ? 'WITHIN' : 'not within'
        } the account's ${simSwap.windowDays}-day window before the code`
      : 'not looked up',
  );
  layout.field(
    'Reassigned number',
    reassignment
      ? `${reassignmentAnswerLabels[reassignment.answer]}: checked ${when(reassignment.checkedAt)} for consent of ${reassignment.lastVerifiedDate}${
          reassignment.errorCode === null ? '' : ` (provider code ${reassignment.errorCode})`
        }. The latest check when this PDF was made; not part of the signed certificate.`
      : 'never checked when this PDF was made (not part of the signed certificate)',
  );

  layout.heading('Consent');
  if (consent === null) {
    layout.block('The form had no consent text when this verification was made.', {
      font: 'regular',
      size: BODY,
    });
  } else {
    layout.field('Version', `${consent.version} (${consent.versionId})`);
    layout.field('Language', LANGUAGES[consent.language]);
    layout.field('Text SHA-256', consent.sha256, 'mono');
    layout.gap(4);
    layout.block('The text the consumer was shown:', { font: 'bold', size: BODY, color: MUTED });
    layout.gap(2);
    layout.block(consent.text, { font: 'regular', size: BODY }, MARGIN + 12, WIDTH - 12);
  }

  layout.heading('Page');
  if (page === null) {
    layout.block('None: the code was requested through API v1.', { font: 'regular', size: BODY });
  } else {
    layout.field('Address', page.url);
    layout.field('Reference', page.reference ?? 'none');
  }

  layout.heading('Timeline');
  if (certificate.timeline.length === 0) {
    layout.block('No events recorded.', { font: 'regular', size: BODY });
  } else {
    layout.table(
      [
        { title: 'Time', width: 150 },
        { title: 'Event', width: 120 },
        { title: 'Details', width: WIDTH - 270 },
      ],
      certificate.timeline.map((event) => [
        when(event.at),
        EVENTS[event.kind],
        eventDetails(event, verification.channel),
      ]),
    );
  }

  layout.heading('Attempts');
  layout.field('Codes tried', `${attempts.count} for the code that verified, the right one included`);
  layout.field('Codes entered', String(attempts.codesEntered));
  layout.field('Wrong codes', String(attempts.wrongCodes));

  layout.heading('Evidence');
  layout.field('IP address', evidence.ip ?? 'not recorded');
  layout.field('User agent', evidence.userAgent ?? 'not recorded');
  layout.field('Record SHA-256', certificate.record.sha256, 'mono');

  layout.heading('Chain and signature');
  layout.field(
    'Place in the chain',
    `${certificate.chain.seq} of ${certificate.account.name}'s certificates`,
  );
  layout.field('Previous SHA-256', certificate.chain.prevHash ?? 'none: this is the first', 'mono');
  layout.field('Certificate', id, 'mono');
  layout.field('Algorithm', CERTIFICATE_ALG);
  layout.field('Key id', row.keyId, 'mono');
  layout.field('Signature', row.signature, 'mono');
  layout.field('Published keys', keysUrl);

  layout.heading('How to check it');
  const note = { font: 'regular', size: BODY } as const;
  layout.block('Online: scan the QR code or open this address, and drop this PDF there:', note);
  const linkTop = layout.y();
  layout.block(checkUrl, { font: 'regular', size: BODY, color: rgb(0.05, 0.3, 0.7) });
  link(layout.page(), checkUrl, MARGIN, layout.y(), WIDTH, linkTop - layout.y());
  layout.gap(4);
  layout.block('Offline, with no database, against the published keys:', note);
  layout.block(`npx veriform-verify-certificate ${pdfName} --keys-url ${keysUrl}`, {
    font: 'mono',
    size: MONO,
  });
  layout.gap(4);
  layout.block(
    `The signed certificate is attached to this PDF as ${jsonName} (canonical JSON, RFC 8785; its signature is the one above), and a seal after the end of this file signs every byte of it: one changed byte anywhere and the check says "altered".`,
    note,
  );
  if (layout.replaced())
    layout.block(
      'Characters that the PDF standard fonts cannot show are printed as [U+XXXX]; the attached JSON has them exactly as signed.',
      note,
    );

  const pages = doc.getPages();
  for (const [index, each] of pages.entries()) {
    layout.lineOn(
      each,
      `Veriform verification certificate ${id}  —  page ${index + 1} of ${pages.length}`,
      MARGIN,
      MARGIN - 6,
      {
        font: 'regular',
        size: 7.5,
        color: MUTED,
      },
    );
  }

  await doc.attach(Buffer.from(file, 'utf8'), jsonName, {
    mimeType: 'application/json',
    description: 'The signed certificate: check it with npx veriform-verify-certificate',
    creationDate: issued,
    modificationDate: issued,
    afRelationship: AFRelationship.Source,
  });
  // A classic cross-reference table: the checker finds the attachment with a few lines of code, not a PDF parser.
  return doc.save({ useObjectStreams: false });
}
