import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import middie from '@fastify/middie';
import fastifyStatic from '@fastify/static';
import { MEDIA_PATH_PREFIX } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from '../lib/errors.ts';
import { initialDataFor, injectInitialData, isTokenPage } from './initial-data.ts';

/**
 * The web app's pages. Every GET that is not an API call or a built asset answers index.html with the initial page
 * data injected (DESIGN §4); the client router then renders the route, including its own 404 page.
 *
 * - production (and any run with a build): built files from apps/web/dist via @fastify/static, /assets/* cached
 *   for a year (their names carry a content hash), index.html never cached by shared caches.
 * - VITE_DEV_SERVER=1: Vite in middleware mode with HMR, index.html through `transformIndexHtml`.
 * - no build and not dev mode (API tests before `npm run build`): a minimal built-in page, so the injection still
 *   works. In production a missing build is a startup error instead.
 */

type RenderTemplate = (url: string) => Promise<string>;

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
  return async (url) =>
    vite.transformIndexHtml(url, await readFile(join(config.webRoot, 'index.html'), 'utf8'));
}

async function registerBuiltAssets(app: FastifyInstance): Promise<RenderTemplate> {
  const root = distDir(app.services.config);
  const template = readFileSync(join(root, 'index.html'), 'utf8');
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    // One route per built file (known at startup) instead of a catch-all, so every other path reaches the page
    // handler below; index.html is only ever served with the initial data injected.
    wildcard: false,
    index: false,
    globIgnore: ['index.html'],
    cacheControl: false,
    setHeaders: (res, path) => {
      res.header('Cache-Control', path.includes('/assets/') ? IMMUTABLE : 'no-cache');
    },
  });
  return async () => template;
}

export async function registerSpa(
  app: FastifyInstance,
  devTemplate: RenderTemplate | undefined,
): Promise<void> {
  const { config } = app.services;
  let render: RenderTemplate;
  if (devTemplate) render = devTemplate;
  else if (existsSync(join(distDir(config), 'index.html'))) render = await registerBuiltAssets(app);
  else if (config.isProduction) {
    throw new Error(
      `The web app is not built (${join(distDir(config), 'index.html')} is missing): run npm run build.`,
    );
  } else render = async () => SHELL_HTML;

  app.setNotFoundHandler({ preHandler: app.rateLimit() }, async (request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      path !== '/api' &&
      !path.startsWith('/api/') &&
      !path.startsWith('/assets/') &&
      !path.startsWith(MEDIA_PATH_PREFIX);
    if (!isPage) throw new AppError('not_found');

    const [html, data] = await Promise.all([render(request.url), initialDataFor(request, reply, path)]);
    if (isTokenPage(path)) reply.header('Referrer-Policy', 'no-referrer');
    // The page carries the user's data and CSRF token: private, and revalidated every time.
    return reply
      .header('Cache-Control', 'private, no-cache')
      .type('text/html; charset=utf-8')
      .send(injectInitialData(html, data));
  });
}
