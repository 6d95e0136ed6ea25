import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';
import { CsvRecordCounter, downloadCsv, filenameFromDisposition } from './export';

const owner = makeMembership();
const signedIn = () => makeInitialData({ user: makeUser(), memberships: [owner], currentMembership: owner });

const HEADER = 'Cell phone,External ref,Form,Category,Method,Created,Test\n';
const row = (n: number) =>
  `+1201555${String(n).padStart(4, '0')},CRM-${n},Onboarding,,sms,2026-01-05T10:00:00Z,no\n`;

/**
 * A streamed CSV answer whose chunks the test releases one by one (`push`), like the server's keyset-paged batches.
 */
function streamedCsv(headers: Record<string, string>) {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    response: new Response(body, {
      status: 200,
      headers: { 'Content-Type': 'text/csv; charset=utf-8', ...headers },
    }),
    push: (text: string) => controller?.enqueue(encoder.encode(text)),
    close: () => controller?.close(),
  };
}

function listServer() {
  return createFakeServer({
    'GET /api/verifications': [
      200,
      {
        count: 3,
        pageNumber: 1,
        pageSize: 10,
        results: [1, 2, 3].map((id) => ({
          id,
          cellPhone: `+1201555000${id}`,
          externalRefId: `CRM-${id}`,
          verifyFormId: 7,
          verifyFormName: 'Onboarding check',
          verifyFormCategory: '',
          verificationMethod: 'sms',
          isTest: false,
          source: 'hosted',
          created: '2026-01-05T10:00:00Z',
          revokedAt: null,
          revocationId: null,
        })),
      },
    ],
    'GET /api/verify-forms': [200, { count: 0, pageNumber: 1, pageSize: 100, results: [] }],
    'GET /api/verify-forms/categories': [200, { results: [] }],
  });
}

/** The export goes through the browser's fetch (a stream, not the JSON api client): stub it, keep the rest fake. */
function stubExportFetch(answer: (url: URL, init: RequestInit) => Response | Promise<Response>) {
  const calls: { url: URL; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    calls.push({ url, init });
    return answer(url, init);
  });
  return calls;
}

