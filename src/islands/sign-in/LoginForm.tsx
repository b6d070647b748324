// The login form (spec 01 "Login screen", section 4 "Login", section 8 "Login" errors). Without
// JavaScript the same markup is a plain form: it posts to the login page, which answers the next
// step (the password after Next), an error, or the sign-in's redirect (src/routes/sign-in/login-page.tsx).
import { lazy, Suspense, useEffect, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { api, type ApiResult } from '../../shared/api';
import { emailProblem } from '../../shared/form-rules';
import { getT, type Lang } from '../../shared/i18n';
import { DEFAULT_POLICY, type PasswordPolicy } from '../../shared/account/password-policy';
import type { AppKey, RedirectionInput } from '../../shared/sign-in/redirection';
import { forcedReason, pendingStepUrl, redirectionFor, type PasswordComplianceAnswer, type SignedInUser } from '../../shared/sign-in/signed-in';
import type { ForcedReason } from '../account/ChangePasswordDialog';
import { useHydrated } from '../kit/hydrated';
import { buttonClass } from '../kit/Button';
import { PasswordInput } from '../kit/PasswordInput';

// Most sign-ins need neither: their code (and the password scorer behind the dialog) loads only
// when a sign-in does, so the login page ships no more than its form.
const ChangePasswordDialog = lazy(() => import('../account/ChangePasswordDialog'));
const OutlookComplete = lazy(() => import('./OutlookComplete'));
// Passkeys (decision 0039): the browser's autofill and the button, loaded once the form is live.
const PasskeySignIn = lazy(() => import('../passkeys/PasskeySignIn'));
// The choice after signing in: fetched while the sign-in is on its way (onLogin), so it is there
// when the answer comes, and the page's own script stays within its 80 KB (issue 13).
const loadRedirection = () => import('./Redirection');
const Redirection = lazy(loadRedirection);

/** Forgot password, with the page's query and the email typed so far (issue 27 part 7: not typed twice). */
export function forgotHref(basePath: string, query: string, email: string): string {
  const q = new URLSearchParams(query);
  if (email.trim()) q.set('email', email.trim());
  return `${basePath}/forgot?${q}`.replace(/\?$/, '');
}

export interface LoginFormProps {
  lang: Lang;
  basePath: string;
  portalDomain: string;
  /** Tenant of this host, or null on the main domain. */
  tenant: { id: number; name: string } | null;
  continuePath: string | null;
  /** The page's query string ("?continue=..."), carried to forgot and the next steps. */
  query: string;
  appUrls: Record<AppKey, string>;
  /** Outlook add-in sign-in: query source=outlook and the add-in's token; its token is mapped after login. */
  source?: string | null;
  token?: string | null;
  /** Where to go after the add-in sign-in: a same-portal path checked by the server, or null. */
  startUrl?: string | null;
  /** SSO active-users status of this host's tenant at startup (spec 01 "SSO status at startup"). */
  ssoStatus?: 'none' | 'some' | 'all';
  /** The address typed so far: a posted form's, or `?email=` (the Back link of the password step). */
  initialEmail?: string | null;
  /** The step to show: the posted form's next one, or `?step=sso` on the main domain. */
  initialStep?: LoginStep;
  initialRemember?: boolean;
  /** What the server found wrong with a posted form: message keys, and the throttle's seconds. */
  initialAlert?: string | null;
  /** The address an allowlist refused (the alert names it). */
  initialAlertIp?: string;
  initialEmailError?: string | null;
  initialPasswordError?: string | null;
  initialWait?: number;
}

export type LoginStep = 'email' | 'password' | 'sso';
type SignInAnswer = { user?: SignedInUser; initial_subdomain?: string; duration?: number; password_compliance?: PasswordComplianceAnswer | null };
type Step = LoginStep;
export default function LoginForm(props: LoginFormProps) {
  const { lang, basePath, tenant } = props;
  const t = getT(lang);
  const outlookToken = props.source === 'outlook' && props.token ? props.token : null;
  const hydrated = useHydrated();
  const [step, setStep] = useState<Step>(props.initialStep ?? (tenant ? 'email' : 'password'));
  const [email, setEmail] = useState(props.initialEmail ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(props.initialRemember ?? false);
  const [emailError, setEmailError] = useState<string | null>(props.initialEmailError ? t(props.initialEmailError) : null);
  const [passwordError, setPasswordError] = useState<string | null>(props.initialPasswordError ? t(props.initialPasswordError) : null);
  const [alert, setAlert] = useState<string | null>(props.initialAlert ? t(props.initialAlert, { ip: props.initialAlertIp ?? '' }) : null);
  const [wait, setWait] = useState(props.initialWait ?? 0);
  const [busy, setBusy] = useState(false);
  const [redirection, setRedirection] = useState<RedirectionInput | null>(null);
  const [outlookDone, setOutlookDone] = useState(false);
  // The change-password dialog forced after login, with the redirection that follows it.
  const [forced, setForced] = useState<{ reason: ForcedReason; policy: PasswordPolicy; then: RedirectionInput } | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);

  // Throttle countdown: one tick a second, then the buttons come back.
  useEffect(() => {
    if (wait <= 0) return;
    const id = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(id);
  }, [wait]);
  useEffect(() => {
    if (step === 'password' && tenant) passwordRef.current?.focus();
    if (step === 'email' || step === 'sso') emailRef.current?.focus();
  }, [step]);

  // Every member signs in with SSO: check availability and go straight to the IdP. With some SSO
  // members the form stays email-first (the Next step asks per email).
  useEffect(() => {
    if (props.ssoStatus !== 'all' || outlookToken) return;
    void api<{ is_idp_configured?: boolean; initial_subdomain?: string | null }>(basePath, 'GET', 'saml2/check').then((r) => {
      if (r.ok && r.data.is_idp_configured && r.data.initial_subdomain) goToSso(r.data.initial_subdomain);
    });
  }, []);

  const checkEmail = (): boolean => {
    const problem = emailProblem(email);
    setEmailError(problem ? t(problem) : null);
    return problem === null;
  };

  const showError = (status: number, data: { message?: string; duration?: number; ipAddress?: string }) => {
    if (status === 429 && typeof data.duration === 'number') {
      setWait(data.duration);
      setAlert(null);
      return;
    }
    // A refusal says what its code says (the error catalogue, loaded when a refusal comes: the
    // sign-in page's own script stays within its budget); anything else is "something went wrong".
    if (data.message === 'restricted-ip' && data.ipAddress) return setAlert(t('errors.restricted-ip-address', { ip: data.ipAddress }));
    void import('../../shared/error-codes').then(({ errorText }) => setAlert(t(errorText(data.message))));
  };

  const goToSso = (initialSubdomain: string) => {
    const origin = `${window.location.protocol}//${initialSubdomain}.${props.portalDomain}${window.location.port ? ':' + window.location.port : ''}`;
    const relay = window.location.pathname + window.location.search;
    window.location.assign(`${origin}${basePath}/api/saml2/all/login?RelayState=${encodeURIComponent(relay)}`);
  };

  // On a tenant subdomain, Next asks whether this email signs in with SSO (spec 01 "Login screen").
  const onNext = async (e: FormEvent) => {
    e.preventDefault();
    if (!checkEmail() || busy) return;
    setAlert(null);
    setBusy(true);
    const r = await api<{ is_idp_configured?: boolean; initial_subdomain?: string }>(
      basePath,
      'GET',
      `saml2/check-using-email-with-subdomain?email=${encodeURIComponent(email)}`,
    );
    setBusy(false);
    if (r.ok && r.data.is_idp_configured && r.data.initial_subdomain) return goToSso(r.data.initial_subdomain);
    if (!r.ok && r.status === 429) return showError(r.status, r.data);
    setStep('password');
  };

  const onSso = async (e: FormEvent) => {
    e.preventDefault();
    if (!checkEmail() || busy) return;
    setBusy(true);
    const r = await api<{ is_idp_configured?: boolean; initial_subdomain?: string }>(
      basePath,
      'GET',
      `saml2/check-using-email?email=${encodeURIComponent(email)}`,
    );
    setBusy(false);
    if (r.ok && r.data.is_idp_configured && r.data.initial_subdomain) return goToSso(r.data.initial_subdomain);
    if (r.ok) setAlert(t('errors.sso-not-configured'));
    else showError(r.status, r.data);
  };

  const onLogin = async (e: FormEvent) => {
    e.preventDefault();
    const emailOk = checkEmail();
    setPasswordError(password ? null : t('validation.required'));
    if (!emailOk || !password || busy || wait > 0) return;
    setBusy(true);
    setAlert(null);
    void loadRedirection();
    const r = await api<SignInAnswer>(basePath, 'POST', 'v2/login', {
      email,
      password,
      remember,
      ...(props.continuePath ? { continue: props.continuePath } : {}),
    });
    setBusy(false);
    answered(r, true);
  };

  /** A way in's answer (the password's, or a passkey's: no password typed, nothing to force). */
  const answered = (r: ApiResult<SignInAnswer>, passwordTyped: boolean) => {
    if (!r.ok) return showError(r.status, r.data);
    const query = props.query;
    if (r.data.message === 'redirect-to-sso' && r.data.initial_subdomain) return goToSso(r.data.initial_subdomain);
    const step = pendingStepUrl(r.data.message, basePath, query);
    if (step) return window.location.assign(step);
    if (r.data.message === 'enter-additional-challenge') {
      // The page's query (continue, the Outlook add-in's parameters) goes along with the email.
      const q = new URLSearchParams(query);
      q.set('email', email.trim());
      return window.location.assign(`${basePath}/additional-challenge?${q}`);
    }
    // The user is stored (spec 01 section 4): the add-in case maps its token instead of redirecting.
    if (outlookToken) {
      // A passkey says who signed in; no address was typed.
      if (r.data.user) setEmail(r.data.user.email);
      return setOutlookDone(true);
    }
    const next = redirectionFor(r.data.user!, {
      hostTenantId: tenant?.id ?? null,
      continuePath: props.continuePath,
      basePath,
      appUrls: props.appUrls,
    });
    const compliance = r.data.password_compliance;
    const reason = passwordTyped ? forcedReason(compliance) : null;
    if (reason) setForced({ reason, policy: compliance?.policy ?? DEFAULT_POLICY, then: next });
    else setRedirection(next);
  };

  if (outlookDone && outlookToken) {
    return (
      <Suspense fallback={<p role="status">{t('common.loading')}</p>}>
        <OutlookComplete lang={lang} basePath={basePath} token={outlookToken} startUrl={props.startUrl ?? null} email={email.trim().toLowerCase()} />
      </Suspense>
    );
  }
  if (redirection)
    return (
      <Suspense fallback={<p role="status">{t('common.loading')}</p>}>
        <Redirection lang={lang} input={redirection} />
      </Suspense>
    );

  // The countdown runs in the browser only: without JavaScript the buttons stay usable (the
  // server still refuses, with the time left) rather than disabled for good.
  const disabled = busy || (hydrated && wait > 0);
  const field = 'mt-1 block w-full rounded border border-slate-500 px-3 py-2 text-base';
  const primary = buttonClass('primary', { block: true });
  // Back and "Log in with SSO" are links to the page in that step (the email kept), which the
  // island turns into a step change in place.
  const stepHref = (to: Step) => {
    const q = new URLSearchParams(props.query);
    q.delete('step');
    q.delete('email');
    if (to === 'sso') q.set('step', 'sso');
    if (email.trim()) q.set('email', email.trim());
    const s = q.toString();
    return `${basePath}/login${s ? `?${s}` : ''}`;
  };
  const goTo = (to: Step) => (e: MouseEvent) => {
    e.preventDefault();
    if (busy) return;
    setStep(to);
    setAlert(null);
  };
  const back = (to: Step) => (
    <a href={stepHref(to)} onClick={goTo(to)} className="mb-2 inline-flex items-center gap-1 self-start text-blue-800 underline">
      <span aria-hidden="true">←</span> {t('login.back')}
    </a>
  );

  return (
    <div>
      <div aria-live="polite">
        {wait > 0 && (
          <p id="login-throttle" role="alert" className="rounded border border-amber-700 bg-amber-50 p-3 text-amber-900" data-testid="login-throttle">
            {t('login.throttled', { seconds: wait })}
          </p>
        )}
        {alert && (
          <p role="alert" className="rounded border border-red-700 bg-red-50 p-3 text-red-900" data-testid="login-error">
            {alert}
          </p>
        )}
      </div>
      <form
        method="post"
        action={`${basePath}/login${props.query}`}
        noValidate
        onSubmit={step === 'email' ? onNext : step === 'sso' ? onSso : onLogin}
        className="flex flex-col gap-4"
      >
        <input type="hidden" name="step" value={step} />
        {step !== 'password' || !tenant ? null : back('email')}
        {step === 'sso' && back('password')}
        <div>
          <label htmlFor="login-email" className="font-medium">
            {t('login.email')}
          </label>
          <input
            ref={emailRef}
            id="login-email"
            name="email"
            type="email"
            autoComplete="username webauthn"
            value={email}
            readOnly={step === 'password' && Boolean(tenant)}
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? 'login-email-error' : undefined}
            onChange={(e) => setEmail(e.target.value)}
            className={`${field} read-only:bg-slate-100`}
          />
          {emailError && (
            <p id="login-email-error" className="m-0 mt-1 text-sm text-red-800">
              {emailError}
            </p>
          )}
        </div>
        {step === 'password' && (
          <>
            <PasswordInput
              t={t}
              id="login-password"
              name="password"
              label={t('login.password')}
              value={password}
              onChange={setPassword}
              autoComplete="current-password"
              error={passwordError}
              inputRef={passwordRef}
            />
            {/* Each on one line, side by side where they fit, else one under the other: a short
                phrase such as 「ログインしたままにする」 is never cut in two (issue 14). */}
            <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
              <label className="inline-flex items-center gap-2 whitespace-nowrap">
                <input type="checkbox" name="remember" value="1" checked={remember} onChange={(e) => setRemember(e.target.checked)} className="h-4 w-4" />
                {t('login.remember')}
              </label>
              <a href={forgotHref(basePath, props.query, email)} className="whitespace-nowrap text-blue-800 underline" data-testid="forgot-link">
                {t('login.forgot')}
              </a>
            </div>
          </>
        )}
        {/* Throttled: the warning above says for how long (decision 0047). */}
        <button type="submit" disabled={disabled} aria-describedby={!busy && hydrated && wait > 0 ? 'login-throttle' : undefined} className={primary}>
          {t(step === 'email' ? 'login.next' : step === 'sso' ? 'login.ssoSubmit' : 'login.submit')}
        </button>
      </form>
      {hydrated && step !== 'sso' && (
        <div className="mt-4">
          <Suspense fallback={null}>
            <PasskeySignIn t={t} basePath={basePath} remember={remember} disabled={disabled} onAnswer={(r) => answered(r as ApiResult<SignInAnswer>, false)} onMessage={setAlert} />
          </Suspense>
        </div>
      )}
      {!tenant && step === 'password' && (
        <>
          <div className="my-4 flex items-center gap-3 text-slate-600" aria-hidden="true">
            <span className="h-px flex-1 bg-slate-300" />
            {t('login.or')}
            <span className="h-px flex-1 bg-slate-300" />
          </div>
          <a
            href={stepHref('sso')}
            onClick={goTo('sso')}
            className="block w-full rounded border border-blue-800 bg-white px-4 py-2 text-center text-base text-blue-800 no-underline hover:bg-blue-50"
          >
            {t('login.ssoButton')}
          </a>
        </>
      )}
      {forced && (
        <Suspense fallback={null}>
          <ChangePasswordDialog
            lang={lang}
            basePath={basePath}
            open
            forced={forced.reason}
            policy={forced.policy}
            email={email.trim()}
            // Maybe Later, or Continue after the change: the flags go, the redirection step comes.
            onClose={() => {
              setRedirection(forced.then);
              setForced(null);
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
