// `continue` and RelayState accept only same-portal relative paths (no open redirect).
const ALLOWED_PREFIXES = (basePath: string, appPaths: string[]) => [basePath + '/', ...appPaths];

/**
 * Returns the path when it is a plain same-origin absolute path ("/accounts/...", "/meishi/...")
 * under a known prefix; otherwise null. Rejects "//host", "/\\host", schemes, control characters
 * and encoded slashes that browsers would treat as another origin.
 */
export function safeContinuePath(
  value: string | null | undefined,
  basePath: string,
  appPaths: string[],
): string | null {
  if (!value || value.length > 2048) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return null;
  if (/%2f|%5c/i.test(value.split('?')[0] ?? '')) return null;
  let url: URL;
  try {
    url = new URL(value, 'http://portal.invalid');
  } catch {
    return null;
  }
  if (url.origin !== 'http://portal.invalid') return null;
  const path = url.pathname + url.search;
  const prefixes = ALLOWED_PREFIXES(basePath, appPaths);
  if (url.pathname === basePath || prefixes.some((p) => url.pathname.startsWith(p) || url.pathname + '/' === p)) {
    return path + url.hash;
  }
  return null;
}
