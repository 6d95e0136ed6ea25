/**
 * Prints what each built page of the web app makes the browser download before it can run: the JavaScript of its
 * `<script type="module" src>` and `<link rel="modulepreload">` tags and the CSS of its `<link rel="stylesheet">`
 * tags, each gzip-compressed (level 9, as scripts/precompress.mjs serves them), in KB (1 KB = 1000 bytes, as Vite
 * reports).
 *
 *     npm run build && node scripts/bundle-sizes.mjs [distDir]
 *
 * Exits 1 when the public verification page's JavaScript exceeds its budget (100 KB gzip): consumers open that page on
 * phones, often on slow networks. Chunks loaded later by dynamic import are not counted (the page does not need them
 * to start).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const VERIFY_JS_BUDGET_KB = 100;
const dist = resolve(process.argv[2] ?? join(import.meta.dirname, '..', 'apps', 'web', 'dist'));

/** Attributes of every `<tag …>` in the HTML, as maps (enough for Vite's own output, which is regular). */
function tags(html, name) {
  const found = [];
  for (const match of html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'gi'))) {
    const attributes = new Map();
    for (const attribute of (match[1] ?? '').matchAll(
      /([\w:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g,
    )) {
      attributes.set(attribute[1].toLowerCase(), attribute[2] ?? attribute[3] ?? attribute[4] ?? '');
    }
    found.push(attributes);
  }
  return found;
}

function assetsOf(html) {
  const js = [];
  const css = [];
  for (const script of tags(html, 'script')) {
    if (script.get('type') === 'module' && script.get('src')) js.push(script.get('src'));
  }
  for (const link of tags(html, 'link')) {
    const rel = (link.get('rel') ?? '').split(/\s+/);
    const href = link.get('href');
    if (!href) continue;
    if (rel.includes('modulepreload')) js.push(href);
    else if (rel.includes('stylesheet')) css.push(href);
  }
  return { js: [...new Set(js)], css: [...new Set(css)] };
}

function gzipBytes(url) {
  // Built pages reference assets by absolute path from the site root, which is the dist folder.
  const file = join(dist, url.replace(/^\//, '').split(/[?#]/)[0]);
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

const kb = (bytes) => (bytes / 1000).toFixed(2);

function report(page) {
  const path = join(dist, page);
  if (!existsSync(path)) {
    console.error(`${path} is missing: run \`npm run build\` first.`);
    process.exit(2);
  }
  const { js, css } = assetsOf(readFileSync(path, 'utf8'));
  console.log(`\n${page}`);
  let jsTotal = 0;
  for (const url of js) {
    const bytes = gzipBytes(url);
    jsTotal += bytes;
    console.log(`  js   ${kb(bytes).padStart(8)} KB  ${url}`);
  }
  let cssTotal = 0;
  for (const url of css) {
    const bytes = gzipBytes(url);
    cssTotal += bytes;
    console.log(`  css  ${kb(bytes).padStart(8)} KB  ${url}`);
  }
  console.log(`  total: JS ${kb(jsTotal)} KB gzip in ${js.length} files, CSS ${kb(cssTotal)} KB gzip`);
  return { jsTotal, cssTotal };
}

report('index.html');
const verify = report('verify.html');
if (verify.jsTotal > VERIFY_JS_BUDGET_KB * 1000) {
  console.error(
    `\nverify.html loads ${kb(verify.jsTotal)} KB of JavaScript (gzip), over its budget of ${VERIFY_JS_BUDGET_KB} KB.`,
  );
  process.exit(1);
}
console.log(`\nverify.html JavaScript is within its budget of ${VERIFY_JS_BUDGET_KB} KB gzip.`);
