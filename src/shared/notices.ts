// Notices a page sends the user to an authenticated page with (`?notice=<name>`), shown once as a
// toast by the frame (src/ui/Frame.tsx). Only these names are shown: the query cannot put text on
// the page. Timeouts follow spec 01 section 9: the two-factor success toast stays until dismissed,
// errors stay 10 seconds, other snackbars 3 seconds.
export const ACCOUNT_NOTICES = {
  'twofa-enabled': { kind: 'success', key: 'twofa.notice.enabled', timeoutMs: null },
  'twofa-disabled': { kind: 'success', key: 'twofa.notice.disabled', timeoutMs: 3000 },
  'twofa-error': { kind: 'error', key: 'errors.generic', timeoutMs: 10_000 },
  // A session a tenant's IdP made opened an account-wide page (decision 0035).
  'sign-in-required': { kind: 'error', key: 'myAccount.scope.notice', timeoutMs: 10_000 },
} as const satisfies Record<string, { kind: 'success' | 'error'; key: string; timeoutMs: number | null }>;

export type AccountNoticeName = keyof typeof ACCOUNT_NOTICES;

export function accountNotice(value: string | null | undefined): AccountNoticeName | null {
  return value && Object.hasOwn(ACCOUNT_NOTICES, value) ? (value as AccountNoticeName) : null;
}

/**
 * Login with a notice: where the at-login two-factor screens send the user when their pending
 * login cannot go on ("go to login with a generic error", spec 01 section 8), and where the pages
 * of a pending login send a browser that has none (`no-pending-login`). `query` is the
 * screen's own query string (with its `?`), kept so `continue` survives.
 */
export function loginWithNotice(basePath: string, query: string, notice: 'twofa-error' | 'no-pending-login'): string {
  const params = new URLSearchParams(query);
  params.set('notice', notice);
  return `${basePath}/login?${params.toString()}`;
}
