// The edit-by-import dialog (spec 02 "Edit-by-import dialog"): the CSV upload in update mode and
// the collapsible import log (filename, imported at, imported by, status, users updated), read
// again after each upload. Not an island itself.
import { useEffect, useRef, useState } from 'react';
import { api } from '../../shared/api';
import type { Lang, T } from '../../shared/i18n';
import { BTN_SECONDARY } from '../kit/admin-parts';
import { CsvImport } from './csv-import';
import Dialog from '../kit/Dialog';
import { DataTable } from '../kit/DataTable';
import { DateCell } from './people-parts';
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
          <DataTable<ImportLogRow>
            t={t}
            testId="import-logs-table"
            caption={t('people.import.logs')}
            columns={[
              { key: 'filename', header: t('people.import.colFilename'), truncate: (l) => l.filename, render: (l) => l.filename },
              { key: 'start_time', header: t('people.import.colImportedAt'), width: 'w-[11rem]', className: 'whitespace-nowrap', render: (l) => <DateCell value={l.start_time} lang={p.lang} /> },
              { key: 'user', header: t('people.import.colImportedBy'), width: 'w-[9rem]', truncate: (l) => l.user?.name ?? '-', render: (l) => l.user?.name ?? '-' },
              { key: 'status', header: t('people.import.colStatus'), width: 'w-[7rem]', render: (l) => t(`people.import.status.${l.status}`) },
              { key: 'updated', header: t('people.import.colUpdated'), width: 'w-[6rem]', render: (l) => l.number_of_users_updated },
            ]}
            rows={logs}
            rowKey={(l) => l.id}
            minWidth="min-w-[40rem]"
            empty={{ text: t('people.import.noLogs') }}
          />
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
