import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ADMIN_REASON_MAX, type AdminAffiliateAction } from '@skanova/shared/admin/schemas';
import type { AdminAffiliateDetail } from '@skanova/shared/admin/responses';
import { callFunction } from '../../lib/callable';
import { useTranslation } from '../../lib/react-i18n';
import { formatCount, formatDay, formatMoney, formatPercent } from '../../lib/format';
import { useAdminErrorMessage } from './admin-format';
import { useAdminTab } from './admin-tab';
import { AffiliateStatusBadge, displayName } from './affiliate-parts';
import { AffiliateGroup, CampaignRates } from './affiliate-rewards';
import { AdminTable, ConfirmPanel, ListState, type Notice, NoticeBanner, useFocusOnMount } from './console-parts';
import { adminKeys, useAdminAffiliate } from './queries';

// One affiliate in the console: who they are, their account's state, the figures their dashboard
// shows, their codes' campaign rates and their partner group, their payouts, and the decisions an
// operator can take on them, each confirmed first.

/** The decisions open to the operator for this affiliate, in the order they are offered. */
export function availableActions(
  detail: AdminAffiliateDetail['affiliate'],
  operatorEmail: string,
): AdminAffiliateAction[] {
  if (detail.deleted) return [];
  const actions: AdminAffiliateAction[] = [];
  if (detail.status !== 'active') actions.push('approve');
  if (detail.status === 'pending') actions.push('refuse');
  if (detail.disabled) actions.push('enable');
  else if (detail.email !== operatorEmail) actions.push('disable');
  return actions;
}

