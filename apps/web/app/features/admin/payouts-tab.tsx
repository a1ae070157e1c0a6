import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isPayday, latestPayday } from '@skanova/shared/payouts/payday';
import { PAYOUT_STATUSES, type PayoutStatus } from '@skanova/shared/affiliate/stats';
import { type AdminPayout, type PayoutRunResult } from '@skanova/shared/payouts/functions';
import {
  type PayoutExportKind,
  PAYOUT_EXPORT_KINDS,
  PAYOUT_REASON_MAX,
  PAYOUT_REFERENCE_MAX,
  SEPA_PAIN_VERSIONS,
  type SepaPainVersion,
  isAcceptableExchangeRate,
} from '@skanova/shared/payouts/schemas';
import { callFunction } from '../../lib/callable';
import { useTranslation } from '../../lib/react-i18n';
import { formatDay, formatMoney } from '../../lib/format';
import { useAdminErrorMessage } from './admin-format';
import { type Notice, ListState, NoticeBanner, TableRegion } from './console-parts';
import { downloadTextFile } from '../../lib/download';
import { adminKeys, useAdminPayouts } from './queries';

// Payouts (docs/product/money.md#payment-timing, docs/product/money.md#payouts): pick a payday (a 15th; the latest by default), run it, export its
// scheduled payouts for PayPal (CSV, USD) or the bank (SEPA XML, EUR at the operator's rate), and
// mark payouts sent, paid or failed as the money moves.

const MARK_STATUSES = ['sent', 'paid', 'failed'] as const;
type MarkStatus = (typeof MARK_STATUSES)[number];

/** "2025-06" → "2025-06-15": the month picker chooses the payday's month. */
const paydayOfMonth = (month: string) => `${month}-15`;

export function PayoutsTab() {
  const { t, i18n } = useTranslation('admin');
  // A link (the overview's failed payouts) may open a payday's list filtered by a status.
  const [searchParams] = useSearchParams();
  const [month, setMonth] = useState(() => {
    const linked = searchParams.get('payday');
    return (linked && isPayday(linked) ? linked : latestPayday(new Date())).slice(0, 7);
  });
  const [status, setStatus] = useState<PayoutStatus | ''>(
    () => PAYOUT_STATUSES.find((option) => option === searchParams.get('status')) ?? '',
  );
  const payday = /^\d{4}-\d{2}$/.test(month) ? paydayOfMonth(month) : null;
  return (
    <div className="admin-stack">
      <h2 className="visually-hidden">{t('tabs.payouts')}</h2>
      <section className="card" aria-labelledby="admin-payday-title">
        <h3 id="admin-payday-title">{t('payouts.payday.title')}</h3>
        <div className="admin-filters">
          <div className="form-field">
            <label htmlFor="admin-payday-month">{t('payouts.payday.month')}</label>
            <input
              id="admin-payday-month"
              type="month"
              value={month}
              required
              onChange={(event) => setMonth(event.target.value)}
              aria-describedby="admin-payday-hint"
            />
            <p id="admin-payday-hint" className="form-hint">
              {payday ? t('payouts.payday.hint', { date: formatDay(payday, i18n.language) }) : t('payouts.payday.pick')}
            </p>
          </div>
        </div>
        {payday ? <RunPayouts key={payday} payday={payday} /> : null}
      </section>
      {payday ? <ExportPayouts key={`export-${payday}`} payday={payday} /> : null}
      {payday ? <PayoutList payday={payday} status={status} onStatus={setStatus} /> : null}
    </div>
  );
}

