import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import middie from '@fastify/middie';
import fastifyStatic from '@fastify/static';
import { MEDIA_PATH_PREFIX, type PublicPageData } from '@veriform/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config.ts';
import { clientErrorReporting } from '../lib/error-reporting.ts';
import { AppError } from '../lib/errors.ts';
import {
  initialDataFor,
  injectClientConfig,
  injectInitialData,
  isTokenPage,
  publicPageDataFor,
  publicRevokePageDataFor,
  type ViewerState,
} from './initial-data.ts';

/**
 * The web app's pages. Every GET that is not an API call or a built asset answers index.html with the initial page
 * data injected (DESIGN §4); the client router then renders the route, including its own 404 page. The public
 * verification page `/f/{publicId}` is the web app's second entry, verify.html, with its own data (PublicPageData);
 * the form's revocation page `/f/{publicId}/revoke` (issue #35) is the same entry, which picks its screen by the path.
 *
 * - production (and any run with a build): built files from apps/web/dist via @fastify/static, /assets/* cached
 *   for a year (their names carry a content hash), index.html never cached by shared caches.
 * - VITE_DEV_SERVER=1: Vite in middleware mode with HMR, index.html through `transformIndexHtml`.
 * - no build and not dev mode (API tests before `npm run build`): a minimal built-in page, so the injection still
 *   works. In production a missing build is a startup error instead.
 */

/** The web app's HTML entries: index.html (the app) and verify.html (the public verification page). */
export type PageEntry = 'index' | 'verify';
type RenderTemplate = (url: string, entry: PageEntry) => Promise<string>;

const SHELL_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Veriform</title>
  </head>
  <body>
    <div id="root"></div>
    <noscript>Veriform needs JavaScript. The web app has not been built: run npm run build.</noscript>
  </body>
