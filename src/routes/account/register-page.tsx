// Registration from an invitation link (spec 01 "Registration and verification pages"):
// /register/:email?expires&id&signature (each also as `amp;<name>`, from mail clients that escape
// the link's "&": routes/account/signed-link.ts).
// The page loads the password policy for the address (in the per-address limit of GET
// api/users/password-policy); without JavaScript the form posts here and goes through the same
// domain function as POST api/users/register/{id} (decision 0029).
import { Hono } from 'hono';
import { policyForEmail } from '../../domain/account/password-reset';
import { register, registrationLinkProblem } from '../../domain/account/registration';
import { AppError, fieldTexts, ValidationError } from '../../domain/errors';
import RegisterForm, { FINAL_REFUSALS, type RegisterFormProps } from '../../islands/account/RegisterForm';
import { errorText } from '../../shared/error-codes';
import { DEFAULT_POLICY } from '../../shared/account/password-policy';
import { emailSchema, registerSchema } from '../../shared/schemas';
import { Island } from '../../ui/Island';
import { PublicCard } from '../../ui/PublicCard';
import { policyLimit, registerLimit, requestOrigin } from './http';
import { appUrls } from '../http/apps';
import { signInAfterPasswordSet } from '../sign-in/http';
import type { AppEnv, Ctx } from '../http/env';
import { answerOutcomeWithRedirect, pageForm, readForm, seeOther } from '../http/forms';
import { pageLink, signedLinkProps } from './signed-link';
import { type PageOptions, renderPage } from '../http/page';

export const registerPages = new Hono<AppEnv>();

/** The address's policy; the default one when it cannot be told (as the island did on a failed load). */
async function policyFor(c: Ctx, email: string) {
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) return DEFAULT_POLICY;
  try {
    await policyLimit(c, async () => {});
  } catch (e) {
    if (e instanceof AppError && e.status === 429) return DEFAULT_POLICY;
    throw e;
  }
  return policyForEmail(c.get('deps'), parsed.data, c.get('hostTenant'));
}

/**
 * The link's refusal, checked when the page loads (decision 0033: invalid, expired, gone or
 * already registered is said at once, not after a password was typed), with its status.
 */
async function linkRefusal(c: Ctx): Promise<{ key: string; status: 403 | 409 | 410 } | null> {
  const link = pageLink(c);
  if (!link) return { key: errorText('Invalid signature.'), status: 403 };
  const problem = await registrationLinkProblem(c.get('deps'), { origin: requestOrigin(c), ...link });
  if (!problem) return null;
  return { key: errorText(problem), status: problem === 'Invalid signature.' ? 403 : problem === 'already-registered' ? 409 : 410 };
}

async function registerPage(c: Ctx, posted?: Pick<RegisterFormProps, 'initialMessage' | 'initialPasswordError'> & { status?: PageOptions['status'] }) {
  const deps = c.get('deps');
  const t = c.get('t');
  const lang = c.get('lang');
  const hostTenant = c.get('hostTenant');
  const link = signedLinkProps(c);
  // An expired date says so by itself (the island shows it); anything else is checked here.
  const refused = posted ? null : link.expired ? { key: errorText('link-expired'), status: 410 as const } : await linkRefusal(c);
  if (refused) posted = { initialMessage: { key: refused.key, final: true }, status: refused.status };
  const policy = link.expired || refused ? DEFAULT_POLICY : await policyFor(c, link.email);
  return renderPage(c, {
    titleKey: 'titles.register',
    status: posted?.status ?? 200,
    body: (
      <PublicCard t={t} lang={lang} basePath={deps.config.BASE_PATH} year={new Date(deps.clock.now()).getUTCFullYear()} heading={t('register.heading')}>
        <Island
          name="RegisterForm"
          component={RegisterForm}
          props={{
            lang,
            basePath: deps.config.BASE_PATH,
            ...link,
            policy,
            hostTenantId: hostTenant?.id ?? null,
            appUrls: appUrls(deps.config),
            ...(posted?.initialMessage ? { initialMessage: posted.initialMessage } : {}),
            ...(posted?.initialPasswordError ? { initialPasswordError: posted.initialPasswordError } : {}),
          }}
        />
      </PublicCard>
    ),
  });
}

registerPages.get('/register/:email', (c) => registerPage(c));

registerPages.post('/register/:email', ...pageForm, async (c) => {
  const deps = c.get('deps');
  const t = c.get('t');
  const hostTenant = c.get('hostTenant');
  if (c.get('user')) return seeOther(c, `${deps.config.BASE_PATH}/my-account`);
  const fail = (key: string, final: boolean, status: PageOptions['status']) => registerPage(c, { initialMessage: { key, final }, status });
  try {
    // The same per-address limit as POST api/users/register.
    await registerLimit(c, async () => {});
  } catch (e) {
    if (e instanceof AppError && e.status === 429) return fail('register.failed', false, 429);
    throw e;
  }
  const form = await readForm(c);
  const input = registerSchema.safeParse({ password: form.password ?? '', password_confirmation: form.password_confirmation ?? '' });
  if (!input.success) return registerPage(c, { initialPasswordError: t('validation.required'), status: 422 });
  // The address the link was made for is the page's path (the API's query carries it as `email`).
  const link = pageLink(c);
  if (!link) return fail(errorText('Invalid signature.'), true, 403);
  let user;
  try {
    user = await register(deps, {
      origin: requestOrigin(c),
      ...link,
      password: input.data.password,
      confirmation: input.data.password_confirmation,
      hostTenant,
      ip: c.get('clientIp'),
    });
  } catch (e) {
    if (e instanceof ValidationError) {
      const errors = fieldTexts(t, e.errors);
      return registerPage(c, { initialPasswordError: errors.password?.[0] ?? errors.password_confirmation?.[0] ?? t('register.failed'), status: 422 });
    }
    if (e instanceof AppError) {
      const status = e.status === 403 || e.status === 409 || e.status === 410 ? e.status : 400;
      return FINAL_REFUSALS.has(e.word) ? fail(errorText(e.word), true, status) : fail('register.failed', false, status);
    }
    throw e;
  }
  const outcome = await signInAfterPasswordSet(c, user, input.data.password, 'registration');
  if (outcome.kind === 'requires-login') return seeOther(c, `${deps.config.BASE_PATH}/login?notice=password-set`);
  return answerOutcomeWithRedirect(c, outcome, { query: '', continuePath: null, email: user.email, relay: new URL(c.req.url).pathname, outlook: false });
});
