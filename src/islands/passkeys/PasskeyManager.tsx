// The person's passkeys (/passkeys, decision 0039): the list (name, model, added, last used,
// synced or bound to one device), adding one (the browser's own dialog, then a name, prefilled
// from the model or the browser), renaming, and removing (with the password again). Adding asks
// who is at the keyboard first when the last confirmation is older than 15 minutes: the password,
// or one of the passkeys (the only way for an account without a password).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api } from '../../shared/api';
import { errorText } from '../../shared/error-codes';
import { formatDate } from '../../shared/dates';
import { getT, type Lang, type T } from '../../shared/i18n';
import { STORAGE_TEXT, type PasskeyView } from '../../shared/passkeys/types';
import LiveAlert, { type Message } from '../kit/Alert';
import Button from '../kit/Button';
import Dialog from '../kit/Dialog';
import Field from '../kit/Field';
import { PasswordInput } from '../kit/PasswordInput';
import RelativeTime, { fullTimestamp } from '../kit/RelativeTime';
import { askPasskey, browserSupportsWebAuthn, makePasskey, type Ceremony } from './ceremony';

export interface PasskeyManagerProps {
  lang: Lang;
  basePath: string;
  passkeys: PasskeyView[];
  /** Accounts without a password confirm with a passkey. */
  hasPassword: boolean;
  /** Whether the password (or a passkey) was confirmed in this session within 15 minutes. */
  verified: boolean;
  /** The server's clock when it rendered the page. */
  now: number;
}

type Open =
  | { kind: 'verify'; then: 'add' }
  | { kind: 'name'; passkey: PasskeyView; isNew: boolean }
  | { kind: 'remove'; passkey: PasskeyView }
  | null;

/** The sentence for a ceremony that did not end in an answer. */
function ceremonyText(t: T, c: Exclude<Ceremony<unknown>, { kind: 'answer' }>): string {
  if (c.kind === 'refused') return t(errorText(c.r.data.message));
  if (c.reason === 'already-registered') return t('passkeys.errors.alreadyOnDevice');
  if (c.reason === 'unsupported') return t('passkeys.signIn.unsupported');
  return t('passkeys.manage.cancelled');
}

