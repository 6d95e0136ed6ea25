import { errorTexts, unexpectedStatusText } from '@veriform/contracts';
import type { FetchLike } from '../../lib/api-client';

/**
 * The CSV export, read as a stream so the page can say how far it got (issue #6: "the browser shows progress"). The
 * server answers `text/csv` with `Content-Disposition` (the file name) and `X-Total-Count` (the rows to expect), and
 * streams the rows in batches; a big export takes a while, and a silent button for half a minute looks broken.
 */

export const DEFAULT_EXPORT_FILENAME = 'verifications.csv';

export type ExportProgress = { rows: number; total: number | null };
export type ExportResult = { blob: Blob; filename: string; rows: number };

/** The file name of a `Content-Disposition` header: RFC 6266's `filename*` (UTF-8) first, then `filename`. */
export function filenameFromDisposition(header: string | null): string {
  if (!header) return DEFAULT_EXPORT_FILENAME;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header)?.[1];
  if (extended) {
    try {
      return sanitize(decodeURIComponent(extended.trim()));
    } catch {
      // A malformed escape: fall through to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/.exec(header);
  const name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2]?.trim();
  return name ? sanitize(name) : DEFAULT_EXPORT_FILENAME;
}

/** No folders in a download name (the browser strips them too; this keeps what the page shows honest). */
function sanitize(name: string): string {
  const base = name.split(/[/\\]/).pop()?.trim() ?? '';
  return base || DEFAULT_EXPORT_FILENAME;
}

/**
 * Counts the CSV records seen so far without parsing them: a line break ends a record unless it is inside a quoted
 * field (a reference or user agent may hold one). An escaped quote ("") toggles twice, so the state stays right
 * across chunk boundaries too.
 */
export class CsvRecordCounter {
  private inQuotes = false;
  private pending = false;
  records = 0;

  push(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 34 /* " */) {
        this.inQuotes = !this.inQuotes;
        this.pending = true;
      } else if (c === 10 /* \n */ && !this.inQuotes) {
        this.records++;
        this.pending = false;
      } else if (c !== 13 /* \r */) {
        this.pending = true;
      }
    }
  }

  /** Records including a last one without a trailing line break. */
  finish(): number {
    if (this.pending) {
      this.records++;
      this.pending = false;
    }
    return this.records;
  }
}

export class ExportError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ExportError';
    this.status = status;
  }
}

async function errorOf(response: Response): Promise<ExportError> {
  let detail: string | undefined;
  try {
    const body: unknown = await response.json();
    if (typeof body === 'object' && body !== null && 'detail' in body && typeof body.detail === 'string') {
      detail = body.detail;
    }
  } catch {
    // Not JSON: the status says enough.
  }
  // SPEC §8: 5xx get the generic text (never internals); 403/404 the server's own words; others the unexpected text.
  if (response.status >= 500) return new ExportError(response.status, errorTexts.serverError);
  if (response.status === 404) return new ExportError(404, detail ?? errorTexts.notFound);
  if (response.status === 401 || response.status === 403) {
    return new ExportError(response.status, detail ?? errorTexts.permissionDenied);
  }
  return new ExportError(response.status, detail ?? unexpectedStatusText(response.status));
}

/**
 * GET the export, reporting `{rows, total}` as chunks arrive (rows exclude the header line; total is null when the
 * server did not say). Aborting `signal` stops the download (an AbortError is thrown).
 */
export async function downloadCsv(
  url: string,
  {
    fetch = (input, init) => globalThis.fetch(input, init),
    signal,
    onProgress,
  }: { fetch?: FetchLike; signal?: AbortSignal; onProgress?: (progress: ExportProgress) => void } = {},
): Promise<ExportResult> {
  const response = await fetch(url, {
    method: 'GET',
    headers: { Accept: 'text/csv' },
    credentials: 'same-origin',
    signal,
  });
  if (!response.ok) throw await errorOf(response);
  const totalHeader = response.headers.get('X-Total-Count');
  const parsedTotal = totalHeader === null ? Number.NaN : Number(totalHeader);
  const total = Number.isInteger(parsedTotal) && parsedTotal >= 0 ? parsedTotal : null;
  const filename = filenameFromDisposition(response.headers.get('Content-Disposition'));
  const type = response.headers.get('Content-Type') ?? 'text/csv;charset=utf-8';

  const counter = new CsvRecordCounter();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  const rowsSoFar = () => Math.max(0, counter.records - 1);
  onProgress?.({ rows: 0, total });
  if (response.body) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      counter.push(decoder.decode(value, { stream: true }));
      onProgress?.({ rows: rowsSoFar(), total });
    }
    counter.push(decoder.decode());
  } else {
    // No stream (old engines): one piece, still counted.
    const buffer = new Uint8Array(await response.arrayBuffer());
    chunks.push(buffer);
    counter.push(new TextDecoder().decode(buffer));
  }
  const rows = Math.max(0, counter.finish() - 1);
  onProgress?.({ rows, total });
  return { blob: new Blob(chunks, { type }), filename, rows };
}

// The one saver of a made file, shared with other features (a privacy request's receipt).
export { saveBlob } from '../../lib/save-blob';
