import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { PaymentMethodSummary } from '@skanova/shared/affiliate/payment-method';
import { PAYMENT_TIMING } from '@skanova/shared/payouts/payout-schedule';
import type { AffiliateStats, PayoutSummary } from '@skanova/shared/affiliate/stats';
import { COMMISSION_HOLD_DAYS } from '@skanova/shared/affiliate/programme';
import type { AffiliateCommission, AffiliateRule } from '@skanova/shared/rewards/functions';
import { useTranslation } from '../../lib/react-i18n';
import { formatDay, formatMoney, ordinalDay } from '../../lib/format';
import { commissionInWords } from '../../lib/reward-words';
import { PaymentMethodForm } from './payment-method-form';
import { useAffiliateCommissions, useAffiliatePaymentMethod, useAffiliatePayouts, useAffiliateRule } from './queries';
import { SectionLoading } from './section-loading';
import { UnpaidEarningsCard } from './unpaid-earnings';
import './payments-tab.css';

// Payments (docs/product/routes-and-screens.md#payments-tab, docs/product/money.md#payment-timing): the next payment (unpaid earnings) and what the next
// payday pays (with the hold and the minimum of the affiliate's own rule), why it is less than the
// unpaid earnings (unpaid-earnings.tsx), the recent commissions and
// why each is its amount (docs/product/money.md#operators-groups-rules-and-campaigns), the real payout
// history, the current method and the form to change it.

export function PaymentsTab({ stats }: { stats: UseQueryResult<AffiliateStats> }) {
  const { t } = useTranslation('dashboard');
  const { t: tCommon } = useTranslation('common');
  const method = useAffiliatePaymentMethod();
  const rule = useAffiliateRule();
  // docs/product/messages.md#payment-update-messages: a failed fetch is logged; the page also says so and still offers the form.
  useEffect(() => {
    if (method.error) console.warn('payment method fetch failed', method.error);
  }, [method.error]);
  return (
    <div className="dashboard-stack">
      <h2 className="visually-hidden">{t('tabs.payments')}</h2>
      <div className="columns dashboard-columns">
        <section className="card" aria-labelledby="dashboard-next-payment-title">
          <h3 id="dashboard-next-payment-title">{t('payments.next.title')}</h3>
          {stats.data ? (
            <NextPayment stats={stats.data} rule={rule.data} />
          ) : stats.isPending ? (
            <SectionLoading />
          ) : null}
        </section>
        <section className="card" aria-labelledby="dashboard-method-title">
          <h3 id="dashboard-method-title">{t('payments.method.title')}</h3>
          {method.isPending ? <SectionLoading /> : null}
          {method.isError ? (
            <p className="form-error" role="alert">
              {tCommon('callable.payment-fetch-failed')}
            </p>
          ) : null}
          {method.data ? <PaymentMethodSummaryList method={method.data} /> : null}
        </section>
      </div>
      <UnpaidEarningsCard rule={rule.data} />
      <RecentCommissions />
      <PayoutHistory />
      {/* The form waits for the stored method to start from it; if it cannot be read, it starts empty. */}
      {method.isPending ? null : (
        <section className="card">
          <PaymentMethodForm stored={method.data ?? null} />
        </section>
      )}
    </div>
  );
}

/**
 * What the next payday pays. The hold and the minimum are the affiliate's rule's; under the
 * specification's rule (or before the rule is read) they are the specification's, in its words.
 */
function NextPayment({ stats, rule }: { stats: AffiliateStats; rule: AffiliateRule | undefined }) {
  const { t, i18n } = useTranslation('dashboard');
  const { t: tRule } = useTranslation('affiliate');
  const lang = i18n.language;
  const own = rule && !rule.specificationRule ? rule.rule : null;
  const minimum = formatMoney(own ? own.minimumPayoutCents : PAYMENT_TIMING.minimumPayoutCents, lang);
  const hold = own
    ? own.holdDays === 0
      ? tRule('rule.holdNone')
      : tRule('rule.hold', { count: own.holdDays })
    : t('payments.next.hold', { days: COMMISSION_HOLD_DAYS });
  const { nextPayout } = stats;
  return (
    <>
      <p className="dashboard-amount">
        <span>{t('payments.next.amount')}</span>{' '}
        <strong className="amount">{formatMoney(stats.unpaidEarningsCents, lang)}</strong>
      </p>
      <dl className="facts dashboard-facts">
        <div>
          <dt>{t('payments.next.payday')}</dt>
          <dd>{formatDay(nextPayout.date, lang)}</dd>
        </div>
        <div>
          <dt>{t('payments.next.payable')}</dt>
          <dd className="amount">{formatMoney(nextPayout.payableCents, lang)}</dd>
        </div>
        <div>
          <dt>{t('payments.next.approved')}</dt>
          <dd className="amount">{formatMoney(nextPayout.approvedUnpaidCents, lang)}</dd>
        </div>
        {stats.underReviewCents > 0 ? (
          <div>
            <dt>{t('payments.next.underReview')}</dt>
            <dd className="amount">{formatMoney(stats.underReviewCents, lang)}</dd>
          </div>
        ) : null}
      </dl>
      {/* The amount only: never which signal, nor why (docs/product/review.md#what-the-affiliate-sees). */}
      {stats.underReviewCents > 0 ? <p className="form-info">{t('payments.next.underReviewNote')}</p> : null}
      {nextPayout.payableCents === 0 ? (
        <p className="form-info">{t('payments.next.belowMinimum', { minimum })}</p>
      ) : null}
      <p className="form-hint">
        {t('payments.next.rule', { day: ordinalDay(PAYMENT_TIMING.payoutDay, lang), minimum })} {hold}
      </p>
    </>
  );
}

