/**
 * The path a request names, normalised the way a lenient router or proxy might read it: the
 * absolute-form origin dropped, percent-encoding decoded, case folded, repeated slashes collapsed
 * and dot segments resolved. Used only to decide that an unmatched request is an API request,
 * so that no spelling of `/api/...` is ever answered with the SPA page.
 */
export function normalisedPath(rawUrl: string): string {
  let path = rawUrl;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(path);
  if (absolute) path = path.slice(absolute[0].length) || '/';
  path = path.split(/[?#]/, 1)[0] ?? '';
  for (let i = 0; i < 3; i += 1) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      decoded = path.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) =>
        String.fromCharCode(parseInt(hex, 16)),
      );
    }
    if (decoded === path) break;
    path = decoded;
  }
  path = path.replaceAll('\\', '/').replace(/\/{2,}/g, '/');
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`.toLowerCase();
}

/** Whether a request, however spelled, addresses the API. */
export function isApiRequest(rawUrl: string): boolean {
  const path = normalisedPath(rawUrl);
  return path === '/api' || path.startsWith('/api/');
}
