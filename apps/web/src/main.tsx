import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dropzone/styles.css';
import '@mantine/charts/styles.css';
import { anonymousCsrfToken } from './lib/first-paint-token';
import { installPreloadErrorHandler } from './lib/preload-error';

/**
 * The entry holds no more than this choice. A visitor who opens the login page gets the login form alone first
 * (features/auth/first-paint-login.tsx: React and the form, ~75 KB gzip instead of the app's ~200): Mantine, the router
 * with every route's search schemas, zod and the query cache arrive when the form is typed in; leaving it is a page load.
 * Every other page, and the login page of a signed-in user (whom its guard sends on), starts the whole app
 * (app-main.tsx). Nothing here may import the app's modules: see vite.config.ts.
 */
installPreloadErrorHandler();

const LOGIN_PATHS = new Set(['/auth/login', '/auth/login/']);

const csrfToken = LOGIN_PATHS.has(window.location.pathname) ? anonymousCsrfToken(document) : null;
if (csrfToken !== null) {
  void import('./features/auth/first-paint-login').then(({ startFirstPaintLogin }) =>
    startFirstPaintLogin(csrfToken),
  );
} else {
  void import('./app-main').then(({ startApp }) => startApp());
}
