// The edit-by-import dialog (spec 02 "Edit-by-import dialog"): the CSV upload in update mode and
// the collapsible import log (filename, imported at, imported by, status, users updated), read
// again after each upload. Not an island itself.
import { useEffect, useRef, useState } from 'react';
import { api } from '../shared/api';
import { browserTimeZone } from '../shared/dates';
import type { Lang, T } from '../shared/i18n';
import { BTN_SECONDARY } from './admin-parts';
import { CsvImport } from './csv-import';
import Dialog from './kit/Dialog';
import { DateCell, EmptyRow, TABLE, TD, TH } from './people-parts';
import type { ImportLogRow } from './people-types';

export function ImportDialog(p: {
  t: T;
  lang: Lang;
  basePath: string;
  open: boolean;
  logs: ImportLogRow[];
  onClose: () => void;
  onImported: () => void;
}) {
  const { t } = p;
  const [logs, setLogs] = useState(p.logs);
  const closeRef = useRef<HTMLButtonElement>(null);

  const readLogs = async () => {
    const r = await api<ImportLogRow[]>(p.basePath, 'GET', 'admin/users/import/update/logs');
    if (r.ok && Array.isArray(r.data)) setLogs(r.data);
  };
  useEffect(() => {
    if (p.open) void readLogs();
  }, [p.open]);

  return (
    <Dialog open={p.open} labelledBy="import-dialog-title" onDismiss={p.onClose} className="max-w-[800px]" testId="import-dialog">
      <h2 id="import-dialog-title" className="m-0 mb-4 text-lg font-semibold">
        {t('people.import.editTitle')}
      </h2>
      <CsvImport
        t={t}
        basePath={p.basePath}
        mode="update"
        onImported={() => {
          void readLogs();
          p.onImported();
        }}
      />
      <details className="mt-4" data-testid="import-logs">
        <summary className="cursor-pointer font-medium">{t('people.import.logs')}</summary>
        <div className="mt-2 max-h-72 overflow-auto">
          <table className={TABLE}>
            <thead className="bg-slate-100">
              <tr>
                <th scope="col" className={TH}>
                  {t('people.import.colFilename')}
                </th>
                <th scope="col" className={TH}>
                  {t('people.import.colImportedAt')}
                </th>
                <th scope="col" className={TH}>
                  {t('people.import.colImportedBy')}
                </th>
                <th scope="col" className={TH}>
                  {t('people.import.colStatus')}
                </th>
                <th scope="col" className={TH}>
                  {t('people.import.colUpdated')}
                </th>
              </tr>
            </thead>
            <tbody>
              {logs.length === 0 && <EmptyRow colSpan={5}>{t('people.import.noLogs')}</EmptyRow>}
              {logs.map((l) => (
                <tr key={l.id} className="border-t border-slate-200">
                  <td className={`${TD} break-all`}>{l.filename}</td>
                  <td className={`${TD} whitespace-nowrap`}>
                    <DateCell value={l.start_time} lang={p.lang} timeZone={browserTimeZone()} />
                  </td>
                  <td className={TD}>{l.user?.name ?? '-'}</td>
                  <td className={TD}>{t(`people.import.status.${l.status}`)}</td>
                  <td className={TD}>{l.number_of_users_updated}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
      <div className="mt-4 flex justify-end">
        <button ref={closeRef} type="button" className={BTN_SECONDARY} onClick={p.onClose}>
          {t('admin.common.close')}
        </button>
      </div>
    </Dialog>
  );
}
