// Invitations into other tenants (decision 0027): accept or decline each, then the list reloads.
import { useState } from 'react';
import { api } from '../shared/api';
import { getT, type Lang } from '../shared/i18n';
import { buttonClass } from './kit/Button';

export interface InvitationsProps {
  lang: Lang;
  basePath: string;
  invitations: { tenantId: number; tenantName: string }[];
}

export default function Invitations(p: InvitationsProps) {
  const t = getT(p.lang);
  const [list, setList] = useState(p.invitations);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const answer = async (tenantId: number, tenantName: string, what: 'accept' | 'decline') => {
    setBusy(tenantId);
    const r = await api(p.basePath, 'POST', `invitations/${tenantId}/${what}`);
    setBusy(null);
    if (!r.ok) return setNotice({ kind: 'error', text: t(r.data.message === 'sign-in-required' ? 'invitations.ownCredentials' : 'errors.generic') });
    setList((l) => l.filter((x) => x.tenantId !== tenantId));
    setNotice({ kind: 'ok', text: t(what === 'accept' ? 'invitations.accepted' : 'invitations.declined', { tenant: tenantName }) });
  };

  return (
    <div>
      <div aria-live="polite">
        {notice && (
          <p
            role={notice.kind === 'error' ? 'alert' : 'status'}
            className={`mb-4 mt-0 max-w-2xl rounded border p-3 ${notice.kind === 'error' ? 'border-red-700 bg-red-50 text-red-900' : 'border-green-700 bg-green-50 text-green-900'}`}
            data-testid="invitations-notice"
          >
            {notice.text}{' '}
            {notice.kind === 'ok' && (
              <a className="text-blue-800 underline" href={`${p.basePath}/login`}>
                {t('invitations.choose')}
              </a>
            )}
          </p>
        )}
      </div>
      {list.length === 0 ? (
        <p className="text-slate-700" data-testid="invitations-empty">
          {t('invitations.empty')}
        </p>
      ) : (
        <ul className="m-0 max-w-2xl list-none rounded-lg bg-white p-0 shadow" aria-label={t('invitations.heading')}>
          {list.map((i) => (
            <li key={i.tenantId} className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-3" data-testid="invitation">
              <span className="font-medium">{i.tenantName}</span>
              <span className="flex gap-2">
                <button
                  type="button"
                  className={buttonClass('primary')}
                  disabled={busy !== null}
                  onClick={() => void answer(i.tenantId, i.tenantName, 'accept')}
                  aria-label={t('invitations.acceptLabel', { tenant: i.tenantName })}
                >
                  {t('invitations.accept')}
                </button>
                <button
                  type="button"
                  className="rounded border border-slate-500 bg-white px-4 py-2 text-slate-900 hover:bg-slate-100 disabled:opacity-60"
                  disabled={busy !== null}
                  onClick={() => void answer(i.tenantId, i.tenantName, 'decline')}
                  aria-label={t('invitations.declineLabel', { tenant: i.tenantName })}
                >
                  {t('invitations.decline')}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
