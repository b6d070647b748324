// Forms the sign-in pages accept without JavaScript (decision 0029): login, forgot, reset and
// register post `application/x-www-form-urlencoded` to their own page, which calls the same
// domain functions as the JSON API and answers with a redirect or the page again.
//
// CSRF: the rule of DESIGN.md section 4 for every state change, minus the header only scripts can
// send: the Origin must be this request's own scheme and host (tenants share one registrable
// domain, so SameSite alone cannot tell them apart), else 403. Browsers send Origin with every
// form POST unless the page's referrer policy is `no-referrer` (then it is "null"): the pages that
// carry a token in their address ask for `same-origin` instead, which keeps the token from other
// sites just as well. (Today the security headers middleware answers every response with
// `strict-origin-when-cross-origin`, which does too.)
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { SignInOutcome } from '../../domain/sign-in/complete-sign-in';
import { activeOnly, listMemberships } from '../../domain/tenants/memberships';
import { canonicalLabel } from '../../domain/tenants/hosts';
import type { RedirectionInput } from '../../shared/sign-in/redirection';
import { decideRedirection, type Decision } from '../../shared/sign-in/redirection';
import { pendingStepUrl } from '../../shared/sign-in/signed-in';
import { appUrls } from './apps';
import { setSignInCookies, ssoLoginUrl } from '../sign-in/http';
import type { AppEnv, Ctx } from './env';
import { setChallengeCookie } from './cookies';
import { renderErrorPage } from './page';

/** A sign-in form is a few fields; anything larger is refused unread. */
export const FORM_BODY_LIMIT = 16 * 1024;

const limit = bodyLimit({ maxSize: FORM_BODY_LIMIT, onError: (c) => renderErrorPage(c as Ctx, 413, 'errors.form-refused') });

/** Same-origin form posts only (see above), urlencoded only. */
const sameOriginForm: MiddlewareHandler<AppEnv> = async (c, next) => {
  const expected = `${c.get('https') ? 'https' : 'http'}://${new URL(c.req.url).host}`;
  if (c.req.header('origin') !== expected) return renderErrorPage(c, 403, 'errors.form-refused');
  if (!/^application\/x-www-form-urlencoded\b/i.test(c.req.header('content-type') ?? '')) return renderErrorPage(c, 415, 'errors.form-refused');
  return next();
};

/** The checks every page form post goes through first, in this order. */
export const pageForm = [sameOriginForm, limit] as const;

/** The posted fields: one string per name (the last one wins), bounded by the body limit. */
export async function readForm(c: Ctx): Promise<Record<string, string>> {
  return Object.fromEntries(new URLSearchParams(await c.req.text()));
}

/** The redirection step's input for the signed-in user on this host (the login page's chooser). */
export async function redirectionInput(c: Ctx, continuePath: string | null): Promise<RedirectionInput> {
  const deps = c.get('deps');
  const user = c.get('user');
  const hostTenant = c.get('hostTenant');
  if (!user) throw new Error('redirectionInput needs a signed-in user');
  const memberships = activeOnly(await listMemberships(deps.db, user.id));
  return {
    tenants: memberships.map((m) => ({ id: m.tenant.id, name: m.tenant.name, hostLabel: canonicalLabel(m.tenant), apps: m.apps, isAdmin: m.member.isAdmin })),
    hostTenantId: hostTenant?.id ?? null,
    isTenantManager: user.isTenantManager,
    continuePath,
    basePath: deps.config.BASE_PATH,
    appUrls: appUrls(deps.config),
  };
}

/** 303: the browser follows with a GET (the posted form is not sent again). */
export function seeOther(c: Ctx, url: string): Response {
  return c.redirect(url, 303);
}

/**
 * Where a way in's outcome sends a browser without JavaScript, as the islands do it: the IdP, the
 * pending step's page (its cookie set), or, signed in (the session cookie set as the API sets it),
 * the destination when the redirection step has only one, else the login page, which shows the
 * redirection step for the signed-in user (organisation or app chooser, the Outlook add-in's
 * mapping). The forced change-password dialog needs JavaScript; without it the person goes on as
 * after "Maybe Later" (decision 0029).
 */
export async function answerOutcomeWithRedirect(
  c: Ctx,
  outcome: SignInOutcome,
  ctx: { query: string; continuePath: string | null; email: string; relay: string; outlook: boolean },
): Promise<Response> {
  const deps = c.get('deps');
  const hostTenant = c.get('hostTenant');
  const base = deps.config.BASE_PATH;
  if (outcome.kind === 'redirect-to-sso') return seeOther(c, ssoLoginUrl(c, outcome.initialSubdomain, ctx.relay));
  if (outcome.kind === 'challenge') {
    setChallengeCookie(c, outcome.challengeToken);
    const step = pendingStepUrl(outcome.message, base, ctx.query);
    if (step) return seeOther(c, step);
    // The page's query (continue, the Outlook add-in's parameters) goes along with the email.
    const q = new URLSearchParams(ctx.query);
    q.set('email', ctx.email.trim());
    return seeOther(c, `${base}/additional-challenge?${q}`);
  }
  setSignInCookies(c, outcome);
  const login = `${base}/login${ctx.query}`;
  if (ctx.outlook) return seeOther(c, login);
  const memberships = activeOnly(outcome.memberships);
  const decision = decideRedirection({
    tenants: memberships.map((m) => ({ id: m.tenant.id, name: m.tenant.name, hostLabel: canonicalLabel(m.tenant), apps: m.apps, isAdmin: m.member.isAdmin })),
    hostTenantId: hostTenant?.id ?? null,
    isTenantManager: outcome.user.isTenantManager,
    continuePath: ctx.continuePath,
    basePath: base,
    appUrls: appUrls(deps.config),
  });
  return seeOther(c, destination(decision) ?? login);
}

/** The one place a redirection decision leads without asking, or null when it needs a choice or a hand-off. */
export function destination(decision: Decision): string | null {
  return decision.kind === 'go' ? decision.url : null;
}
