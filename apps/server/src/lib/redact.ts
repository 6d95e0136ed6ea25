/** The names of query parameters whose values never reach the log (invitation links: `/follow-invitation/?key=…`). */
const SECRET_PARAMS = new Set(['key']);

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/**
 * What the request log may keep of a URL: token links (`/…/confirm/{uidb64}/{token}/`) lose the token, and secret
 * query parameters (however their names are encoded) lose their values.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  const path = (at === -1 ? url : url.slice(0, at)).replace(/(\/confirm\/[^/?]+\/)[^/?]+/, '$1[redacted]');
  if (at === -1) return path;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return SECRET_PARAMS.has(decodedName(name)) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}
