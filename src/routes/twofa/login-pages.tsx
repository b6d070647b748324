// The second step of login (spec 01 "One-time-code page", "Backup-code page", "Two-factor setup
// at login"): /otp, /recovery and /setup-twofa-at-login. The login form sends the browser here
// with the login page's query (continue, the Outlook add-in's source, token and startUrl), and the
// pending login is the challenge cookie. Each page reads that pending login (without changing it)
// for what it shows: the factor (SMS users may resend), when the SMS may be resent, whether the
// tenant lets the user skip the forced setup. Without a pending login the browser goes back to
// login with its query (spec 01: "Other failures return to login with the query kept"), and the
// login page says why (`notice=no-pending-login`; decision 0033: the bounce was silent).
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import type { ReactNode } from 'react';
import { users } from '../../db/schema';
import { findChallenge, type ChallengeKind } from '../../domain/sign-in/pending-logins';
import { hasPasskey } from '../../domain/passkeys/credentials';
import { listMemberships } from '../../domain/tenants/memberships';
import { enforcement } from '../../domain/twofa/login';
import { SMS_RESEND_COOLDOWN_S } from '../../domain/twofa/setup';
import type { SignInContext } from '../../islands/sign-in/AfterSignIn';
import BackupCodeForm from '../../islands/twofa/BackupCodeForm';
import { NeedsJavaScript } from '../../islands/kit/Alert';
import OtpForm from '../../islands/twofa/OtpForm';
import SetupTwofaAtLogin from '../../islands/twofa/SetupTwofaAtLogin';
import { safeContinuePath } from '../../shared/sign-in/continue-path';
import { loginWithNotice } from '../../shared/notices';
import { addinTokenSchema } from '../../shared/schemas';
import { Island } from '../../ui/Island';
import { PublicCard } from '../../ui/PublicCard';
import { appPaths, appUrls } from '../http/apps';
import type { AppEnv, Ctx } from '../http/env';
import { challengeToken } from '../http/cookies';
import { renderPage } from '../http/page';

export const twofaLoginPages = new Hono<AppEnv>();

/** The sign-in context from the page's query, read the way the login page reads it. */
export function signInContext(c: Ctx): SignInContext {
  const deps = c.get('deps');
  const lang = c.get('lang');
  const hostTenant = c.get('hostTenant');
  const base = deps.config.BASE_PATH;
  return {
    lang,
    basePath: base,
    tenant: hostTenant ? { id: hostTenant.id } : null,
    continuePath: safeContinuePath(c.req.query('continue'), base, appPaths(deps.config)),
    query: new URL(c.req.url).search,
    appUrls: appUrls(deps.config),
    source: c.req.query('source') === 'outlook' ? 'outlook' : null,
    token: addinTokenSchema.safeParse({ token: c.req.query('token') }).success ? c.req.query('token')! : null,
    startUrl: safeContinuePath(c.req.query('startUrl'), base, appPaths(deps.config)),
  };
}

/** The live pending login of this kind and its user, or null. */
export async function pendingLogin(c: Ctx, kind: ChallengeKind) {
  const deps = c.get('deps');
  const hostTenant = c.get('hostTenant');
  const challenge = await findChallenge(deps, challengeToken(c), hostTenant?.id ?? null, kind);
  if (!challenge) return null;
  const user = await deps.db.select().from(users).where(eq(users.id, challenge.userId)).get();
  return user ? { challenge, user } : null;
}

export function backToLogin(c: Ctx) {
  return c.redirect(loginWithNotice(c.get('deps').config.BASE_PATH, new URL(c.req.url).search, 'no-pending-login'), 302);
}

/** A page of a pending login's step (also the passkey steps', routes/passkeys). */
export function pendingStepPage(c: Ctx, titleKey: string, heading: string, body: ReactNode) {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  return renderPage(c, {
    titleKey,
    body: (
      <PublicCard t={t} lang={lang} basePath={deps.config.BASE_PATH} year={new Date(deps.clock.now()).getUTCFullYear()} heading={heading}>
        {/* These steps are islands only (decision 0029 "Not done here"): say so without JavaScript. */}
        <NeedsJavaScript text={t('kit.needsJavaScript')} />
        {body}
      </PublicCard>
    ),
  });
}

twofaLoginPages.get('/otp', async (c) => {
  const pending = await pendingLogin(c, 'otp');
  if (!pending) return backToLogin(c);
  const { challenge, user } = pending;
  const method = user.twofaMethod === 'sms' ? 'sms' : 'app';
  const sentAt = challenge.codeSentAt;
  const resendIn = method === 'sms' && sentAt ? Math.max(0, Math.ceil((sentAt + SMS_RESEND_COOLDOWN_S * 1000 - c.get('deps').clock.now()) / 1000)) : 0;
  // A person with a passkey may use it instead of the code (decision 0039).
  const passkey = await hasPasskey(c.get('deps').db, user.id);
  return pendingStepPage(c, 'titles.enter-otp', c.get('t')('otp.heading'), <Island name="OtpForm" component={OtpForm} props={{ ...signInContext(c), method, resendIn, passkey }} />);
});

twofaLoginPages.get('/recovery', async (c) => {
  if (!(await pendingLogin(c, 'otp'))) return backToLogin(c);
  const t = c.get('t');
  return pendingStepPage(
    c,
    'titles.backup-login',
    t('backupLogin.heading'),
    <>
      <p className="mt-0">{t('backupLogin.intro')}</p>
      <Island name="BackupCodeForm" component={BackupCodeForm} props={signInContext(c)} />
    </>,
  );
});

twofaLoginPages.get('/setup-twofa-at-login', async (c) => {
  const pending = await pendingLogin(c, 'enable_twofa');
  if (!pending) return backToLogin(c);
  const { skipAllowed } = enforcement(c.get('hostTenant'), await listMemberships(c.get('deps').db, pending.user.id));
  return pendingStepPage(
    c,
    'titles.setup-twofa-at-login',
    c.get('t')('setupAtLogin.heading'),
    <Island name="SetupTwofaAtLogin" component={SetupTwofaAtLogin} props={{ ...signInContext(c), skipAllowed, email: pending.user.email }} />,
  );
});
