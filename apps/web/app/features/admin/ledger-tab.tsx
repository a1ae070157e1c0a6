import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { checkForm } from '@skanova/shared/callable/field-errors';
import type { LedgerReconciliation } from '@skanova/shared/payouts/functions';
import { type AdminExportLedgerRequest, adminExportLedgerSchema } from '@skanova/shared/payouts/schemas';
import { callFunction } from '../../lib/callable';
import { downloadTextFile } from '../../lib/download';
import { type FieldError, callFieldErrors } from '../../lib/form-errors';
import { formatMoney } from '../../lib/format';
import { useTranslation } from '../../lib/react-i18n';
import { formatDateTime, useAdminErrorMessage } from './admin-format';
import { ConsoleInput } from './console-form';
import { AdminTable, type Notice, NoticeBanner } from './console-parts';
import { adminKeys } from './queries';

// The ledger (docs/product/money.md#the-ledger, docs/product/money.md#ledger-export): run the
// reconciliation now and read its answer — "reconciles to the cent" or the table of differences — and
// export whole months for the accountant as the two CSV files. Both are written to the audit log.

export function LedgerTab() {
  const { t } = useTranslation('admin');
  return (
    <div className="admin-stack">
      <h2 className="visually-hidden">{t('tabs.ledger')}</h2>
      <Reconcile />
      <ExportLedger />
    </div>
  );
}

function Reconcile() {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const errorMessage = useAdminErrorMessage();
  const queryClient = useQueryClient();
  const [result, setResult] = useState<LedgerReconciliation | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const reconcile = useMutation({
    mutationFn: () => callFunction('adminReconcileLedger', null),
    onSuccess: (answer) => {
      setResult(answer);
      const date = formatDateTime(answer.checkedAt, lang);
      setNotice(
        answer.differences.length === 0
          ? { kind: 'success', text: t('ledger.reconcile.ok', { date }) }
          : { kind: 'error', text: t('ledger.reconcile.differences', { count: answer.differences.length, date }) },
      );
    },
    onError: (error) => {
      setResult(null);
      setNotice({ kind: 'error', text: errorMessage(error) });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.audit }),
  });
  return (
    <section className="card" aria-labelledby="admin-reconcile-title">
      <h3 id="admin-reconcile-title">{t('ledger.reconcile.title')}</h3>
      <p className="form-hint">{t('ledger.reconcile.lead')}</p>
      <div className="admin-run">
        <button
          type="button"
          className="button button--primary"
          disabled={reconcile.isPending}
          onClick={() => {
            setNotice(null);
            reconcile.mutate();
          }}
        >
          {reconcile.isPending ? t('ledger.reconcile.working') : t('ledger.reconcile.button')}
        </button>
        <NoticeBanner notice={notice} />
      </div>
      {result && result.differences.length > 0 ? (
        <AdminTable
          region={t('ledger.reconcile.tableTitle')}
          className="admin-table--stack"
          columns={[
            { label: t('ledger.reconcile.columns.affiliate') },
            { label: t('ledger.reconcile.columns.account') },
            { label: t('ledger.reconcile.columns.ledger'), number: true },
            { label: t('ledger.reconcile.columns.expected'), number: true },
            { label: t('ledger.reconcile.columns.source') },
          ]}
        >
          {result.differences.map((difference) => (
            <tr key={`${difference.affiliateId}-${difference.account}-${difference.source}`}>
              <th scope="row" className="admin-table__wrap">
                <code>{difference.affiliateId}</code>
              </th>
              <td data-label={t('ledger.reconcile.columns.account')}>
                {t(`ledger.reconcile.accounts.${difference.account}`)}
              </td>
              <td className="admin-table__number" data-label={t('ledger.reconcile.columns.ledger')}>
                {formatMoney(difference.ledgerCents, lang)}
              </td>
              <td className="admin-table__number" data-label={t('ledger.reconcile.columns.expected')}>
                {formatMoney(difference.expectedCents, lang)}
              </td>
              <td data-label={t('ledger.reconcile.columns.source')}>
                {t(`ledger.reconcile.sources.${difference.source}`)}
              </td>
            </tr>
          ))}
        </AdminTable>
      ) : null}
    </section>
  );
}

/** The month before the current one (UTC): the period an accountant asks for first. */
function lastMonth(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
}

function ExportLedger() {
  const { t } = useTranslation('admin');
  const errorMessage = useAdminErrorMessage();
  const queryClient = useQueryClient();
  const [period, setPeriod] = useState(() => {
    const month = lastMonth(new Date());
    return { from: month, to: month };
  });
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [notice, setNotice] = useState<Notice>(null);
  const exportLedger = useMutation({
    mutationFn: (request: AdminExportLedgerRequest) => callFunction('adminExportLedger', request),
    onSuccess: (files) => {
      downloadTextFile(files.entries.fileName, files.entries.content, files.entries.contentType);
      downloadTextFile(files.summary.fileName, files.summary.content, files.summary.contentType);
      setNotice({
        kind: 'success',
        text: t('ledger.export.done', {
          entries: files.entries.fileName,
          entryLines: files.entries.lines,
          summary: files.summary.fileName,
          summaryLines: files.summary.lines,
        }),
      });
    },
    onError: (error) => {
      const fields = callFieldErrors(error);
      setErrors(fields);
      setNotice(fields.length > 0 ? null : { kind: 'error', text: errorMessage(error) });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.audit }),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNotice(null);
    const checked = checkForm(adminExportLedgerSchema, period);
    setErrors(checked.errors);
    if (checked.success && !exportLedger.isPending) exportLedger.mutate(checked.data);
  }

  return (
    <section className="card" aria-labelledby="admin-ledger-export-title">
      <h3 id="admin-ledger-export-title">{t('ledger.export.title')}</h3>
      <p className="form-hint">{t('ledger.export.lead')}</p>
      <NoticeBanner notice={notice} />
      <form
        className="admin-filters admin-filters--top"
        onSubmit={onSubmit}
        noValidate
        aria-labelledby="admin-ledger-export-title"
      >
        <ConsoleInput
          id="admin-ledger-from"
          path="from"
          label={t('ledger.export.from')}
          errors={errors}
          type="month"
          value={period.from}
          onValue={(value) => setPeriod({ ...period, from: value })}
        />
        <ConsoleInput
          id="admin-ledger-to"
          path="to"
          label={t('ledger.export.to')}
          errors={errors}
          type="month"
          value={period.to}
          onValue={(value) => setPeriod({ ...period, to: value })}
        />
        <div className="form-actions">
          <button type="submit" className="button button--primary" disabled={exportLedger.isPending}>
            {exportLedger.isPending ? t('ledger.export.working') : t('ledger.export.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