/** The latest commissions: when, which kind, how much, where they stand, and why that amount. */
function RecentCommissions() {
  const { t } = useTranslation('dashboard');
  const commissions = useAffiliateCommissions();
  return (
    <section className="card" aria-labelledby="dashboard-commissions-title">
      <h3 id="dashboard-commissions-title">{t('payments.commissions.title')}</h3>
      {commissions.isPending ? <SectionLoading /> : null}
      {commissions.isError ? (
        <div className="form-error" role="alert">
          <p>{t('payments.commissions.error')}</p>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => void commissions.refetch()}
            disabled={commissions.isFetching}
          >
            {t('errors.retry')}
          </button>
        </div>
      ) : null}
      {commissions.data?.length === 0 ? <p className="empty-state">{t('payments.commissions.empty')}</p> : null}
      {commissions.data && commissions.data.length > 0 ? <CommissionTable commissions={commissions.data} /> : null}
    </section>
  );
}

function CommissionTable({ commissions }: { commissions: readonly AffiliateCommission[] }) {
  const { t, i18n } = useTranslation('dashboard');
  const { t: tWhy } = useTranslation('affiliate');
  const lang = i18n.language;
  const columns = ['date', 'kind', 'amount', 'status', 'why'] as const;
  return (
    <div className="table-scroll">
      {/* Explicit roles: the cards' CSS display would otherwise hide the table from some screen readers. */}
      <table className="dashboard-table payout-history commission-history" role="table">
        <thead role="rowgroup">
          <tr role="row">
            {columns.map((column) => (
              <th
                key={column}
                scope="col"
                role="columnheader"
                className={column === 'amount' ? 'dashboard-table__number' : undefined}
              >
                {t(`payments.commissions.${column}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {commissions.map((commission) => (
            <tr key={commission.id} role="row">
              <td role="cell" data-label={t('payments.commissions.date')} className="payout-history__payday">
                {formatDay(commission.occurredAt, lang)}
              </td>
              <td role="cell" data-label={t('payments.commissions.kind')}>
                {tWhy(`why.kinds.${commission.why.commissionKind}`)}
              </td>
              <td role="cell" data-label={t('payments.commissions.amount')} className="dashboard-table__number">
                <span>{formatMoney(commission.amountCents, lang)}</span>
              </td>
              <td role="cell" data-label={t('payments.commissions.status')}>
                <span className={`badge dashboard-badge--${commission.status}`}>
                  {t(`payments.commissions.statuses.${commission.status}`)}
                </span>
              </td>
              <td role="cell" data-label={t('payments.commissions.why')} className="commission-history__why">
                {commissionInWords(commission.amountCents, commission.why, tWhy, lang)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PaymentMethodSummaryList({ method }: { method: PaymentMethodSummary }) {
  const { t, i18n } = useTranslation('dashboard');
  const { t: tPayment } = useTranslation('payment');
  if (!method.configured) return <p className="empty-state">{t('payments.method.none')}</p>;
  const rows: [string, string][] =
    method.type === 'paypal'
      ? [
          [tPayment('legend'), tPayment('methods.paypal')],
          [tPayment('fields.paypalEmail'), method.paypalEmail],
        ]
      : [
          [tPayment('legend'), tPayment('methods.bank_transfer')],
          [tPayment('fields.accountHolder'), method.accountHolder],
          [tPayment('fields.bankName'), method.bankName],
          [tPayment('fields.bankIban'), method.ibanMasked],
          [tPayment('fields.bic'), method.bic],
        ];
  return (
    <dl className="facts dashboard-facts">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
      <div>
        <dt>{t('payments.method.updatedAt')}</dt>
        <dd>{formatDay(method.updatedAt, i18n.language)}</dd>
      </div>
    </dl>
  );
}

function PayoutHistory() {
  const { t } = useTranslation('dashboard');
  const payouts = useAffiliatePayouts();
  return (
    <section className="card" aria-labelledby="dashboard-history-title">
      <h3 id="dashboard-history-title">{t('payments.history.title')}</h3>
      {payouts.isPending ? <SectionLoading /> : null}
      {payouts.isError ? (
        <div className="form-error" role="alert">
          <p>{t('payments.history.error')}</p>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => void payouts.refetch()}
            disabled={payouts.isFetching}
          >
            {t('errors.retry')}
          </button>
        </div>
      ) : null}
      {payouts.data?.length === 0 ? <p className="empty-state">{t('payments.history.empty')}</p> : null}
      {payouts.data && payouts.data.length > 0 ? <PayoutTable payouts={payouts.data} /> : null}
    </section>
  );
}

/**
 * When the money left or arrived: the payment date of a paid payout, the sending date of one sent
 * (or sent, then failed); nothing yet for a scheduled one.
 */
export function settledAt(payout: PayoutSummary): string | null {
  if (payout.status === 'paid') return payout.paidAt ?? payout.sentAt ?? null;
  if (payout.status === 'sent' || payout.status === 'failed') return payout.sentAt ?? null;
  return null;
}

/** What a payout paid in another currency than it was earned in (a SEPA transfer is paid in euros). */
export function paidInAnotherCurrency(payout: PayoutSummary): { cents: number; currency: string } | null {
  if (payout.amountPaidCents === undefined || !payout.paidCurrency || payout.paidCurrency === payout.currency)
    return null;
  return { cents: payout.amountPaidCents, currency: payout.paidCurrency };
}

/**
 * The payouts, each with its payday (always the 15th, as the payment rule says) and, as a separate
 * fact, the day it was sent or paid. A table on wide screens; on phones each payout is a card of
 * labelled lines (payments-tab.css), so nothing scrolls sideways.
 */
function PayoutTable({ payouts }: { payouts: readonly PayoutSummary[] }) {
  const { t, i18n } = useTranslation('dashboard');
  const { t: tPayment } = useTranslation('payment');
  const lang = i18n.language;
  const label = {
    payday: t('payments.history.payday'),
    settledOn: t('payments.history.settledOn'),
    period: t('payments.history.period'),
    amount: t('payments.history.amount'),
    method: t('payments.history.method'),
    status: t('payments.history.status'),
  };
  return (
    <div className="table-scroll">
      {/* Explicit roles: the cards' CSS display would otherwise hide the table from some screen readers. */}
      <table className="dashboard-table payout-history" role="table">
        <thead role="rowgroup">
          <tr role="row">
            {(['payday', 'settledOn', 'period', 'amount', 'method', 'status'] as const).map((column) => (
              <th
                key={column}
                scope="col"
                role="columnheader"
                className={column === 'amount' ? 'dashboard-table__number' : undefined}
              >
                {label[column]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {payouts.map((payout) => {
            const settled = settledAt(payout);
            const paid = paidInAnotherCurrency(payout);
            return (
              <tr key={payout.id} role="row">
                <td role="cell" data-label={label.payday} className="payout-history__payday">
                  {formatDay(payout.scheduledFor, lang)}
                </td>
                <td role="cell" data-label={label.settledOn}>
                  {settled ? (
                    formatDay(settled, lang)
                  ) : (
                    <>
                      <span aria-hidden="true">—</span>
                      <span className="visually-hidden">{t('payments.history.notYet')}</span>
                    </>
                  )}
                </td>
                <td role="cell" data-label={label.period}>
                  {t('payments.history.periodRange', {
                    start: formatDay(payout.periodStart, lang),
                    end: formatDay(payout.periodEnd, lang),
                  })}
                </td>
                <td role="cell" data-label={label.amount} className="dashboard-table__number">
                  {/* One element: on phones the cell is a grid of its label and its value. */}
                  <span>
                    {formatMoney(payout.amountCents, lang, payout.currency)}
                    {paid ? (
                      <span className="payout-history__paid">
                        {t('payments.history.paidAs', { paid: formatMoney(paid.cents, lang, paid.currency) })}
                      </span>
                    ) : null}
                  </span>
                </td>
                <td role="cell" data-label={label.method}>
                  {tPayment(`methods.${payout.method}`)}
                </td>
                <td role="cell" data-label={label.status}>
                  <span className={`badge dashboard-badge--${payout.status}`}>
                    {t(`payments.history.statuses.${payout.status}`)}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