export default function PasskeyManager(p: PasskeyManagerProps) {
  const t = getT(p.lang);
  const [list, setList] = useState(p.passkeys);
  const [verified, setVerified] = useState(p.verified);
  const [open, setOpen] = useState<Open>(null);
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);
  const [supported, setSupported] = useState(true);
  const addRef = useRef<HTMLButtonElement>(null);

  useEffect(() => setSupported(browserSupportsWebAuthn()), []);

  /** `justVerified`: the confirmation that just succeeded (this render's `verified` is older). */
  const add = async (justVerified = false) => {
    setMessage(null);
    if (!verified && !justVerified) return setOpen({ kind: 'verify', then: 'add' });
    setBusy(true);
    const c = await makePasskey(p.basePath, 'passkeys/options');
    if (c.kind !== 'answer') {
      setBusy(false);
      // The confirmation ran out meanwhile: ask again.
      if (c.kind === 'refused' && c.r.data.message === 'password-verification-required') {
        setVerified(false);
        return setOpen({ kind: 'verify', then: 'add' });
      }
      return setMessage({ kind: 'error', text: ceremonyText(t, c) });
    }
    const r = await api<{ passkey: PasskeyView }>(p.basePath, 'POST', 'passkeys', { response: c.response });
    setBusy(false);
    if (!r.ok) return setMessage({ kind: 'error', text: t(errorText(r.data.message)) });
    setList((l) => [...l, r.data.passkey]);
    // The browser's dialog is done; now a name of the person's own, prefilled.
    setOpen({ kind: 'name', passkey: r.data.passkey, isNew: true });
  };

  const verifiedNow = () => {
    setVerified(true);
    setOpen(null);
    void add(true);
  };

  return (
    <div className="flex max-w-3xl flex-col gap-4">
      <LiveAlert message={message} testId="passkeys-message" />
      {!supported && <p id="passkey-unsupported" className="m-0 rounded border border-amber-700 bg-amber-50 p-3 text-amber-900">{t('passkeys.manage.unsupported')}</p>}
      <div>
        <Button buttonRef={addRef} onClick={() => void add()} disabled={busy || !supported} aria-describedby={supported ? undefined : 'passkey-unsupported'} data-testid="passkey-add">
          {t('passkeys.manage.add')}
        </Button>
      </div>
      <section aria-labelledby="passkeys-list-title" className="rounded-lg bg-white shadow">
        <h2 id="passkeys-list-title" className="m-0 border-b border-slate-200 px-4 py-3 text-lg font-semibold">
          {t('passkeys.manage.listTitle', { count: list.length })}
        </h2>
        {list.length === 0 ? (
          <p className="m-0 px-4 py-4 text-slate-700" data-testid="passkeys-empty">
            {t('passkeys.manage.empty')}
          </p>
        ) : (
          <ul className="m-0 list-none p-0" data-testid="passkeys-list">
            {list.map((k) => (
              <PasskeyItem key={k.id} t={t} lang={p.lang} now={p.now} passkey={k} busy={busy} onRename={() => setOpen({ kind: 'name', passkey: k, isNew: false })} onRemove={() => setOpen({ kind: 'remove', passkey: k })} />
            ))}
          </ul>
        )}
      </section>

      <VerifyDialog
        t={t}
        basePath={p.basePath}
        open={open?.kind === 'verify'}
        hasPassword={p.hasPassword}
        hasPasskeys={list.length > 0}
        onDone={verifiedNow}
        onCancel={() => setOpen(null)}
      />
      <NameDialog
        t={t}
        basePath={p.basePath}
        open={open?.kind === 'name' ? open : null}
        onDone={(k, text) => {
          setList((l) => l.map((x) => (x.id === k.id ? k : x)));
          setOpen(null);
          setMessage({ kind: 'success', text });
        }}
        onCancel={(isNew) => {
          setOpen(null);
          if (isNew) setMessage({ kind: 'success', text: t('passkeys.manage.added') });
        }}
      />
      <RemoveDialog
        t={t}
        basePath={p.basePath}
        open={open?.kind === 'remove' ? open.passkey : null}
        hasPassword={p.hasPassword}
        verified={verified}
        onVerified={() => setVerified(true)}
        onDone={(k) => {
          setList((l) => l.filter((x) => x.id !== k.id));
          setOpen(null);
          setMessage({ kind: 'success', text: t('passkeys.manage.removed', { name: k.name }) });
        }}
        onCancel={() => setOpen(null)}
        returnFocus={() => addRef.current}
      />
    </div>
  );
}

function PasskeyItem({ t, lang, now, passkey: k, busy, onRename, onRemove }: { t: T; lang: Lang; now: number; passkey: PasskeyView; busy: boolean; onRename: () => void; onRemove: () => void }) {
  const added = new Date(k.createdAt);
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-200 px-4 py-3 last:border-b-0" data-testid="passkey-item" data-id={k.id}>
      <div className="min-w-0">
        <p className="m-0 break-words font-medium" data-testid="passkey-name">
          {k.name}
        </p>
        <p className="m-0 mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm text-slate-700">
          <span className={`rounded px-2 py-0.5 ${k.storage === 'device' ? 'bg-slate-200 text-slate-800' : 'bg-green-100 text-green-900'}`} data-testid="passkey-storage">
            {t(STORAGE_TEXT[k.storage])}
          </span>
          {k.provider && k.provider !== k.name && <span>{k.provider}</span>}
          <span>
            {t('passkeys.manage.addedOn')}{' '}
            <time dateTime={added.toISOString()} title={fullTimestamp(added, lang)}>
              {formatDate(added, lang).split(' ')[0]}
            </time>
          </span>
          <span>
            {t('passkeys.manage.lastUsed')} {k.lastUsedAt ? <RelativeTime value={k.lastUsedAt} now={now} lang={lang} testId="passkey-last-used" /> : t('passkeys.manage.never')}
          </span>
        </p>
      </div>
      <div className="flex gap-2">
        <Button variant="small" disabled={busy} onClick={onRename} aria-label={t('passkeys.manage.renameLabel', { name: k.name })}>
          {t('passkeys.manage.rename')}
        </Button>
        <Button variant="small-danger" disabled={busy} onClick={onRemove} aria-label={t('passkeys.manage.removeLabel', { name: k.name })}>
          {t('passkeys.manage.remove')}
        </Button>
      </div>
    </li>
  );
}