function RunPayouts({ payday }: { payday: string }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const errorMessage = useAdminErrorMessage();
  const queryClient = useQueryClient();
  const [result, setResult] = useState<PayoutRunResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = useMutation({
    mutationFn: () => callFunction('adminRunPayouts', { payday }),
    onSuccess: (answer) => {
      setResult(answer);
      setError(null);
    },
    onError: (failure) => setError(errorMessage(failure)),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.payouts }),
        queryClient.invalidateQueries({ queryKey: adminKeys.audit }),
      ]),
  });
  return (
    <div className="admin-run">
      <button type="button" className="button button--primary" disabled={run.isPending} onClick={() => run.mutate()}>
        {run.isPending ? t('payouts.run.running') : t('payouts.run.button', { date: formatDay(payday, lang) })}
      </button>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {result ? (
        <div className="form-success" role="status">
          <p>
            {result.alreadyDone
              ? t('payouts.run.alreadyDone', { date: formatDay(result.payday, lang) })
              : t('payouts.run.created', { count: result.created, total: formatMoney(result.totalCents, lang) })}
          </p>
          <p>
            {t('payouts.run.summary', {
              count: result.payoutCount,
              total: formatMoney(result.payoutTotalCents, lang),
              below: result.belowMinimum,
              noMethod: result.withoutPaymentMethod,
            })}
          </p>
        </div>
      ) : null}
    </div>
  );
}

