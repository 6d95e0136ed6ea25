/**
 * Lighthouse (mobile preset: Moto G-class emulation, simulated slow 4G, 4× CPU slowdown) on the production build.
 *
 *     npm run build && npx tsx scripts/lighthouse.ts [--runs 3]
 *
 * Boots the app exactly as `npm start` does but in production mode, on a throw-away PGlite directory, seeds one live
 * form with a banner, and audits the public verification page `/f/{publicId}`. Prints performance and accessibility
 * (median of the runs) and the JavaScript the page transferred. Needs Debian's Chromium (CHROMIUM_PATH).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { schema } from '@veriform/db';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import sharp from 'sharp';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/database.ts';
import { processImage } from '../apps/server/src/modules/media/images.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Math.max(1, Number(values.runs));
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const webDist = join(import.meta.dirname, '..', 'apps', 'web', 'dist', 'verify.html');
if (!existsSync(webDist)) {
  console.error('The web app is not built: run `npm run build` first.');
  process.exit(1);
}

const dataDir = mkdtempSync(join(tmpdir(), 'veriform-lighthouse-'));
const config = loadConfig({
  ...process.env,
  NODE_ENV: 'production',
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  SECRET_KEY: randomBytes(32).toString('base64url'),
  PUBLIC_URL: 'http://localhost',
  LOG_LEVEL: 'warn',
});
const database = openDatabase(config);
await database.migrate();
const app = await buildApp(config, { db: database });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
const origin = `http://localhost:${port}`;

// One live form with a banner, as a customer would publish it.
const { db } = database;
const [account] = await db.insert(schema.accounts).values({ displayName: 'Acme Lending' }).returning();
const bannerSource = await sharp({
  create: { width: 1200, height: 300, channels: 3, background: '#2255aa' },
})
  .png()
  .toBuffer();
const bannerImage = await app.services.media.store(await processImage(bannerSource));
const publicId = randomBytes(12).toString('base64url');
if (!account) throw new Error('no account');
await db.insert(schema.verifyForms).values({
  publicId,
  accountId: account.id,
  name: 'Loan application',
  isLive: true,
  language: 'en',
  bannerImage,
});

type Result = { performance: number; accessibility: number; scriptKb: number; lcpMs: number; tbtMs: number };

async function audit(url: string): Promise<Result> {
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
  try {
    const runnerResult = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
    });
    const lhr = runnerResult?.lhr;
    if (!lhr) throw new Error('Lighthouse returned no result');
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
    const items = (
      lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] }
    )?.items;
    const script = items?.find((item) => item.resourceType === 'script')?.transferSize ?? 0;
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
      scriptKb: Math.round(script / 102.4) / 10,
      lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
      tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
    };
  } finally {
    await chrome.kill();
  }
}

function median(numbers: number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

try {
  const url = `${origin}/f/${publicId}?ref=lighthouse`;
  const results: Result[] = [];
  for (let run = 1; run <= runs; run++) {
    const result = await audit(url);
    results.push(result);
    console.log(`run ${run}: ${JSON.stringify(result)}`);
  }
  console.log(
    `public form /f/{publicId} (mobile, median of ${runs}): performance ${median(results.map((r) => r.performance))}, ` +
      `accessibility ${median(results.map((r) => r.accessibility))}, ` +
      `LCP ${median(results.map((r) => r.lcpMs))} ms, TBT ${median(results.map((r) => r.tbtMs))} ms, ` +
      `JavaScript transferred ${median(results.map((r) => r.scriptKb))} KB`,
  );
} finally {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
