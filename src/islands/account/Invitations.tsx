// Invitations into other tenants (decision 0027): accept or decline each, then the list reloads.
// The kit's table (a card per invitation below 960px; decision 0032).
import { useState } from 'react';
import { api } from '../../shared/api';
import { getT, type Lang } from '../../shared/i18n';
import { DataTable } from '../kit/DataTable';

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
      <DataTable<{ tenantId: number; tenantName: string }>
        t={t}
        testId="invitations"
        caption={t('invitations.heading')}
        columns={[{ key: 'tenant', header: t('invitations.organization'), truncate: (i) => i.tenantName, render: (i) => <span className="font-medium">{i.tenantName}</span> }]}
        rows={list}
        rowKey={(i) => i.tenantId}
        rowAttrs={() => ({ 'data-testid': 'invitation' })}
        actions={{
          kind: 'buttons',
          header: t('invitations.answer'),
          width: 'w-[13rem]',
          items: (i) => [
            { label: t('invitations.accept'), primary: true, ariaLabel: t('invitations.acceptLabel', { tenant: i.tenantName }), disabled: busy !== null, onSelect: () => void answer(i.tenantId, i.tenantName, 'accept') },
            { label: t('invitations.decline'), ariaLabel: t('invitations.declineLabel', { tenant: i.tenantName }), disabled: busy !== null, onSelect: () => void answer(i.tenantId, i.tenantName, 'decline') },
          ],
        }}
        empty={{ text: t('invitations.empty') }}
      />
    </div>
  );
}
