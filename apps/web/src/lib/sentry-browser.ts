import * as Sentry from '@sentry/react';
import type { AnyRouter } from '@tanstack/react-router';
import { errorReportingDataCollection, errorReportingSampleRates } from '@veriform/contracts/client-config';
import { redactTokenLinks } from '@veriform/contracts/page-paths';
import type { ErrorReporting } from './error-reporting';

/**
 * The Sentry SDK and its set-up, loaded on demand by error-reporting.ts (its own chunk). Replays mask every text and
 * input and block media (the SDK's defaults, stated here so nobody loosens them by accident): a consumer's phone
 * number or code never leaves the page.
 */

/**
 * URLs as reports may carry them: no query (search words, phone numbers, the public form's ref, invitation keys), and
 * no token of an e-mailed link (the server's log redacts the same, contracts' page-paths.ts).
 */
function reportableUrl(url: string): string {
  const at = url.search(/[?#]/);
  return redactTokenLinks(at === -1 ? url : url.slice(0, at));
}

export function startSentry(reporting: ErrorReporting, options: { router?: AnyRouter } = {}): void {
  Sentry.init({
    dsn: reporting.dsn,
    environment: reporting.environment,
    integrations: [
      options.router
        ? Sentry.tanstackRouterBrowserTracingIntegration(options.router)
        : Sentry.browserTracingIntegration(),
      Sentry.replayIntegration({ maskAllText: true, maskAllInputs: true, blockAllMedia: true }),
    ],
    tracesSampleRate: errorReportingSampleRates.traces,
    replaysSessionSampleRate: errorReportingSampleRates.replaysSession,
    replaysOnErrorSampleRate: errorReportingSampleRates.replaysOnError,
    // Traces of our own API calls carry Sentry's trace headers; the CSP and CORS of other origins never see them.
    tracePropagationTargets: [/^\//],
    dataCollection: errorReportingDataCollection,
    beforeSend(event) {
      if (event.request?.url) event.request = { url: reportableUrl(event.request.url) };
      return event;
    },
    beforeSendTransaction(event) {
      if (event.request?.url) event.request = { url: reportableUrl(event.request.url) };
      if (event.transaction) event.transaction = redactTokenLinks(event.transaction);
      return event;
    },
    // Spans go out on their own (streamed span items), past beforeSendTransaction: their names and string
    // attributes (page URLs, route names) lose an e-mailed link's token too.
    beforeSendSpan(span) {
      span.name = redactTokenLinks(span.name);
      for (const [key, value] of Object.entries(span.attributes))
        if (typeof value === 'string') span.attributes[key] = redactTokenLinks(value);
      return span;
    },
    beforeBreadcrumb(breadcrumb) {
      const data = breadcrumb.data;
      if (data) {
        for (const key of ['url', 'from', 'to']) {
          if (typeof data[key] === 'string') data[key] = reportableUrl(data[key]);
        }
      }
      return breadcrumb;
    },
  });
}

export function captureError(error: unknown): void {
  Sentry.captureException(error);
}
