// A toast on an authenticated page, named by its `?notice=` query (src/shared/notices.ts): the
// kit's Toast (inside an open dialog when there is one), in the server's HTML (no flash on load);
// after hydration the query is dropped from the address (a reload does not repeat it), and it
// closes with its button or after its timeout, which waits while the pointer or the focus is on it.
import { useEffect } from 'react';
import { getT, type Lang } from '../../shared/i18n';
import { ACCOUNT_NOTICES, type AccountNoticeName } from '../../shared/notices';
import { Toast, useToast } from '../kit/Toast';

export interface AccountNoticeProps {
  lang: Lang;
  notice: AccountNoticeName;
}

export default function AccountNotice({ lang, notice }: AccountNoticeProps) {
  const t = getT(lang);
  const def = ACCOUNT_NOTICES[notice];
  const { toast, close } = useToast({ kind: def.kind, text: t(def.key), timeoutMs: def.timeoutMs });

  useEffect(() => {
    const url = new URL(window.location.href);
    if (url.searchParams.get('notice') === notice) {
      url.searchParams.delete('notice');
      window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    }
  }, []);

  return <Toast t={t} toast={toast} onClose={close} testId="account-notice" />;
}
