// Registration from an invitation (spec 01 "Registration and verification pages", sections 5 and
// 8 "Register"): password and confirmation with the checklist for the policy of this address
// (loaded by the page), Join once valid, POST users/register/{id}?expires&signature; signed in
// afterwards, then the redirection step. Without JavaScript the form posts to the page itself,
// which registers and redirects, or shows the form again with the refusal
// (src/routes/account/register-page.tsx).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang } from '../../shared/i18n';
import type { PasswordPolicy } from '../../shared/account/password-policy';
import type { AppKey, RedirectionInput } from '../../shared/sign-in/redirection';
import { pendingStepUrl, redirectionFor, type SignedInUser } from '../../shared/sign-in/signed-in';
import { useHydrated } from '../kit/hydrated';
import { NewPasswordFields, useNewPassword } from './PasswordFields';
import Redirection from '../sign-in/Redirection';
import { buttonClass } from '../kit/Button';
import { errorText } from '../../shared/error-codes';
import { WhyHint, whyDisabled } from '../kit/why-hint';

export interface RegisterFormProps {
  lang: Lang;
  basePath: string;
  email: string;
  id: string;
  /** Seconds since the epoch (the link's `expires`). */
  expires: string;
  signature: string;
  /** The server found the link expired already when it rendered the page. */
  expired: boolean;
  /** The password policy for this address. */
  policy: PasswordPolicy;
  hostTenantId: number | null;
  appUrls: Record<AppKey, string>;
  /** A posted form's refusal: a message key (final or not), or the server's words about the password. */
  initialMessage?: { key: string; final: boolean } | null;
  initialPasswordError?: string | null;
}

/** The refusals of POST users/register that end the page (each says so in the error catalogue's words). */
export const FINAL_REFUSALS: ReadonlySet<string> = new Set(['already-registered', 'Invalid signature.', 'account-deleted', 'link-expired']);

export function linkExpired(expires: string, now: number): boolean {
  const e = Number(expires);
  return !Number.isFinite(e) || e * 1000 <= now;
}

export default function RegisterForm(p: RegisterFormProps) {
  const t = getT(p.lang);
  const hydrated = useHydrated();
  const policy = p.policy;
  const next = useNewPassword(policy, p.email);
  const [busy, setBusy] = useState(false);
  const first = p.expired ? { key: 'register.linkExpired', final: true } : (p.initialMessage ?? null);
  const [message, setMessage] = useState<string | null>(first ? t(first.key) : null);
  const [passwordError, setPasswordError] = useState<string | null>(p.initialPasswordError ?? null);
  const [final, setFinal] = useState(first?.final ?? false);
  const [redirection, setRedirection] = useState<RedirectionInput | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (!final && !message) passwordRef.current?.focus();
  }, []);
  useEffect(() => {
    if (message) messageRef.current?.focus();
  }, [message]);

  const fail = (key: string, isFinal: boolean) => {
    setMessage(t(key));
    setFinal(isFinal);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!next.valid || busy || final) return;
    // The link may have expired while the page was open: say so without asking the server.
    if (linkExpired(p.expires, Date.now())) return fail('register.linkExpired', true);
    setBusy(true);
    setMessage(null);
    const q = new URLSearchParams({ expires: p.expires, signature: p.signature, email: p.email });
    const r = await api<{ user?: SignedInUser | null; requires_login?: boolean; errors?: Record<string, string[]> }>(
      p.basePath,
      'POST',
      `users/register/${encodeURIComponent(p.id)}?${q}`,
      { password: next.password, password_confirmation: next.confirmation },
    );
    setBusy(false);
    const step = r.ok ? pendingStepUrl(r.data.message, p.basePath) : null;
    if (step) return window.location.assign(step);
    if (r.ok && r.data.requires_login) return window.location.assign(`${p.basePath}/login?notice=password-set`);
    if (r.ok && r.data.user) {
      return setRedirection(redirectionFor(r.data.user, { hostTenantId: p.hostTenantId, continuePath: null, basePath: p.basePath, appUrls: p.appUrls }));
    }
    // A password the server refuses: its words go under the field, nothing more.
    if (r.status === 422 && r.data.errors) {
      setPasswordError(r.data.errors.password?.[0] ?? r.data.errors.password_confirmation?.[0] ?? null);
      return passwordRef.current?.focus();
    }
    if (r.data.message && FINAL_REFUSALS.has(r.data.message)) return fail(errorText(r.data.message), true);
    fail('register.failed', false);
  };

  if (redirection) {
    return (
      <>
        <p role="status" className="mt-0 rounded border border-green-700 bg-green-50 p-3 text-green-900" data-testid="register-success">
          {t('register.success')}
        </p>
        <Redirection lang={p.lang} input={redirection} />
      </>
    );
  }

  const primary = buttonClass('primary', { block: true });
  return (
    <div>
      <div aria-live="polite">
        {message && (
          <p ref={messageRef} tabIndex={-1} role="alert" className="mt-0 rounded border border-red-700 bg-red-50 p-3 text-red-900" data-testid="register-error">
            {message}
          </p>
        )}
      </div>
      {final ? (
        <a href={`${p.basePath}/login`} className="mt-4 block text-center text-blue-800 underline">
          {t('common.backToLogin')}
        </a>
      ) : (
        <form
          method="post"
          action={`${p.basePath}/register/${encodeURIComponent(p.email)}?${new URLSearchParams({ expires: p.expires, id: p.id, signature: p.signature })}`}
          noValidate
          onSubmit={(e) => void submit(e)}
          className="flex flex-col gap-4"
        >
          <p className="m-0 text-slate-700">{t('register.intro', { email: p.email })}</p>
          {/* For password managers: the account the new password belongs to. */}
          <input type="email" name="username" autoComplete="username" value={p.email} readOnly hidden />
          <NewPasswordFields
            t={t}
            idPrefix="register"
            policy={policy}
            state={next}
            passwordLabel={t('register.password')}
            confirmationLabel={t('register.confirmation')}
            passwordError={passwordError}
            names={{ password: 'password', confirmation: 'password_confirmation' }}
            onEdit={() => passwordError && setPasswordError(null)}
            inputRef={passwordRef}
          />
          {/* Disabled until valid only once the island runs: without JavaScript the server checks. */}
          <button type="submit" {...whyDisabled('register-why', hydrated && !next.valid && t('passwordForm.submitHint'), busy)} className={primary}>
            {t('register.submit')}
          </button>
          <WhyHint id="register-why" reason={hydrated && !next.valid && t('passwordForm.submitHint')} busy={busy} className="-mt-2" />
        </form>
      )}
    </div>
  );
}