export function AffiliateDetail({
  affiliateId,
  operatorEmail,
  onClose,
}: {
  affiliateId: string;
  operatorEmail: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const detail = useAdminAffiliate(affiliateId);
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const name = detail.data ? (displayName(detail.data.affiliate) ?? t('affiliates.noName')) : '';
  return (
    <section className="card admin-detail" aria-labelledby="admin-detail-title">
      <div className="admin-detail__top">
        <h3 id="admin-detail-title" ref={heading} tabIndex={-1}>
          {detail.data ? t('detail.title', { name }) : t('detail.loadingTitle')}
        </h3>
        <button type="button" className="button button--ghost button--small" onClick={onClose}>
          {t('detail.close')}
        </button>
      </div>
      <ListState query={detail} empty={false} />
      {detail.data ? <DetailBody detail={detail.data} operatorEmail={operatorEmail} /> : null}
    </section>
  );
}

function DetailBody({ detail, operatorEmail }: { detail: AdminAffiliateDetail; operatorEmail: string }) {
  const { t, i18n } = useTranslation('admin');
  const { t: tPayment } = useTranslation('payment');
  const [, openTab] = useAdminTab();
  const lang = i18n.language;
  const { affiliate, stats, payouts } = detail;
  const facts: [string, string][] = [
    [t('detail.email'), affiliate.email ?? '—'],
    [t('detail.phone'), affiliate.phone ?? '—'],
    [t('detail.company'), affiliate.companyName ?? '—'],
    [t('detail.website'), affiliate.website ?? '—'],
    [t('detail.language'), t(`detail.languages.${affiliate.language}`)],
    [
      t('detail.paymentMethod'),
      affiliate.paymentMethod ? tPayment(`methods.${affiliate.paymentMethod}`) : t('detail.noPaymentMethod'),
    ],
    [t('detail.joined'), formatDay(affiliate.createdAt, lang)],
    [t('detail.lastActive'), affiliate.lastActiveAt ? formatDay(affiliate.lastActiveAt, lang) : '—'],
  ];
  const figures: [string, string][] = [
    [t('detail.stats.clicks'), formatCount(stats.totalClicks, lang)],
    [t('detail.stats.conversions'), formatCount(stats.totalConversions, lang)],
    [t('detail.stats.rate'), formatPercent(stats.conversionRate, lang)],
    [t('detail.stats.last30Days'), formatCount(stats.last30DaysCount, lang)],
    [t('detail.stats.earnings'), formatMoney(stats.totalEarningsCents, lang)],
    [t('detail.stats.unpaid'), formatMoney(stats.unpaidEarningsCents, lang)],
    [
      t('detail.stats.nextPayout'),
      t('detail.stats.nextPayoutValue', {
        amount: formatMoney(stats.nextPayout.payableCents, lang),
        date: formatDay(stats.nextPayout.date, lang),
      }),
    ],
  ];
  return (
    <div className="admin-detail__body">
      <p className="admin-detail__status">
        <AffiliateStatusBadge affiliate={affiliate} />
        {affiliate.disabled && affiliate.disabledReason ? (
          <span>{t('detail.disabledReason', { reason: affiliate.disabledReason })}</span>
        ) : null}
      </p>
      <div className="columns admin-columns">
        <dl className="facts" aria-label={t('detail.profile')}>
          {facts.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <dl className="facts" aria-label={t('detail.stats.title')}>
          {figures.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </div>
      <h4>{t('detail.codes')}</h4>
      {stats.referralCodes.length === 0 ? (
        <p className="empty-state admin-empty">{t('detail.noCodes')}</p>
      ) : (
        <ul className="admin-codes">
          {stats.referralCodes.map((code) => (
            <li key={code.code}>
              <code>{code.code}</code>{' '}
              {t('detail.codeCounts', { clicks: code.clickCount, conversions: code.conversionCount })}
            </li>
          ))}
        </ul>
      )}
      <p>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => openTab('conversions', `?affiliate=${encodeURIComponent(affiliate.id)}`)}
        >
          {t('detail.showConversions')}
        </button>
      </p>
      <CampaignRates affiliateId={affiliate.id} codes={stats.referralCodes.map((code) => code.code)} />
      <AffiliateGroup affiliate={affiliate} />
      <h4>{t('detail.payouts')}</h4>
      {payouts.length === 0 ? (
        <p className="empty-state admin-empty">{t('detail.noPayouts')}</p>
      ) : (
        <AdminTable
          region={t('detail.payouts')}
          columns={[
            { label: t('payouts.columns.payday') },
            { label: t('payouts.columns.amount'), number: true },
            { label: t('payouts.columns.method') },
            { label: t('payouts.columns.status') },
          ]}
        >
          {payouts.map((payout) => (
            <tr key={payout.id}>
              <td>{formatDay(payout.scheduledFor, lang)}</td>
              <td className="admin-table__number">{formatMoney(payout.amountCents, lang, payout.currency)}</td>
              <td>{tPayment(`methods.${payout.method}`)}</td>
              <td>
                <span className={`badge admin-badge--${payout.status}`}>{t(`payouts.statuses.${payout.status}`)}</span>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      <Decisions detail={detail} operatorEmail={operatorEmail} />
    </div>
  );
}

function Decisions({ detail, operatorEmail }: { detail: AdminAffiliateDetail; operatorEmail: string }) {
  const { t } = useTranslation('admin');
  const errorMessage = useAdminErrorMessage();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<AdminAffiliateAction | null>(null);
  const [reason, setReason] = useState('');
  const [notice, setNotice] = useState<Notice>(null);
  // Where the focus goes once the confirmation closes: the button that opened it (Cancel), or the
  // section's heading (the decision was taken and the buttons change).
  const [refocus, setRefocus] = useState<AdminAffiliateAction | 'heading' | null>(null);
  const buttons = useRef(new Map<AdminAffiliateAction, HTMLButtonElement>());
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (refocus === null) return;
    (refocus === 'heading' ? heading.current : buttons.current.get(refocus))?.focus();
    setRefocus(null);
  }, [refocus]);
  const { affiliate } = detail;
  const name = displayName(affiliate) ?? affiliate.email ?? affiliate.id;
  const decide = useMutation({
    mutationFn: (action: AdminAffiliateAction) =>
      callFunction('adminSetAffiliateStatus', {
        affiliateId: affiliate.id,
        action,
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      }),
    onSuccess: (_result, action) => {
      setNotice({ kind: 'success', text: t(`decisions.done.${action}`, { name }) });
      setPending(null);
      setReason('');
      setRefocus('heading');
    },
    onError: (error) => setNotice({ kind: 'error', text: errorMessage(error) }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.affiliate(affiliate.id) }),
        queryClient.invalidateQueries({ queryKey: adminKeys.affiliates }),
        queryClient.invalidateQueries({ queryKey: adminKeys.audit }),
      ]),
  });
  const actions = availableActions(affiliate, operatorEmail);
  return (
    <div className="admin-decisions">
      <h4 ref={heading} tabIndex={-1}>
        {t('decisions.title')}
      </h4>
      <NoticeBanner notice={notice} />
      {actions.length === 0 ? <p className="empty-state admin-empty">{t('decisions.none')}</p> : null}
      {pending === null ? (
        <div className="button-row">
          {actions.map((action) => (
            <button
              key={action}
              ref={(element) => {
                if (element) buttons.current.set(action, element);
                else buttons.current.delete(action);
              }}
              type="button"
              className={`button ${action === 'disable' || action === 'refuse' ? 'button--danger' : 'button--secondary'}`}
              onClick={() => {
                setNotice(null);
                setPending(action);
              }}
            >
              {t(`decisions.actions.${action}`)}
            </button>
          ))}
        </div>
      ) : (
        <ConfirmPanel
          id="admin-decision"
          title={t(`decisions.confirm.${pending}.title`, { name })}
          text={t(`decisions.confirm.${pending}.text`)}
          confirmLabel={t(`decisions.actions.${pending}`)}
          busy={decide.isPending}
          danger={pending === 'disable' || pending === 'refuse'}
          reason={
            pending === 'refuse' || pending === 'disable'
              ? { required: false, value: reason, onChange: setReason, maxLength: ADMIN_REASON_MAX }
              : undefined
          }
          onConfirm={() => decide.mutate(pending)}
          onCancel={() => {
            setRefocus(pending);
            setPending(null);
            setReason('');
          }}
        />
      )}
    </div>
  );
}
