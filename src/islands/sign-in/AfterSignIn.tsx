// What follows a successful second step at login (one-time code, backup code, setup at login):
// the same three ways on as after the password step (spec 01 section 4 "After the user is
// stored"): the Outlook add-in's mapping, else the forced change-password dialog when
// password_compliance asks for it (then the redirection step), else the redirection step.
// Built from the login form's own pieces (ChangePasswordDialog, OutlookComplete, Redirection).
import { lazy, Suspense, useState } from 'react';
import { getT, type Lang } from '../../shared/i18n';
import { DEFAULT_POLICY } from '../../shared/account/password-policy';
import type { AppKey, RedirectionInput } from '../../shared/sign-in/redirection';
import { forcedReason, redirectionFor, type PasswordComplianceAnswer, type SignedInUser } from '../../shared/sign-in/signed-in';
import Redirection from './Redirection';

// Most sign-ins need neither: their code loads only when one does.
const ChangePasswordDialog = lazy(() => import('../account/ChangePasswordDialog'));
const OutlookComplete = lazy(() => import('./OutlookComplete'));

/** The page's sign-in context, carried from the login page's query. */
export interface SignInContext {
  lang: Lang;
  basePath: string;
  /** Tenant of this host, or null on the main domain. */
  tenant: { id: number } | null;
  /** Already checked with safeContinuePath. */
  continuePath: string | null;
  /** The page's query string, kept when the flow goes back to login. */
  query: string;
  appUrls: Record<AppKey, string>;
  /** Outlook add-in sign-in (see LoginForm). */
  source?: string | null;
  token?: string | null;
  startUrl?: string | null;
}

export interface SignedInAnswer {
  user: SignedInUser;
  password_compliance?: PasswordComplianceAnswer | null;
}

export default function AfterSignIn({ ctx, answer }: { ctx: SignInContext; answer: SignedInAnswer }) {
  const { lang, basePath } = ctx;
  const t = getT(lang);
  const outlookToken = ctx.source === 'outlook' && ctx.token ? ctx.token : null;
  const next: RedirectionInput = redirectionFor(answer.user, {
    hostTenantId: ctx.tenant?.id ?? null,
    continuePath: ctx.continuePath,
    basePath,
    appUrls: ctx.appUrls,
  });
  const compliance = answer.password_compliance;
  const [forced, setForced] = useState(() => (outlookToken ? null : forcedReason(compliance)));
  const loading = <p role="status">{t('common.loading')}</p>;

  if (outlookToken) {
    return (
      <Suspense fallback={loading}>
        <OutlookComplete lang={lang} basePath={basePath} token={outlookToken} startUrl={ctx.startUrl ?? null} email={answer.user.email} />
      </Suspense>
    );
  }
  if (!forced) return <Redirection lang={lang} input={next} />;
  return (
    <Suspense fallback={loading}>
      <ChangePasswordDialog
        lang={lang}
        basePath={basePath}
        open
        forced={forced}
        policy={compliance?.policy ?? DEFAULT_POLICY}
        email={answer.user.email}
        // Maybe Later, or Continue after the change: the redirection step comes.
        onClose={() => setForced(null)}
      />
    </Suspense>
  );
}
