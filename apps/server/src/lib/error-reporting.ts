import type * as SentrySdk from '@sentry/node';
import {
  type ClientConfig,
  errorReportingDataCollection,
  errorReportingSampleRates,
} from '@veriform/contracts';
import type { Config } from '../config.ts';
import { redactUrl } from './redact.ts';

/**
 * Error reporting (SPEC §9, DESIGN §2): Sentry, only when `SENTRY_DSN` is set; without it every function here does
 * nothing. What is reported: 5xx answers (the one error handler), failed jobs that will not be retried, and the error
 * a process dies of. What never leaves the machine: cookies, headers, bodies, query values that are secrets, the
 * client's address (`dataCollection` off, and the scrubbers below for what the SDK would still attach).
 */

type SentryEvent = Parameters<NonNullable<SentrySdk.NodeOptions['beforeSend']>>[0];

/**
 * The SDK, once `initErrorReporting` loaded it. Loaded only with a DSN: importing `@sentry/node` takes 0.5-2 s (its
 * OpenTelemetry instrumentations), which every start and every test file without a DSN would otherwise pay.
 */
let sentry: typeof SentrySdk | null = null;

/**
 * Drizzle's failed-query errors name the statement's parameters (phone numbers, addresses, search words): the statement
 * stays, the values go.
 */
const QUERY_PARAMS = /\nparams: [\s\S]*$/;

/**
 * A URL as reports may carry it: the path, with token links' secrets removed; never the query (invitation keys, the
 * public form's `ref`, search words, phone numbers in filters).
 */
export function reportableUrl(url: string): string {
  const at = url.indexOf('?');
  return redactUrl(at === -1 ? url : url.slice(0, at));
}

/**
 * Keeps an event's request to its method and reportable URL, and error messages to what they say about the code, not
 * the data.
 */
export function scrubEvent<E extends SentryEvent>(event: E): E {
  for (const exception of event.exception?.values ?? []) {
    if (exception.value) exception.value = exception.value.replace(QUERY_PARAMS, '\nparams: [redacted]');
  }
  if (event.request) {
    const { method, url } = event.request;
    event.request = { ...(method ? { method } : {}), ...(url ? { url: reportableUrl(url) } : {}) };
  }
  if (event.user) event.user = event.user.id === undefined ? {} : { id: event.user.id };
  return event;
}

type SentrySpan = Parameters<NonNullable<SentrySdk.NodeOptions['beforeSendSpan']>>[0];
const URL_ATTRIBUTE = /(^|\.)(url|target|route|path)(\.|$)|url\.full/i;
const QUERY_ATTRIBUTE = /(^|\.)query$/i;

/** Traced spans (5 % of requests) lose the same things: query strings, and URL attributes become reportable URLs. */
export function scrubSpan(span: SentrySpan): SentrySpan {
  const attributes: SentrySpan['attributes'] = {};
  for (const [key, raw] of Object.entries(span.attributes)) {
    if (QUERY_ATTRIBUTE.test(key)) continue;
    const value = typeof raw === 'object' && raw !== null && 'value' in raw ? raw.value : raw;
    if (URL_ATTRIBUTE.test(key) && typeof value === 'string') attributes[key] = reportableUrl(value);
    else attributes[key] = raw;
  }
  return { ...span, name: reportableUrl(span.name), attributes };
}

/**
 * Starts Sentry for this process. Call it before the app's modules are imported (server.ts imports them afterwards),
 * so the SDK's instrumentation of HTTP, Fastify and the PostgreSQL driver sees them load; 5 % of requests are traced.
 */
export async function initErrorReporting(config: Config): Promise<boolean> {
  if (!config.sentryDsn) return false;
  sentry ??= await import('@sentry/node');
  const Sentry = sentry;
  Sentry.init({
    dsn: config.sentryDsn,
    environment: config.nodeEnv,
    tracesSampleRate: errorReportingSampleRates.traces,
    // Nothing about the people using the app (contracts' errorReportingDataCollection); the scrubbers below catch
    // what instrumentation would still attach.
    dataCollection: {
      ...errorReportingDataCollection,
      graphQL: { document: false, variables: false },
      genAI: { inputs: false, outputs: false },
    },
    beforeSend: scrubEvent,
    beforeSendSpan: scrubSpan,
    integrations: [
      // Its spans stay; its own capture of 5xx goes: the error handler reports them, with the request id and route
      // (the SDK's Dedupe would otherwise drop ours as the same exception).
      Sentry.fastifyIntegration({ shouldHandleError: () => false }),
    ],
  });
  return true;
}

export type ReportContext = {
  /** The request id the answer named in X-Request-Id: the log's lines of the same request carry it too. */
  requestId?: string;
  /** The route pattern (`/api/verify-forms/:id`), never the raw path. */
  route?: string;
  method?: string;
  /** For jobs: which queue and which job. */
  queue?: string;
  jobId?: string;
};

/** Reports one error with what ties it to the logs; returns Sentry's event id (undefined when reporting is off). */
export function reportError(error: unknown, context: ReportContext = {}): string | undefined {
  if (!sentry?.isEnabled()) return undefined;
  const tags = Object.fromEntries(Object.entries(context).filter(([, value]) => value !== undefined));
  return sentry.captureException(error, { tags });
}

/** Sends what is queued; a process about to exit waits for this (at most `timeoutMs`). */
export async function flushErrorReports(timeoutMs = 2_000): Promise<void> {
  if (sentry?.isEnabled()) await sentry.flush(timeoutMs);
}

/** What the pages need to report their own errors: the same DSN and environment (null when reporting is off). */
export function clientErrorReporting(config: Config): ClientConfig['errorReporting'] {
  return config.sentryDsn ? { dsn: config.sentryDsn, environment: config.nodeEnv } : null;
}