/** Who is at the keyboard: the password (POST password/verify), or one of the passkeys. */
function VerifyDialog(p: { t: T; basePath: string; open: boolean; hasPassword: boolean; hasPasskeys: boolean; onDone: () => void; onCancel: () => void }) {
  const { t } = p;
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!p.open) return;
    setPassword('');
    setError(null);
  }, [p.open]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!password) return setError(t('validation.required'));
    setBusy(true);
    const r = await api(p.basePath, 'POST', 'password/verify', { password, redirect: 'twofa' });
    setBusy(false);
    if (r.ok) return p.onDone();
    setError(r.data.message === 'wrong_password' ? t('verifyPassword.wrong') : t(errorText(r.data.message)));
    inputRef.current?.focus();
  };

  const withPasskey = async () => {
    setBusy(true);
    setError(null);
    const c = await askPasskey(p.basePath, 'passkeys/verify-session/options');
    if (c.kind !== 'answer') {
      setBusy(false);
      return setError(ceremonyText(t, c));
    }
    const r = await api(p.basePath, 'POST', 'passkeys/verify-session', { response: c.response });
    setBusy(false);
    if (r.ok) return p.onDone();
    setError(t(errorText(r.data.message)));
  };

  return (
    <Dialog open={p.open} labelledBy="passkey-verify-title" describedBy="passkey-verify-text" onDismiss={() => !busy && p.onCancel()} initialFocus={p.hasPassword ? inputRef : undefined} testId="passkey-verify">
      <h2 id="passkey-verify-title" className="m-0 text-lg font-semibold">
        {t('passkeys.verify.title')}
      </h2>
      <p id="passkey-verify-text" className="mb-0 mt-2">
        {t(p.hasPassword ? 'passkeys.verify.text' : 'passkeys.verify.textNoPassword')}
      </p>
      {p.hasPassword && (
        <form noValidate onSubmit={(e) => void submit(e)} className="mt-3 flex flex-col gap-3">
          <PasswordInput t={t} id="passkey-verify-password" label={t('passkeys.verify.password')} value={password} onChange={(v) => (setPassword(v), setError(null))} autoComplete="current-password" error={error} inputRef={inputRef} />
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" disabled={busy} onClick={p.onCancel}>
              {t('passkeys.cancel')}
            </Button>
            <Button type="submit" disabled={busy}>
              {t('passkeys.verify.confirm')}
            </Button>
          </div>
        </form>
      )}
      {!p.hasPassword && error && (
        <p role="alert" className="m-0 mt-3 text-sm text-red-800">
          {error}
        </p>
      )}
      {p.hasPasskeys && (
        <div className="mt-3 flex flex-wrap justify-end gap-2">
          {!p.hasPassword && (
            <Button variant="secondary" disabled={busy} onClick={p.onCancel}>
              {t('passkeys.cancel')}
            </Button>
          )}
          <Button variant={p.hasPassword ? 'link' : 'primary'} disabled={busy} onClick={() => void withPasskey()} data-testid="passkey-verify-with-passkey">
            {t('passkeys.verify.withPasskey')}
          </Button>
        </div>
      )}
    </Dialog>
  );
}

