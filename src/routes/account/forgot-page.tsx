// Forgot password screen (spec 01 "Forgot password screen"); the query goes back to login as it came.
// Without JavaScript the form posts here and gets the same outcomes as POST api/password/email
// (decision 0029).
import { Hono } from 'hono';
import { requestPasswordReset } from '../../domain/account/password-reset';
import { AppError } from '../../domain/errors';
import ForgotForm, { type ForgotFormProps } from '../../islands/account/ForgotForm';
import { emailQuerySchema, forgotSchema } from '../../shared/schemas';
import { Island } from '../../ui/Island';
import { PublicCard } from '../../ui/PublicCard';
import type { AppEnv, Ctx } from '../http/env';
import { pageForm, readForm, seeOther } from '../http/forms';
import { type PageOptions, renderPage } from '../http/page';

export const forgotPages = new Hono<AppEnv>();

type Posted = Pick<ForgotFormProps, 'initialOutcome' | 'initialWait'> & { email: string; status?: PageOptions['status'] };

function forgotPage(c: Ctx, posted?: Posted) {
  const deps = c.get('deps');
  const t = c.get('t');
  const lang = c.get('lang');
  return renderPage(c, {
    titleKey: 'titles.forgot',
    status: posted?.status ?? 200,
    body: (
      <PublicCard t={t} lang={lang} basePath={deps.config.BASE_PATH} year={new Date(deps.clock.now()).getUTCFullYear()} heading={t('forgot.heading')}>
        <Island
          name="ForgotForm"
          component={ForgotForm}
          props={{
            lang,
            basePath: deps.config.BASE_PATH,
            query: new URL(c.req.url).search,
            ...(posted
              ? { initialEmail: posted.email, initialOutcome: posted.initialOutcome ?? null, initialWait: posted.initialWait ?? 0 }
              : // The address typed on the login page comes along (issue 27 part 7), when it is one.
                emailQuerySchema.safeParse({ email: c.req.query('email') }).success
                ? { initialEmail: c.req.query('email')! }
                : {}),
          }}
        />
      </PublicCard>
    ),
  });
}

forgotPages.get('/forgot', (c) => forgotPage(c));

const OUTCOMES = {
  email_sent: { kind: 'success', key: 'forgot.emailSent' },
  user_is_not_registered: { kind: 'error', key: 'forgot.notRegistered' },
  error_sending_mail: { kind: 'error', key: 'forgot.errorSending' },
} as const;

forgotPages.post('/forgot', ...pageForm, async (c) => {
  // The page itself is for signed-out visitors only (the route table's guard for GET).
  if (c.get('user')) return seeOther(c, `${c.get('deps').config.BASE_PATH}/my-account`);
  const email = (await readForm(c)).email ?? '';
  const parsed = forgotSchema.safeParse({ email });
  // The island shows the address's problem (it checks with the same rule).
  if (!parsed.success) return forgotPage(c, { email, status: 422 });
  try {
    const outcome = await requestPasswordReset(c.get('deps'), parsed.data.email, c.get('hostTenant'), c.get('clientIp'));
    return forgotPage(c, { email, initialOutcome: OUTCOMES[outcome], status: outcome === 'error_sending_mail' ? 502 : 200 });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    if (e.status === 429) {
      c.header('Retry-After', String(e.details.duration));
      return forgotPage(c, { email, initialWait: Number(e.details.duration), status: 429 });
    }
    return forgotPage(c, { email, initialOutcome: { kind: 'error', key: 'errors.generic' }, status: 400 });
  }
});