function ExportPayouts({ payday }: { payday: string }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const errorMessage = useAdminErrorMessage();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<PayoutExportKind>('paypal');
  const [rate, setRate] = useState('');
  const [version, setVersion] = useState<SepaPainVersion>(SEPA_PAIN_VERSIONS[0]);
  const [notice, setNotice] = useState<Notice>(null);
  const rateInvalid = kind === 'sepa' && !isAcceptableExchangeRate(rate.trim());
  const exportFile = useMutation({
    mutationFn: () =>
      callFunction(
        'adminExportPayouts',
        kind === 'sepa' ? { kind, payday, exchangeRate: rate.trim(), painVersion: version } : { kind, payday },
      ),
    onSuccess: (file) => {
      downloadTextFile(file.fileName, file.content, file.contentType);
      const total = formatMoney(file.totalCents, lang, file.currency);
      const text = [t('payouts.export.done', { file: file.fileName, count: file.payoutCount, total })];
      if (!file.created) text.push(t('payouts.export.again'));
      if (file.remaining > 0) text.push(t('payouts.export.remaining', { count: file.remaining }));
      setNotice({ kind: 'success', text: text.join(' ') });
    },
    onError: (failure) => setNotice({ kind: 'error', text: errorMessage(failure) }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.payouts }),
        queryClient.invalidateQueries({ queryKey: adminKeys.audit }),
      ]),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!rateInvalid && !exportFile.isPending) exportFile.mutate();
  }

  return (
    <section className="card" aria-labelledby="admin-export-title">
      <h3 id="admin-export-title">{t('payouts.export.title', { date: formatDay(payday, lang) })}</h3>
      <NoticeBanner notice={notice} />
      <form className="admin-filters" onSubmit={onSubmit} noValidate>
        <fieldset className="form-field">
          <legend>{t('payouts.export.kind')}</legend>
          {PAYOUT_EXPORT_KINDS.map((option) => (
            <label key={option} className="choice">
              <input
                type="radio"
                name="admin-export-kind"
                value={option}
                checked={kind === option}
                onChange={() => setKind(option)}
              />
              {t(`payouts.export.kinds.${option}`)}
            </label>
          ))}
        </fieldset>
        {kind === 'sepa' ? (
          <>
            <div className="form-field">
              <label htmlFor="admin-export-rate">{t('payouts.export.rate')}</label>
              <input
                id="admin-export-rate"
                inputMode="decimal"
                value={rate}
                required
                aria-invalid={rate !== '' && rateInvalid ? true : undefined}
                aria-describedby="admin-export-rate-hint"
                onChange={(event) => setRate(event.target.value)}
              />
              <p id="admin-export-rate-hint" className="form-hint">
                {t('payouts.export.rateHint')}
              </p>
            </div>
            <div className="form-field">
              <label htmlFor="admin-export-version">{t('payouts.export.version')}</label>
              <select
                id="admin-export-version"
                value={version}
                onChange={(event) => setVersion(event.target.value as SepaPainVersion)}
              >
                {SEPA_PAIN_VERSIONS.map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            </div>
          </>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="button button--primary" disabled={rateInvalid || exportFile.isPending}>
            {exportFile.isPending ? t('payouts.export.working') : t('payouts.export.button')}
          </button>
        </div>
      </form>
    </section>
  );
}

function PayoutList({
  payday,
  status,
  onStatus,
}: {
  payday: string;
  status: PayoutStatus | '';
  onStatus: (status: PayoutStatus | '') => void;
}) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const payouts = useAdminPayouts({ payday, ...(status ? { status } : {}) });
  const rows = payouts.data ?? [];
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const visible = new Set(rows.map((payout) => payout.id));
  const chosen = [...selected].filter((id) => visible.has(id));
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  };
  return (
    <section className="card" aria-labelledby="admin-payouts-title">
      <h3 id="admin-payouts-title">{t('payouts.list.title', { date: formatDay(payday, lang) })}</h3>
      <div className="admin-filters">
        <div className="form-field">
          <label htmlFor="admin-payouts-status">{t('payouts.list.status')}</label>
          <select
            id="admin-payouts-status"
            value={status}
            onChange={(event) => onStatus(event.target.value as PayoutStatus | '')}
          >
            <option value="">{t('payouts.statuses.all')}</option>
            {PAYOUT_STATUSES.map((option) => (
              <option key={option} value={option}>
                {t(`payouts.statuses.${option}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ListState query={payouts} empty={rows.length === 0} />
      {rows.length > 0 ? (
        <TableRegion label={t('payouts.list.title', { date: formatDay(payday, lang) })}>
          <table className="admin-table admin-table--stack">
            <thead>
              <tr>
                <th scope="col">
                  <input
                    type="checkbox"
                    aria-label={t('payouts.list.selectAll')}
                    checked={chosen.length === rows.length}
                    onChange={(event) => setSelected(event.target.checked ? new Set(visible) : new Set())}
                  />
                </th>
                <th scope="col">{t('payouts.columns.affiliate')}</th>
                <th scope="col" className="admin-table__number">
                  {t('payouts.columns.amount')}
                </th>
                <th scope="col">{t('payouts.columns.method')}</th>
                <th scope="col">{t('payouts.columns.status')}</th>
                <th scope="col">{t('payouts.columns.reference')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((payout) => (
                <PayoutRow
                  key={payout.id}
                  payout={payout}
                  checked={selected.has(payout.id)}
                  onCheck={(on) => toggle(payout.id, on)}
                />
              ))}
            </tbody>
          </table>
        </TableRegion>
      ) : null}
      {rows.length > 0 ? <MarkPayouts payoutIds={chosen} onDone={() => setSelected(new Set())} /> : null}
    </section>
  );
}

function PayoutRow({
  payout,
  checked,
  onCheck,
}: {
  payout: AdminPayout;
  checked: boolean;
  onCheck: (on: boolean) => void;
}) {
  const { t, i18n } = useTranslation('admin');
  const { t: tPayment } = useTranslation('payment');
  const lang = i18n.language;
  const name = payout.affiliateName ?? payout.affiliateEmail ?? payout.affiliateId;
  return (
    <tr>
      <td className="admin-table__select">
        <input
          type="checkbox"
          aria-label={t('payouts.list.select', { name })}
          checked={checked}
          onChange={(event) => onCheck(event.target.checked)}
        />
      </td>
      <th scope="row" className="admin-table__wrap">
        {name}
        {payout.affiliateEmail && payout.affiliateName ? (
          <span className="admin-table__sub">{payout.affiliateEmail}</span>
        ) : null}
      </th>
      <td className="admin-table__number" data-label={t('payouts.columns.amount')}>
        {formatMoney(payout.amountCents, lang, payout.currency)}
        {payout.amountPaidCents !== null && payout.paidCurrency && payout.paidCurrency !== payout.currency ? (
          <span className="admin-table__sub">{formatMoney(payout.amountPaidCents, lang, payout.paidCurrency)}</span>
        ) : null}
      </td>
      <td data-label={t('payouts.columns.method')}>{tPayment(`methods.${payout.method}`)}</td>
      <td data-label={t('payouts.columns.status')}>
        <span className={`badge admin-badge--${payout.status}`}>{t(`payouts.statuses.${payout.status}`)}</span>
        {payout.failureReason ? <span className="admin-table__sub">{payout.failureReason}</span> : null}
      </td>
      <td className="admin-table__code" data-label={t('payouts.columns.reference')}>
        <code>{payout.transferReference}</code>
        {payout.reference ? <span className="admin-table__sub">{payout.reference}</span> : null}
      </td>
    </tr>
  );
}

function MarkPayouts({ payoutIds, onDone }: { payoutIds: string[]; onDone: () => void }) {
  const { t } = useTranslation('admin');
  const errorMessage = useAdminErrorMessage();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<MarkStatus>('sent');
  const [reference, setReference] = useState('');
  const [reason, setReason] = useState('');
  const [notice, setNotice] = useState<Notice>(null);
  const needsReason = status === 'failed' && reason.trim() === '';
  const mark = useMutation({
    mutationFn: () =>
      callFunction('adminMarkPayouts', {
        payoutIds,
        status,
        ...(reference.trim() && status !== 'failed' ? { reference: reference.trim() } : {}),
        ...(status === 'failed' ? { reason: reason.trim() } : {}),
      }),
    onSuccess: (result) => {
      setNotice({ kind: 'success', text: t(`payouts.mark.done.${status}`, { count: result.updated }) });
      setReference('');
      setReason('');
      onDone();
    },
    onError: (failure) => setNotice({ kind: 'error', text: errorMessage(failure) }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.payouts }),
        queryClient.invalidateQueries({ queryKey: adminKeys.audit }),
      ]),
  });
  return (
    <form
      className="admin-mark"
      aria-labelledby="admin-mark-title"
      onSubmit={(event) => {
        event.preventDefault();
        if (payoutIds.length > 0 && !needsReason && !mark.isPending) mark.mutate();
      }}
    >
      <h4 id="admin-mark-title">{t('payouts.mark.title', { count: payoutIds.length })}</h4>
      <NoticeBanner notice={notice} />
      <div className="admin-filters">
        <div className="form-field">
          <label htmlFor="admin-mark-status">{t('payouts.mark.status')}</label>
          <select
            id="admin-mark-status"
            value={status}
            onChange={(event) => setStatus(event.target.value as MarkStatus)}
          >
            {MARK_STATUSES.map((option) => (
              <option key={option} value={option}>
                {t(`payouts.statuses.${option}`)}
              </option>
            ))}
          </select>
        </div>
        {status === 'failed' ? (
          <div className="form-field admin-filters__wide">
            <label htmlFor="admin-mark-reason">{t('payouts.mark.reason')}</label>
            <input
              id="admin-mark-reason"
              value={reason}
              required
              maxLength={PAYOUT_REASON_MAX}
              onChange={(event) => setReason(event.target.value)}
            />
          </div>
        ) : (
          <div className="form-field admin-filters__wide">
            <label htmlFor="admin-mark-reference">{t('payouts.mark.reference')}</label>
            <input
              id="admin-mark-reference"
              value={reference}
              maxLength={PAYOUT_REFERENCE_MAX}
              onChange={(event) => setReference(event.target.value)}
            />
          </div>
        )}
        <div className="form-actions">
          <button
            type="submit"
            className="button button--primary"
            disabled={payoutIds.length === 0 || needsReason || mark.isPending}
          >
            {mark.isPending ? t('payouts.mark.working') : t('payouts.mark.button', { count: payoutIds.length })}
          </button>
        </div>
      </div>
    </form>
  );
}