/** The name of a passkey: after adding it (prefilled from its model or browser), or a rename. */
function NameDialog(p: { t: T; basePath: string; open: { passkey: PasskeyView; isNew: boolean } | null; onDone: (k: PasskeyView, text: string) => void; onCancel: (isNew: boolean) => void }) {
  const { t } = p;
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const current = p.open;
  useEffect(() => {
    if (!current) return;
    setName(current.passkey.name);
    setError(null);
  }, [current?.passkey.id]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!current) return;
    const value = name.trim();
    if (!value) return setError(t('validation.required'));
    setBusy(true);
    const r = await api<{ passkey: PasskeyView }>(p.basePath, 'PATCH', `passkeys/${encodeURIComponent(current.passkey.id)}`, { name: value });
    setBusy(false);
    if (r.ok) return p.onDone(r.data.passkey, t(current.isNew ? 'passkeys.manage.added' : 'passkeys.manage.renamed'));
    const field = (r.data as { errors?: Record<string, string[]> }).errors?.name?.[0];
    setError(field ?? t(errorText(r.data.message)));
  };

  return (
    <Dialog open={current !== null} labelledBy="passkey-name-title" describedBy="passkey-name-text" onDismiss={() => !busy && current && p.onCancel(current.isNew)} initialFocus={inputRef} testId="passkey-name">
      <h2 id="passkey-name-title" className="m-0 text-lg font-semibold">
        {t(current?.isNew ? 'passkeys.name.titleNew' : 'passkeys.name.title')}
      </h2>
      <p id="passkey-name-text" className="mb-0 mt-2">
        {t('passkeys.name.text')}
      </p>
      <form noValidate onSubmit={(e) => void submit(e)} className="mt-3 flex flex-col gap-3">
        <Field id="passkey-name-input" label={t('passkeys.name.label')} hint={t('passkeys.name.hint')} error={error} value={name} onChange={(v) => (setName(v), setError(null))} inputRef={inputRef} maxLength={64} autoComplete="off" />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" disabled={busy} onClick={() => current && p.onCancel(current.isNew)}>
            {t(current?.isNew ? 'passkeys.name.keep' : 'passkeys.cancel')}
          </Button>
          <Button type="submit" disabled={busy}>
            {t('passkeys.name.save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Removing a passkey: the password again (an account without one: a passkey confirmation first). */
function RemoveDialog(p: {
  t: T;
  basePath: string;
  open: PasskeyView | null;
  hasPassword: boolean;
  verified: boolean;
  onVerified: () => void;
  onDone: (k: PasskeyView) => void;
  onCancel: () => void;
  returnFocus: () => HTMLElement | null;
}) {
  const { t } = p;
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    setPassword('');
    setError(null);
  }, [p.open?.id]);

  const remove = async () => {
    if (!p.open) return;
    if (p.hasPassword && !password) return setError(t('validation.required'));
    setBusy(true);
    setError(null);
    if (!p.hasPassword && !p.verified) {
      const c = await askPasskey(p.basePath, 'passkeys/verify-session/options');
      const ok = c.kind === 'answer' && (await api(p.basePath, 'POST', 'passkeys/verify-session', { response: c.response })).ok;
      if (!ok) {
        setBusy(false);
        return setError(c.kind === 'answer' ? t('passkeys.errors.invalid') : ceremonyText(t, c));
      }
      p.onVerified();
    }
    const r = await api(p.basePath, 'DELETE', `passkeys/${encodeURIComponent(p.open.id)}`, p.hasPassword ? { password } : {});
    setBusy(false);
    if (r.ok) return p.onDone(p.open);
    setError(r.data.message === 'wrong_password' ? t('verifyPassword.wrong') : t(errorText(r.data.message)));
    if (p.hasPassword) inputRef.current?.focus();
  };

  return (
    <Dialog open={p.open !== null} labelledBy="passkey-remove-title" describedBy="passkey-remove-text" onDismiss={() => !busy && p.onCancel()} initialFocus={p.hasPassword ? inputRef : cancelRef} returnFocus={p.returnFocus} testId="passkey-remove">
      <h2 id="passkey-remove-title" className="m-0 text-lg font-semibold">
        {t('passkeys.remove.title')}
      </h2>
      <p id="passkey-remove-text" className="mb-0 mt-2">
        {t(p.hasPassword ? 'passkeys.remove.text' : 'passkeys.remove.textNoPassword', { name: p.open?.name ?? '' })}
      </p>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void remove();
        }}
        className="mt-3 flex flex-col gap-3"
      >
        {p.hasPassword ? (
          <PasswordInput t={t} id="passkey-remove-password" label={t('passkeys.verify.password')} value={password} onChange={(v) => (setPassword(v), setError(null))} autoComplete="current-password" error={error} inputRef={inputRef} />
        ) : (
          error && (
            <p role="alert" className="m-0 text-sm text-red-800">
              {error}
            </p>
          )
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" buttonRef={cancelRef} disabled={busy} onClick={p.onCancel}>
            {t('passkeys.cancel')}
          </Button>
          <Button type="submit" variant="danger" disabled={busy} data-testid="passkey-remove-confirm">
            {t('passkeys.remove.confirm')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
