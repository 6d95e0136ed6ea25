import { installSpecErrorMessages } from '@veriform/contracts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { bootstrap } from './bootstrap';
import { startErrorReporting } from './lib/error-reporting';
import { getInitialData } from './lib/initial-data';
import { safeNext } from './lib/safe-next';

/**
 * The whole app, started by main.tsx on every page but the login page's first paint. A function, not the module's
 * own top-level code: this module's chunk also holds what the first paint's form loads later (zod, the API client),
 * and importing it for those must not start a second app over the form.
 */
export function startApp(): void {
  // Client-side zod messages must read exactly like the server's (SPEC §5).
  installSpecErrorMessages();

  const initialData = getInitialData();

  // The server can ask for an immediate redirect with the page data (SPEC §3 extra.signaling).
  const redirectTo = initialData.extra.signaling?.immediatelyRedirectTo;
  if (
    redirectTo &&
    safeNext(redirectTo, window.location.origin) === redirectTo &&
    redirectTo !== window.location.pathname
  ) {
    window.history.replaceState(null, '', redirectTo);
  }

  const { services, router } = bootstrap(initialData);
  // Only where the server's page names a DSN; the SDK arrives after the page's content (lib/error-reporting.ts).
  startErrorReporting({ router });

  const rootElement = document.getElementById('root');
  if (!rootElement) throw new Error('The page has no #root element');
  createRoot(rootElement).render(
    <StrictMode>
      <App services={services} router={router} />
    </StrictMode>,
  );
}
