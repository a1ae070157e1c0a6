import type { UnpaidEarnings } from '@skanova/shared/affiliate/stats';
import { COMMISSION_HOLD_DAYS } from '@skanova/shared/affiliate/programme';
import type { AffiliateRule } from '@skanova/shared/rewards/functions';
import { formatCount, formatDay, formatMoney } from '../../lib/format';
import { useTranslation } from '../../lib/react-i18n';
import { useAffiliateUnpaidEarnings } from './queries';

// Why the next payment is less than the unpaid earnings (docs/product/routes-and-screens.md#payments-tab):
// what the next payday pays, then each part of the rest with its reason — the hold of the affiliate's
// own rule with the day each pending amount becomes payable and the payday that pays it, the earnings
// approved since the cut-off, a balance under the minimum, the review, a payout on its way.

/** How many days of pending amounts are listed before the rest folds away. */
const DAYS_SHOWN = 5;

/** What the next payday pays of the unpaid earnings: nothing under the minimum (it rolls over). */
export function paidOnNextPayday(unpaid: UnpaidEarnings): number {
  return unpaid.payableOnNextPaydayCents >= unpaid.minimumCents ? unpaid.payableOnNextPaydayCents : 0;
}

/** The parts of the unpaid earnings the next payday does not pay, in the order they are explained. */
export function unpaidParts(unpaid: UnpaidEarnings) {
  const belowMinimum = unpaid.payableOnNextPaydayCents - paidOnNextPayday(unpaid);
  return (
    [
      ['pending', unpaid.pendingCents],
      ['later', unpaid.payableLaterCents],
      ['belowMinimum', belowMinimum],
      ['underReview', unpaid.underReviewCents],
      ['inPayout', unpaid.inPayoutCents],
    ] as const
  ).filter(([, cents]) => cents !== 0);
}

export function UnpaidEarningsCard({ rule }: { rule: AffiliateRule | undefined }) {
  const { t, i18n } = useTranslation('dashboard');
  const lang = i18n.language;
  const query = useAffiliateUnpaidEarnings();
  const unpaid = query.data;
  // Nothing to explain when the next payday pays all of it (or there is nothing).
  if (!unpaid || unpaidParts(unpaid).length === 0) return null;
  const money = (cents: number) => formatMoney(cents, lang);
  const paid = paidOnNextPayday(unpaid);
  const holdDays = rule && !rule.specificationRule ? rule.rule.holdDays : COMMISSION_HOLD_DAYS;
  const minimum = money(unpaid.minimumCents);
  const explanation = {
    pending: holdDays > 0 ? t('payments.unpaid.pendingWhy', { count: holdDays }) : t('payments.unpaid.pendingWhyNone'),
    later: t('payments.unpaid.laterWhy', {
      cutoff: formatDay(unpaid.cutoff, lang),
      payday: formatDay(unpaid.followingPayday, lang),
    }),
    belowMinimum: t('payments.unpaid.belowMinimumWhy', { minimum }),
    underReview: t('payments.next.underReviewNote'),
    inPayout: t('payments.unpaid.inPayoutWhy'),
  };
  return (
    <section className="card unpaid-earnings" aria-labelledby="dashboard-unpaid-title">
      <h3 id="dashboard-unpaid-title">{t('payments.unpaid.title')}</h3>
      <p>
        {t(paid > 0 ? 'payments.unpaid.intro' : 'payments.unpaid.introNothing', {
          unpaid: money(unpaid.unpaidCents),
          paid: money(paid),
          payday: formatDay(unpaid.nextPayday, lang),
        })}
      </p>
      <ul className="unpaid-earnings__parts">
        {unpaidParts(unpaid).map(([part, cents]) => (
          <li key={part}>
            <p className="unpaid-earnings__part">
              <span>{t(`payments.unpaid.parts.${part}`, { minimum })}</span>
              <strong className="amount">{money(cents)}</strong>
            </p>
            <p className="form-hint">{explanation[part]}</p>
            {part === 'pending' ? <PendingDays unpaid={unpaid} /> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The pending amounts by the day their hold ends, and the payday that pays each. */
function PendingDays({ unpaid }: { unpaid: UnpaidEarnings }) {
  const { t, i18n } = useTranslation('dashboard');
  const lang = i18n.language;
  const caption = t('payments.unpaid.days.caption', { minimum: formatMoney(unpaid.minimumCents, lang) });
  const label = {
    payableOn: t('payments.unpaid.days.payableOn'),
    amount: t('payments.unpaid.days.amount'),
    payday: t('payments.unpaid.days.payday'),
  };
  // The payout history's table (payments-tab.css): on a phone each day is a card of labelled lines.
  const table = (days: UnpaidEarnings['pending'], caption: string) => (
    <div className="table-scroll">
      {/* Explicit roles: the cards' CSS display would otherwise hide the table from some screen readers. */}
      <table className="dashboard-table payout-history unpaid-earnings__days" role="table">
        <caption>{caption}</caption>
        <thead role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader">
              {label.payableOn}
            </th>
            <th scope="col" role="columnheader" className="dashboard-table__number">
              {label.amount}
            </th>
            <th scope="col" role="columnheader">
              {label.payday}
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {days.map((day) => (
            <tr key={day.payableOn} role="row">
              <td role="cell" data-label={label.payableOn} className="payout-history__payday">
                {formatDay(day.payableOn, lang)}
              </td>
              <td role="cell" data-label={label.amount} className="dashboard-table__number">
                {/* One element: on phones the cell is a grid of its label and its value. */}
                <span>
                  {formatMoney(day.cents, lang)}
                  <span className="unpaid-earnings__count">
                    {t('payments.unpaid.days.commissions', {
                      count: day.commissions,
                      formatted: formatCount(day.commissions, lang),
                    })}
                  </span>
                </span>
              </td>
              <td role="cell" data-label={label.payday}>
                {formatDay(day.payday, lang)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
  const first = unpaid.pending.slice(0, DAYS_SHOWN);
  const rest = unpaid.pending.slice(DAYS_SHOWN);
  return (
    <>
      {table(first, caption)}
      {rest.length > 0 ? (
        <details className="unpaid-earnings__more">
          <summary>{t('payments.unpaid.days.more', { count: rest.length })}</summary>
          {table(rest, t('payments.unpaid.days.moreCaption'))}
        </details>
      ) : null}
    </>
  );
}
