import { inflateSync } from 'node:zlib';

/** Each stream of a PDF as pdf.ts writes it (plain objects, no object streams): its dictionary and its data, inflated. */
function streamsOf(pdf: Uint8Array): { dictionary: string; data: Buffer }[] {
  const bytes = Buffer.from(pdf);
  const text = bytes.toString('latin1');
  const streams = [];
  for (const match of text.matchAll(/>>\nstream\n/g)) {
    const dictionary = text.slice(text.lastIndexOf(' 0 obj\n', match.index), match.index);
    const length = Number(/\/Length (\d+)/.exec(dictionary)?.[1]);
    const from = match.index + match[0].length;
    const raw = bytes.subarray(from, from + length);
    streams.push({ dictionary, data: dictionary.includes('/FlateDecode') ? inflateSync(raw) : raw });
  }
  return streams;
}

/** The page content streams (not the attachment), as text. */
const contentsOf = (pdf: Uint8Array) =>
  streamsOf(pdf)
    .filter((stream) => !stream.dictionary.includes('/Type /EmbeddedFile'))
    .map((stream) => stream.data.toString('latin1'));

/**
 * What a certificate PDF says, for tests: every text line drawn, in the order drawn (pdf-lib writes standard-font
 * text as hex strings in WinAnsi, one `Tj` per line). Not a PDF parser: it reads what pdf.ts writes.
 */
export function pdfLines(pdf: Uint8Array): string[] {
  const winAnsi = new TextDecoder('windows-1252');
  return contentsOf(pdf).flatMap((content) =>
    [...content.matchAll(/<([0-9A-Fa-f]*)> Tj/g)].map((shown) =>
      winAnsi.decode(Buffer.from(shown[1] ?? '', 'hex')),
    ),
  );
}

/** The page content streams' rectangles (`x y w h re`), as drawn. */
export function pdfRectangles(pdf: Uint8Array): { x: number; y: number; width: number; height: number }[] {
  return contentsOf(pdf).flatMap((content) =>
    [...content.matchAll(/(-?[\d.]+) (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) re/g)].map((r) => ({
      x: Number(r[1]),
      y: Number(r[2]),
      width: Number(r[3]),
      height: Number(r[4]),
    })),
  );
}
