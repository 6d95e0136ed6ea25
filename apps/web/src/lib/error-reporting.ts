import type { ClientConfig } from '@veriform/contracts';
import { CLIENT_CONFIG_ELEMENT_ID } from '@veriform/contracts/client-config';

/**
 * Error reporting in the browser (SPEC §9): only when the server's page says where (`SENTRY_DSN` on the server). The
 * Sentry SDK is its own chunk, fetched once the page is idle, so no page waits for it and pages without a DSN never
 * download it. Errors thrown before it arrives are kept and sent when it does. Shared by both entries (the app and the
 * public form page): no zod, no Mantine here.
 */

export type ErrorReporting = NonNullable<ClientConfig['errorReporting']>;
type Sdk = typeof import('./sentry-browser');
/** What the app adds to the SDK's set-up (its router, for navigation traces). */
export type ReportingOptions = Parameters<Sdk['startSentry']>[1];

let reporting: ErrorReporting | null = null;
let sdk: Promise<Sdk> | null = null;
const early: unknown[] = [];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The page's client config; anything missing or malformed reads as "reporting off". */
export function readErrorReporting(doc: Document = document): ErrorReporting | null {
  try {
    const raw: unknown = JSON.parse(doc.getElementById(CLIENT_CONFIG_ELEMENT_ID)?.textContent ?? 'null');
    const value = isRecord(raw) ? raw.errorReporting : null;
    if (!isRecord(value) || typeof value.dsn !== 'string' || typeof value.environment !== 'string')
      return null;
    return { dsn: value.dsn, environment: value.environment };
  } catch {
    return null;
  }
}

function keepEarly(event: ErrorEvent | PromiseRejectionEvent): void {
  early.push('reason' in event ? event.reason : (event.error ?? event.message));
}

/** Starts reporting when the page asks for it (a no-op otherwise); call once, first thing, from the entry. */
export function startErrorReporting(options: ReportingOptions = {}, win: Window = window): void {
  reporting = readErrorReporting(win.document);
  if (!reporting || sdk) return;
  const settings = reporting;
  win.addEventListener('error', keepEarly);
  win.addEventListener('unhandledrejection', keepEarly);
  sdk = new Promise<Sdk>((resolve, reject) => {
    const load = () => {
      import('./sentry-browser').then((module) => {
        win.removeEventListener('error', keepEarly);
        win.removeEventListener('unhandledrejection', keepEarly);
        module.startSentry(settings, options);
        for (const error of early.splice(0)) module.captureError(error);
        resolve(module);
      }, reject);
    };
    // After the page's content: the SDK (tracing and replay) is the heaviest script the page could load.
    if (win.document.readyState === 'complete') win.setTimeout(load, 0);
    else win.addEventListener('load', () => win.setTimeout(load, 0), { once: true });
  });
  // A failed chunk load (offline, a new deployment) must not become an unhandled rejection of its own.
  sdk.catch(() => {});
}

/** Reports an error the page caught itself (an error screen); nothing happens when reporting is off. */
export function reportError(error: unknown): void {
  if (!sdk) return;
  void sdk.then((module) => module.captureError(error)).catch(() => {});
}