</html>
`;

/** The public page without a build: enough for the data injection and the API tests. */
const VERIFY_SHELL_HTML = SHELL_HTML.replace('<title>Veriform</title>', '<title>Verification</title>');

const IMMUTABLE = 'public, max-age=31536000, immutable';

function distDir(config: Config): string {
  return join(config.webRoot, 'dist');
}

/**
 * Dev mode only: Vite's middlewares, registered before the session hooks so that the hundreds of module requests
 * of a page load are answered without touching the database. /api never reaches Vite (its proxy would capture it).
 */
export async function registerViteDev(app: FastifyInstance): Promise<RenderTemplate> {
  const { config } = app.services;
  const { createServer } = await import('vite');
  const configFile = join(config.webRoot, 'vite.config.ts');
  const vite = await createServer({
    root: config.webRoot,
    configFile: existsSync(configFile) ? configFile : false,
    server: { middlewareMode: true, hmr: { server: app.server } },
    appType: 'custom',
  });
  app.addHook('onClose', () => vite.close());
  await app.register(middie);
  app.use((req, res, next) => {
    if (req.url === '/api' || req.url?.startsWith('/api/')) return next();
    vite.middlewares(req, res, next);
  });
  return async (url, entry) => {
    const file = join(config.webRoot, `${entry}.html`);
    // The public page's entry may not exist yet in a checkout; the app then still starts.
    if (entry === 'verify' && !existsSync(file)) return VERIFY_SHELL_HTML;
    return vite.transformIndexHtml(url, await readFile(file, 'utf8'));
  };
}

async function registerBuiltAssets(app: FastifyInstance): Promise<RenderTemplate> {
  const root = distDir(app.services.config);
  const template = readFileSync(join(root, 'index.html'), 'utf8');
  const verifyFile = join(root, 'verify.html');
  let verifyTemplate = VERIFY_SHELL_HTML;
  if (existsSync(verifyFile)) verifyTemplate = readFileSync(verifyFile, 'utf8');
  else app.log.error(`${verifyFile} is missing: /f/ pages answer a blank page until the web app is rebuilt.`);
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    // One route per built file (known at startup) instead of a catch-all, so every other path reaches the page
    // handler below; the HTML entries are only ever served with their data injected.
    wildcard: false,
    index: false,
    globIgnore: ['index.html', 'verify.html'],
    // The build writes .br and .gz beside each asset (scripts/precompress.mjs): phones on slow networks get the
    // smallest file without the server compressing on every request.
    preCompressed: true,
    cacheControl: false,
    setHeaders: (res, path) => {
      res.header('Cache-Control', path.includes('/assets/') ? IMMUTABLE : 'no-cache');
    },
  });
  return async (_url, entry) => (entry === 'verify' ? verifyTemplate : template);
}

/** The page's `<html lang>` is the form's language from the first byte (screen readers, translation prompts). */
function withHtmlLang(html: string, language: string): string {
  return html.replace(/<html([^>]*?)\slang="[^"]*"/i, `<html$1 lang="${language}"`);
}

/**
 * The form page previews the public page in an iframe: this one page may be framed by our own origin (every other
 * page keeps `frame-ancestors 'none'`). Other sites still cannot frame it (clickjacking a consumer's code entry).
 */
function allowSameOriginFraming(reply: FastifyReply): void {
  const csp = reply.getHeader('Content-Security-Policy');
  if (typeof csp === 'string') {
    reply.header('Content-Security-Policy', csp.replace("frame-ancestors 'none'", "frame-ancestors 'self'"));
  }
  reply.header('X-Frame-Options', 'SAMEORIGIN');
}

export async function registerSpa(
  app: FastifyInstance,
  devTemplate: RenderTemplate | undefined,
  viewerState: ViewerState,
): Promise<void> {
  const { config } = app.services;
  const clientConfig = { errorReporting: clientErrorReporting(config) };
  let render: RenderTemplate;
  if (devTemplate) render = devTemplate;
  else if (existsSync(join(distDir(config), 'index.html'))) render = await registerBuiltAssets(app);
  else if (config.isProduction) {
    throw new Error(
      `The web app is not built (${join(distDir(config), 'index.html')} is missing): run npm run build.`,
    );
  } else render = async (_url, entry) => (entry === 'verify' ? VERIFY_SHELL_HTML : SHELL_HTML);

  app.get<{ Params: { publicId: string } }>('/f/:publicId', async (request, reply) => {
    const [html, data] = await Promise.all([
      render(request.url, 'verify'),
      publicPageDataFor(request, reply, request.params.publicId),
    ]);
    allowSameOriginFraming(reply);
    return sendPublicPage(reply, html, data);
  });

  // The form's revocation page (issue #35): the same entry and headers; never framed (the default CSP's
  // `frame-ancestors 'none'`), since no form page previews it.
  app.get<{ Params: { publicId: string } }>('/f/:publicId/revoke', async (request, reply) => {
    const [html, data] = await Promise.all([
      render(request.url, 'verify'),
      publicRevokePageDataFor(request, reply, request.params.publicId),
    ]);
    return sendPublicPage(reply, html, data);
  });

  function sendPublicPage(reply: FastifyReply, html: string, data: PublicPageData) {
    // An inactive form's "not available" page speaks the form's language; an unknown link has none: English.
    const language = data.language ?? 'en';
    return (
      reply
        // Unknown or inactive: the page still renders its "not available" text, but search engines drop the URL.
        .code(data.form ? 200 : 404)
        // `?ref=` may be a customer's private reference: no other site learns it through the Referer header.
        .header('Referrer-Policy', 'no-referrer')
        .header('Cache-Control', 'private, no-cache')
        .header('Content-Language', language)
        .type('text/html; charset=utf-8')
        .send(injectClientConfig(injectInitialData(withHtmlLang(html, language), data), clientConfig))
    );
  }

  app.setNotFoundHandler({ preHandler: app.rateLimit() }, async (request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      path !== '/api' &&
      !path.startsWith('/api/') &&
      !path.startsWith('/assets/') &&
      !path.startsWith(MEDIA_PATH_PREFIX);
    if (!isPage) throw new AppError('not_found');

    const [html, data] = await Promise.all([
      render(request.url, 'index'),
      initialDataFor(request, reply, path, viewerState),
    ]);
    if (isTokenPage(path)) reply.header('Referrer-Policy', 'no-referrer');
    // The page carries the user's data and CSRF token: private, and revalidated every time.
    return reply
      .header('Cache-Control', 'private, no-cache')
      .type('text/html; charset=utf-8')
      .send(injectClientConfig(injectInitialData(html, data), clientConfig));
  });
}
