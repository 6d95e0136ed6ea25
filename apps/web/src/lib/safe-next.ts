/**
 * Where to go after logging in (issue #33 item 3): the `next` value judged by what the browser will do with it. It is
 * resolved against the app's origin exactly as `location.replace` or a link would resolve it (the URL parser drops
 * tabs and newlines, reads `\` as `/`, takes `//host`, `https:host` and `javascript:` as leaving the page), and is
 * followed only when the result stays on `origin`; it then comes back as the path (pathname, search and hash), never
 * as an absolute URL. Pages that must not be returned to (log in, sign up, log out) and anything unparsable give
 * `fallback`.
 */
const NO_RETURN_PREFIXES = ['/auth/login', '/auth/signup', '/settings/logout'];

export function safeNext(raw: string | undefined, origin: string, fallback = '/'): string {
  if (raw === undefined || raw === '') return fallback;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== origin) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Compared as the router matches routes (case-insensitively); `/auth/login/../x` is already `/auth/x` here.
  const lower = url.pathname.toLowerCase();
  if (NO_RETURN_PREFIXES.some((prefix) => lower.startsWith(prefix))) return fallback;
  // The path is read again by the browser on its own (relative to the page); one starting `//` would leave it.
  if (path.startsWith('//')) return fallback;
  return path;
}