/** Captures what would be saved: the Blob handed to an object URL and the `<a download>` that was clicked. */
function captureSave() {
  const saved: { blob?: Blob; filename?: string } = {};
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    saved.blob = blob as Blob;
    return 'blob:export';
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.filename = this.download;
  });
  return saved;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('CSV export helpers', () => {
  it('reads the file name from Content-Disposition', () => {
    expect(filenameFromDisposition('attachment; filename="verifications-2026-01-05.csv"')).toBe(
      'verifications-2026-01-05.csv',
    );
    expect(
      filenameFromDisposition('attachment; filename="x.csv"; filename*=UTF-8\'\'acme%20%C3%A9t%C3%A9.csv'),
    ).toBe('acme été.csv');
    expect(filenameFromDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(filenameFromDisposition('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(filenameFromDisposition(null)).toBe('verifications.csv');
  });

  it('counts records, not line breaks inside quoted fields, across chunk boundaries', () => {
    const counter = new CsvRecordCounter();
    counter.push('a,b\n1,"multi\nline');
    counter.push(' ""quoted"""\n2,x\r\n3,y');
    expect(counter.finish()).toBe(4);
  });

  it('downloadCsv reports progress with the total and returns the blob', async () => {
    const csv = streamedCsv({ 'X-Total-Count': '3', 'Content-Disposition': 'attachment; filename="v.csv"' });
    const progress: { rows: number; total: number | null }[] = [];
    const done = downloadCsv('/api/verifications/export-csv?account=21', {
      fetch: async () => csv.response,
      onProgress: (p) => progress.push(p),
    });
    csv.push(HEADER + row(1));
    csv.push(row(2) + row(3));
    csv.close();
    const result = await done;
    expect(result.filename).toBe('v.csv');
    expect(result.rows).toBe(3);
    expect(progress.at(0)).toEqual({ rows: 0, total: 3 });
    expect(progress.at(-1)).toEqual({ rows: 3, total: 3 });
    expect(await result.blob.text()).toBe(HEADER + row(1) + row(2) + row(3));
  });
});

describe('Export CSV on the activity log', { timeout: 20_000 }, () => {
  it('exports the current filters and sort, shows progress, saves the file and says so', async () => {
    const user = userEvent.setup();
    const csv = streamedCsv({
      'X-Total-Count': '3',
      'Content-Disposition': 'attachment; filename="verifications-acme.csv"',
    });
    const calls = stubExportFetch(() => csv.response);
    const saved = captureSave();
    renderApp('/activity-log/?q=CRM&o=cellPhone&pageNumber=2&verificationMethod__in=sms', {
      initialData: signedIn(),
      server: listServer(),
    });
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));

    await waitFor(() => expect(calls).toHaveLength(1));
    const params = Object.fromEntries(calls[0]?.url.searchParams ?? []);
    expect(calls[0]?.url.pathname).toBe('/api/verifications/export-csv');
    expect(params).toMatchObject({ account: '21', q: 'CRM', o: 'cellPhone', verificationMethod__in: 'sms' });
    // All time (the log's default) too: the file's times are in the user's zone, not the server's fallback.
    expect(params.tz).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    // Every matching row, not a page of them.
    expect(params.pageNumber).toBeUndefined();
    expect(params.pageSize).toBeUndefined();
    expect(calls[0]?.init.credentials).toBe('same-origin');

    expect(await screen.findByText('Exporting… 0 of 3 rows')).toBeInTheDocument();
    csv.push(HEADER + row(1) + row(2));
    expect(await screen.findByText('Exporting… 2 of 3 rows')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Export progress' })).toHaveAttribute(
      'aria-valuenow',
      '67',
    );
    csv.push(row(3));
    csv.close();

    expect(await screen.findByText('Export ready')).toBeInTheDocument();
    expect(screen.getByText('3 rows saved as verifications-acme.csv.')).toBeInTheDocument();
    expect(saved.filename).toBe('verifications-acme.csv');
    expect(await saved.blob?.text()).toBe(HEADER + row(1) + row(2) + row(3));
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('without X-Total-Count the progress is indeterminate and counts rows only', async () => {
    const user = userEvent.setup();
    const csv = streamedCsv({});
    stubExportFetch(() => csv.response);
    captureSave();
    renderApp('/activity-log/', { initialData: signedIn(), server: listServer() });
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    csv.push(HEADER + row(1));
    expect(await screen.findByText('Exporting… 1 row')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).toBeNull();
    csv.close();
    expect(await screen.findByText('Export ready')).toBeInTheDocument();
    expect(screen.getByText('1 row saved as verifications.csv.')).toBeInTheDocument();
  });

  it('Cancel export stops the download: nothing saved, no error', async () => {
    const user = userEvent.setup();
    let signal: AbortSignal | undefined;
    stubExportFetch((_url, init) => {
      signal = init.signal ?? undefined;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(HEADER));
          init.signal?.addEventListener('abort', () =>
            controller.error(new DOMException('Aborted', 'AbortError')),
          );
        },
      });
      return new Response(body, { status: 200, headers: { 'X-Total-Count': '50000' } });
    });
    const saved = captureSave();
    renderApp('/activity-log/', { initialData: signedIn(), server: listServer() });
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Exporting… 0 of 50,000 rows')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel export' }));
    await waitFor(() => expect(screen.queryByText(/Exporting…/)).toBeNull());
    expect(signal?.aborted).toBe(true);
    expect(saved.blob).toBeUndefined();
    expect(screen.queryByText('Export failed')).toBeNull();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
  });

  it('a refused export shows Export failed with the reason', async () => {
    const user = userEvent.setup();
    stubExportFetch(
      () =>
        new Response(JSON.stringify({ detail: 'You are not permitted to perform that action.' }), {
          status: 403,
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    const saved = captureSave();
    renderApp('/activity-log/', { initialData: signedIn(), server: listServer() });
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Export failed')).toBeInTheDocument();
    expect(screen.getByText('You are not permitted to perform that action.')).toBeInTheDocument();
    expect(saved.blob).toBeUndefined();
  });
});
