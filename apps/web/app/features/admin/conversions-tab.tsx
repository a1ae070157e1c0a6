import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ADMIN_REASON_MAX, CONVERSION_STATUSES, type ConversionStatus } from '@skanova/shared/admin/schemas';
import type { AdminConversion } from '@skanova/shared/admin/responses';
import { callFunction } from '../../lib/callable';
import { useTranslation } from '../../lib/react-i18n';
import { formatDay, formatMoney } from '../../lib/format';
import { commissionInWords } from '../../lib/reward-words';
import { formatCompactDateTime, formatDateTime, useAdminErrorMessage } from './admin-format';
import { useAdminTab } from './admin-tab';
import { AdminTable, ConfirmPanel, ListState, type Notice, NoticeBanner, Pager } from './console-parts';
import { adminKeys, useAdminConversions } from './queries';

// Conversions (docs/product/money.md#commission-hold, docs/product/routes-and-screens.md#operator-console): every affiliate's, filtered by status, code and days (and by
// affiliate when opened from one), newest first, each with why it is its amount
// (docs/product/money.md#operators-groups-rules-and-campaigns); a commission can be taken back with a reason.

interface Filters {
  status?: ConversionStatus;
  code?: string;
  from?: string;
  to?: string;
}

export function ConversionsTab() {
  const { t } = useTranslation('admin');
  const [searchParams] = useSearchParams();
  const [, openTab] = useAdminTab();
  const affiliateId = searchParams.get('affiliate') ?? undefined;
  const [draft, setDraft] = useState({ status: '', code: '', from: '', to: '' });
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  const conversions = useAdminConversions({ ...filters, ...(affiliateId ? { affiliateId } : {}), page });
  const items = conversions.data?.items ?? [];

  function onFilter(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: Filters = {};
    if (draft.status) next.status = draft.status as ConversionStatus;
    if (draft.code.trim()) next.code = draft.code.trim();
    if (draft.from) next.from = draft.from;
    if (draft.to) next.to = draft.to;
    setFilters(next);
    setPage(1);
  }

  return (
    <div className="admin-stack">
      <h2 className="visually-hidden">{t('tabs.conversions')}</h2>
      <form className="card admin-filters" onSubmit={onFilter} aria-label={t('conversions.filtersLabel')}>
        <div className="form-field">
          <label htmlFor="admin-conversions-status">{t('conversions.status')}</label>
          <select
            id="admin-conversions-status"
            value={draft.status}
            onChange={(event) => setDraft({ ...draft, status: event.target.value })}
          >
            <option value="">{t('conversions.statuses.all')}</option>
            {CONVERSION_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`conversions.statuses.${status}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="form-field">
          <label htmlFor="admin-conversions-code">{t('conversions.code')}</label>
          <input
            id="admin-conversions-code"
            value={draft.code}
            maxLength={32}
            onChange={(event) => setDraft({ ...draft, code: event.target.value })}
          />
        </div>
        <div className="form-field">
          <label htmlFor="admin-conversions-from">{t('conversions.from')}</label>
          <input
            id="admin-conversions-from"
            type="date"
            value={draft.from}
            onChange={(event) => setDraft({ ...draft, from: event.target.value })}
          />
        </div>
        <div className="form-field">
          <label htmlFor="admin-conversions-to">{t('conversions.to')}</label>
          <input
            id="admin-conversions-to"
            type="date"
            value={draft.to}
            onChange={(event) => setDraft({ ...draft, to: event.target.value })}
          />
        </div>
        <div className="form-actions">
          <button type="submit" className="button button--primary">
            {t('conversions.filter')}
          </button>
        </div>
      </form>
      {affiliateId ? (
        <p className="form-info admin-banner">
          <span>{t('conversions.ofAffiliate', { id: affiliateId })}</span>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => openTab('conversions')}
          >
            {t('conversions.allAffiliates')}
          </button>
        </p>
      ) : null}
      <section className="card" aria-labelledby="admin-conversions-title">
        <h3 id="admin-conversions-title">{t('conversions.title')}</h3>
        <ListState query={conversions} empty={items.length === 0} />
        {items.length > 0 ? <ConversionsTable conversions={items} /> : null}
        <Pager page={conversions.data} label={t('conversions.pages')} onPage={setPage} />
      </section>
    </div>
  );
}

function ConversionsTable({ conversions }: { conversions: AdminConversion[] }) {
  const { t, i18n } = useTranslation('admin');
  const { t: tWhy } = useTranslation('affiliate');
  const lang = i18n.language;
  const [reversing, setReversing] = useState<AdminConversion | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  return (
    <>
      <NoticeBanner notice={notice} />
      <AdminTable
        region={t('conversions.title')}
        className="admin-table--stack"
        columns={[
          { label: t('conversions.columns.occurredAt') },
          { label: t('conversions.columns.affiliate') },
          { label: t('conversions.columns.code') },
          { label: t('conversions.columns.commission'), number: true },
          { label: t('conversions.columns.why') },
          { label: t('conversions.columns.status') },
          { label: t('conversions.columns.actions'), hidden: true },
        ]}
      >
        {conversions.map((conversion) => (
          <tr key={conversion.id}>
            <td className="admin-table__date" data-label={t('conversions.columns.occurredAt')}>
              {formatCompactDateTime(conversion.occurredAt, lang)}
            </td>
            <td className="admin-table__wrap" data-label={t('conversions.columns.affiliate')}>
              {conversion.affiliateName ?? '—'}
              {conversion.affiliateEmail ? <span className="admin-table__sub">{conversion.affiliateEmail}</span> : null}
            </td>
            <td data-label={t('conversions.columns.code')}>{conversion.code ? <code>{conversion.code}</code> : '—'}</td>
            <td className="admin-table__number" data-label={t('conversions.columns.commission')}>
              {formatMoney(conversion.commissionCents, lang)}
              {conversion.rateTier === 'premium' ? (
                <span className="admin-table__sub">{t('conversions.premium')}</span>
              ) : null}
            </td>
            <td className="admin-table__wrap admin-table__why" data-label={t('conversions.columns.why')}>
              <span className="admin-table__kind">{t(`conversions.kinds.${conversion.why.commissionKind}`)}</span>
              <span className="admin-table__sub">
                {commissionInWords(conversion.commissionCents, conversion.why, tWhy, lang)}
              </span>
            </td>
            <td data-label={t('conversions.columns.status')}>
              <span className={`badge admin-badge--${conversion.status}`}>
                {t(`conversions.statuses.${conversion.status}`)}
              </span>
              {conversion.refundedAt ? (
                <span className="admin-table__sub">
                  {t('conversions.refunded', { date: formatDay(conversion.refundedAt, lang) })}
                </span>
              ) : null}
              {conversion.reversalReason ? <span className="admin-table__sub">{conversion.reversalReason}</span> : null}
            </td>
            <td>
              {conversion.status !== 'reversed' && !conversion.refundedAt ? (
                <button
                  type="button"
                  className="button button--secondary button--small"
                  onClick={() => {
                    setNotice(null);
                    setReversing(conversion);
                  }}
                >
                  {t('conversions.reverse')}
                  <span className="visually-hidden">
                    {' '}
                    –{' '}
                    {t('conversions.describe', {
                      amount: formatMoney(conversion.commissionCents, lang),
                      date: formatDateTime(conversion.occurredAt, lang),
                    })}
                  </span>
                </button>
              ) : null}
            </td>
          </tr>
        ))}
      </AdminTable>
      {reversing ? (
        <ReverseConversion
          key={reversing.id}
          conversion={reversing}
          onDone={(result) => {
            setReversing(null);
            if (result) setNotice(result);
          }}
        />
      ) : null}
    </>
  );
}

function ReverseConversion({ conversion, onDone }: { conversion: AdminConversion; onDone: (notice: Notice) => void }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const errorMessage = useAdminErrorMessage();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reverse = useMutation({
    mutationFn: () => callFunction('adminReverseConversion', { conversionId: conversion.id, reason: reason.trim() }),
    onSuccess: (result) => onDone({ kind: 'success', text: t(`conversions.outcomes.${result.outcome}`) }),
    onError: (failure) => setError(errorMessage(failure)),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.conversions }),
        queryClient.invalidateQueries({ queryKey: adminKeys.affiliate(conversion.affiliateId) }),
        queryClient.invalidateQueries({ queryKey: adminKeys.affiliates }),
      ]),
  });
  return (
    <>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <ConfirmPanel
        id="admin-reverse"
        title={t('conversions.confirm.title', {
          amount: formatMoney(conversion.commissionCents, lang),
          name: conversion.affiliateName ?? conversion.affiliateEmail ?? conversion.affiliateId,
        })}
        text={t('conversions.confirm.text')}
        confirmLabel={t('conversions.reverse')}
        busy={reverse.isPending}
        danger
        reason={{ required: true, value: reason, onChange: setReason, maxLength: ADMIN_REASON_MAX }}
        onConfirm={() => reverse.mutate()}
        onCancel={() => onDone(null)}
      />
    </>
  );
}
