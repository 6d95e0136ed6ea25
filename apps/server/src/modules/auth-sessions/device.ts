/**
 * A short reading of a user agent for the sessions list (issue #38): "Chrome on macOS", "Safari on iPhone",
 * "Firefox on Windows". A small reader of our own, not ua-parser-js: its 2.x is AGPL-3.0-or-later, and the list needs
 * a browser family and a platform only, never versions or device models (ADR 49). The order of the checks matters:
 * Edge, Opera and Samsung Internet also say "Chrome", Chrome also says "Safari", iPadOS may say "Macintosh".
 */
const browsers: readonly [RegExp, string][] = [
  [/\bEdgA?\/|\bEdgiOS\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|\bChrome\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\/|\bMobile\/\w+ Safari\//, 'Safari'],
];

const platforms: readonly [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

export const UNKNOWN_DEVICE = 'Unknown device';

export function describeDevice(userAgent: string | null | undefined): string {
  const ua = userAgent?.trim();
  if (!ua) return UNKNOWN_DEVICE;
  const browser = browsers.find(([pattern]) => pattern.test(ua))?.[1];
  const platform = platforms.find(([pattern]) => pattern.test(ua))?.[1];
  if (browser && platform) return `${browser} on ${platform}`;
  if (browser) return browser;
  if (platform) return `Browser on ${platform}`;
  // A program rather than a browser (curl, a script): its first product name, without its version.
  const product = /^([A-Za-z][\w.-]{0,39})\//.exec(ua)?.[1];
  return product ?? UNKNOWN_DEVICE;
}
