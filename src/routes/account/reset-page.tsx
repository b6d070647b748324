// Reset password screen (spec 01 "Reset password screen"): reads email and token from the query
// (the link in the reset mail), checks the token and loads the policy for the address (counted in
// the same per-address limits as POST api/password/verify-reset-token and GET
// api/users/password-policy), then renders the form. Without JavaScript the form posts here and
// goes through the same domain function as POST api/password/reset (decision 0029).
import { Hono } from 'hono';
import { isResetTokenValid, policyForEmail, resetPassword } from '../../domain/account/password-reset';
import { AppError, fieldTexts, ValidationError } from '../../domain/errors';
import ResetForm from '../../islands/account/ResetForm';
import { DEFAULT_POLICY, type PasswordPolicy } from '../../shared/account/password-policy';
import { emailSchema, resetPasswordSchema } from '../../shared/schemas';
import { Island } from '../../ui/Island';
import { PublicCard } from '../../ui/PublicCard';
import { policyLimit, resetCheckLimit } from './http';
import { appUrls } from '../http/apps';
import { signInAfterPasswordSet } from '../sign-in/http';
import type { AppEnv, Ctx } from '../http/env';
import { answerOutcomeWithRedirect, pageForm, readForm, seeOther } from '../http/forms';
import { type PageOptions, renderPage } from '../http/page';

export const resetPages = new Hono<AppEnv>();

/** Runs a per-address limit of the API; false when it refuses. */
async function withinLimit(c: Ctx, limit: typeof policyLimit): Promise<boolean> {
  try {
    await limit(c, async () => {});
    return true;
  } catch (e) {
    if (e instanceof AppError && e.status === 429) return false;
    throw e;
  }
}

/** The policy of a live link's address, or null when the link is not (or may not be checked now). */
async function livePolicy(c: Ctx, email: string, token: string): Promise<PasswordPolicy | null> {
  if (!email || !token || !(await withinLimit(c, resetCheckLimit))) return null;
  if (!(await isResetTokenValid(c.get('deps'), email, token))) return null;
  // As the island did when the policy could not load: the default policy.
  if (!(await withinLimit(c, policyLimit))) return DEFAULT_POLICY;
  return policyForEmail(c.get('deps'), email, c.get('hostTenant'));
}

function resetPage(c: Ctx, p: { email: string; token: string; policy: PasswordPolicy | null; error?: string; status?: PageOptions['status'] }) {
  const deps = c.get('deps');
  const t = c.get('t');
  const lang = c.get('lang');
  const hostTenant = c.get('hostTenant');
  // The page is fetched with the token in its address: keep it out of Referer headers to other
  // sites (same-origin, not no-referrer: the form's own post must carry a real Origin).
  c.header('Referrer-Policy', 'same-origin');
  return renderPage(c, {
    titleKey: 'titles.reset',
    status: p.status ?? 200,
    body: (
      <PublicCard t={t} lang={lang} basePath={deps.config.BASE_PATH} year={new Date(deps.clock.now()).getUTCFullYear()} heading={t('reset.heading')}>
        <Island
          name="ResetForm"
          component={ResetForm}
          props={{
            lang,
            basePath: deps.config.BASE_PATH,
            email: p.email,
            token: p.token,
            policy: p.policy,
            hostTenantId: hostTenant?.id ?? null,
            appUrls: appUrls(deps.config),
            ...(p.error ? { initialError: p.error } : {}),
          }}
        />
      </PublicCard>
    ),
  });
}

const linkToken = (v: string | undefined) => (v && /^[A-Za-z0-9_-]{1,256}$/.test(v) ? v : '');

resetPages.get('/reset', async (c) => {
  const parsed = emailSchema.safeParse(c.req.query('email') ?? '');
  const email = parsed.success ? parsed.data : '';
  const token = linkToken(c.req.query('token'));
  return resetPage(c, { email, token, policy: await livePolicy(c, email, token) });
});

resetPages.post('/reset', ...pageForm, async (c) => {
  const deps = c.get('deps');
  const t = c.get('t');
  const hostTenant = c.get('hostTenant');
  const form = await readForm(c);
  const parsed = resetPasswordSchema.safeParse({ email: form.email, token: form.token, password: form.password ?? '', password_confirmation: form.password_confirmation ?? '' });
  const email = emailSchema.safeParse(form.email ?? '');
  const token = linkToken(form.token);
  // Not a link's address and token: the page for an unusable link.
  if (!email.success || !token) return resetPage(c, { email: '', token: '', policy: null, status: 400 });
  const again = async (error: string, status: PageOptions['status']) =>
    resetPage(c, { email: email.data, token, policy: await policyForEmail(deps, email.data, hostTenant), error, status });
  if (!parsed.success) return again(t('validation.required'), 422);
  let user;
  try {
    user = await resetPassword(deps, {
      email: parsed.data.email,
      token: parsed.data.token,
      password: parsed.data.password,
      confirmation: parsed.data.password_confirmation,
      hostTenant,
      ip: c.get('clientIp'),
    });
  } catch (e) {
    if (e instanceof ValidationError) {
      const errors = fieldTexts(t, e.errors);
      const first = errors.email?.[0] ?? errors.password?.[0] ?? errors.password_confirmation?.[0];
      return again(first ?? t('reset.failed'), 422);
    }
    if (e instanceof AppError && e.status === 429) {
      c.header('Retry-After', String(e.details.duration));
      return again(t('reset.throttled', { seconds: Number(e.details.duration) }), 429);
    }
    if (e instanceof AppError) return again(t('reset.failed'), 400);
    throw e;
  }
  const outcome = await signInAfterPasswordSet(c, user, parsed.data.password, 'reset');
  // Two-factor users (and anyone who may not enter here) sign in again with the new password.
  if (outcome.kind === 'requires-login') return seeOther(c, `${deps.config.BASE_PATH}/login?notice=password-set`);
  return answerOutcomeWithRedirect(c, outcome, { query: '', continuePath: null, email: email.data, relay: new URL(c.req.url).pathname, outlook: false });
});
