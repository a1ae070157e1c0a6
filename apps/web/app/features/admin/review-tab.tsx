import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  REVIEW_ACTIONS,
  REVIEW_SIGNALS,
  type AdminReviewCase,
  type AdminReviewSignal,
  type ReviewAction,
  type ReviewDecision,
  type ReviewQueueFilter,
  type ReviewSignalKind,
} from '@skanova/shared/admin/review';
import { ADMIN_REASON_MAX } from '@skanova/shared/admin/schemas';
import { callFunction } from '../../lib/callable';
import { formatMoney } from '../../lib/format';
import { useTranslation } from '../../lib/react-i18n';
import { formatCompactDateTime, formatDateTime, useAdminErrorMessage } from './admin-format';
import { useAdminTab } from './admin-tab';
import { AdminTable, ConfirmPanel, ListState, type Notice, NoticeBanner, Pager } from './console-parts';
import { adminKeys, useAdminReviewCase, useAdminReviewCases, useAdminReviewPolicies } from './queries';

// The fraud review (docs/product/review.md#the-review-queue): the queue of cases (open ones newest
// first, or the decided ones), a case with its signals in plain words and their evidence — counts,
// dates, codes, never an e-mail, an IP or an account number — its commissions and the three
// decisions, each confirmed with a reason; and each partner group's policy per signal.

export function ReviewTab() {
  const { t } = useTranslation('admin');
  const [searchParams] = useSearchParams();
  const [, openTab] = useAdminTab();
  const caseId = searchParams.get('case');
  if (caseId) return <ReviewCaseView caseId={caseId} onBack={() => openTab('review')} />;
  return (
    <div className="admin-stack">
      <h2 className="visually-hidden">{t('tabs.review')}</h2>
      <ReviewQueue onOpen={(id) => openTab('review', `?case=${encodeURIComponent(id)}`)} />
      <ReviewPolicies />
    </div>
  );
}

function ReviewQueue({ onOpen }: { onOpen: (caseId: string) => void }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const [status, setStatus] = useState<ReviewQueueFilter>('open');
  const [page, setPage] = useState(1);
  const cases = useAdminReviewCases({ status, page });
  const items = cases.data?.items ?? [];
  return (
    <section className="card" aria-labelledby="admin-review-title">
      <h3 id="admin-review-title">{t('review.queueTitle')}</h3>
      <p className="form-hint">{t('review.queueIntro')}</p>
      <div className="form-field admin-review__filter">
        <label htmlFor="admin-review-status">{t('review.show')}</label>
        <select
          id="admin-review-status"
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as ReviewQueueFilter);
            setPage(1);
          }}
        >
          <option value="open">{t('review.filters.open')}</option>
          <option value="decided">{t('review.filters.decided')}</option>
        </select>
      </div>
      <ListState query={cases} empty={items.length === 0} />
      {items.length > 0 ? (
        <AdminTable
          region={t('review.queueTitle')}
          className="admin-table--stack"
          columns={[
            { label: t('review.columns.openedAt') },
            { label: t('review.columns.affiliate') },
            { label: t('review.columns.signals') },
            { label: t('review.columns.held'), number: true },
            { label: t('review.columns.status') },
            { label: t('review.columns.actions'), hidden: true },
          ]}
        >
          {items.map((item) => (
            <tr key={item.id}>
              <td className="admin-table__date" data-label={t('review.columns.openedAt')}>
                {formatCompactDateTime(item.openedAt, lang)}
              </td>
              <td className="admin-table__wrap" data-label={t('review.columns.affiliate')}>
                {item.affiliateName ?? item.affiliateId}
              </td>
              <td className="admin-table__wrap" data-label={t('review.columns.signals')}>
                {t('review.signalCount', { count: item.signalCount })}
                <span className="admin-table__sub">
                  {item.kinds.map((kind) => t(`review.kinds.${kind}`)).join(', ')}
                </span>
              </td>
              <td className="admin-table__number" data-label={t('review.columns.held')}>
                {formatMoney(item.heldCents, lang)}
              </td>
              <td data-label={t('review.columns.status')}>
                <span className={`badge admin-badge--${item.status}`}>{t(`review.statuses.${item.status}`)}</span>
              </td>
              <td>
                <button
                  type="button"
                  className="button button--secondary button--small"
                  onClick={() => onOpen(item.id)}
                >
                  {t('review.open')}
                  <span className="visually-hidden"> – {item.affiliateName ?? item.affiliateId}</span>
                </button>
              </td>
            </tr>
          ))}
        </AdminTable>
      ) : null}
      <Pager page={cases.data} label={t('review.pages')} onPage={setPage} />
    </section>
  );
}

function ReviewCaseView({ caseId, onBack }: { caseId: string; onBack: () => void }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const [, openTab] = useAdminTab();
  const review = useAdminReviewCase(caseId);
  const [notice, setNotice] = useState<Notice>(null);
  const data = review.data;
  return (
    <div className="admin-stack">
      <h2 className="visually-hidden">{t('tabs.review')}</h2>
      <p>
        <button type="button" className="button button--secondary button--small" onClick={onBack}>
          {t('review.case.back')}
        </button>
      </p>
      <ListState query={review} empty={false} />
      {data ? (
        <>
          <section className="card" aria-labelledby="admin-review-case-title">
            <h3 id="admin-review-case-title">
              {t('review.case.title', { id: data.id, name: data.affiliateName ?? data.affiliateId })}
            </h3>
            <p>
              {t('review.case.summary', {
                opened: formatDateTime(data.openedAt, lang),
                group: data.groupId,
                status: t(`review.statuses.${data.status}`),
              })}
            </p>
            {data.decidedAt ? (
              <p>
                {t('review.case.decided', { date: formatDateTime(data.decidedAt, lang), reason: data.reason ?? '' })}
              </p>
            ) : null}
            <p>
              <button
                type="button"
                className="button button--secondary button--small"
                onClick={() => openTab('affiliates', `?affiliate=${encodeURIComponent(data.affiliateId)}`)}
              >
                {t('review.case.viewAffiliate')}
              </button>
            </p>
            <NoticeBanner notice={notice} />
            {data.status === 'open' ? <ReviewDecisions review={data} onDone={setNotice} /> : null}
          </section>
          <section className="card" aria-labelledby="admin-review-signals-title">
            <h3 id="admin-review-signals-title">{t('review.case.signalsTitle')}</h3>
            <ul className="admin-review__signals">
              {data.signals.map((signal) => (
                <li key={signal.id}>
                  <strong>{t(`review.kinds.${signal.kind}`)}</strong>
                  <span className="admin-table__sub">
                    {t('review.case.detected', {
                      date: formatDateTime(signal.detectedAt, lang),
                      action: t(`review.actions.${signal.action}`),
                    })}
                  </span>
                  <p>
                    <SignalEvidence signal={signal} onAffiliate={(id) => openTab('affiliates', `?affiliate=${id}`)} />
                  </p>
                </li>
              ))}
            </ul>
          </section>
          <ReviewCommissions review={data} />
        </>
      ) : null}
    </div>
  );
}

/** A signal's evidence in plain words: counts, dates, codes and ids, as the server keeps them. */
function SignalEvidence({ signal, onAffiliate }: { signal: AdminReviewSignal; onAffiliate: (id: string) => void }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const evidence = signal.evidence;
  switch (evidence.kind) {
    case 'self-referral':
      if (evidence.installId === null && evidence.matches.length === 1 && evidence.matches[0] === 'signed-in-browser')
        return (
          <>
            {t('review.evidence.self-referral-visit', {
              code: evidence.code ?? '—',
              date: formatDateTime(evidence.at, lang),
            })}
          </>
        );
      return (
        <>
          {t('review.evidence.self-referral', {
            matches: evidence.matches.map((match) => t(`review.evidence.matches.${match}`)).join(', '),
            code: evidence.code ?? '—',
            date: formatDateTime(evidence.at, lang),
          })}
        </>
      );
    case 'shared-payout-account':
      return (
        <>
          {t('review.evidence.shared-payout-account', {
            method: t(`review.evidence.methods.${evidence.method}`),
            count: evidence.affiliateCount,
          })}{' '}
          {t('review.evidence.others')}{' '}
          {evidence.otherAffiliateIds.map((id, index) => (
            <span key={id}>
              {index > 0 ? ', ' : null}
              <button type="button" className="admin-review__link" onClick={() => onAffiliate(id)}>
                {id}
              </button>
            </span>
          ))}
        </>
      );
    case 'click-burst':
      return (
        <>
          {t('review.evidence.click-burst', {
            clicks: evidence.clicks,
            what: t(`review.evidence.burstSources.${evidence.source}`),
            codes: evidence.codes.join(', ') || '—',
            minutes: evidence.windowMinutes,
            threshold: evidence.threshold,
            from: formatDateTime(evidence.from, lang),
            to: formatDateTime(evidence.to, lang),
          })}
        </>
      );
    case 'refund-rate':
      return (
        <>
          {t('review.evidence.refund-rate', {
            refunded: evidence.refunded,
            total: evidence.firstPurchases,
            rate: evidence.ratePercent.toLocaleString(lang),
            threshold: evidence.thresholdPercent,
            minimum: evidence.minimumConversions,
          })}
        </>
      );
    case 'disposable-email':
      return <>{t('review.evidence.disposable-email', { domain: evidence.domain })}</>;
  }
}

function ReviewCommissions({ review }: { review: AdminReviewCase }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  return (
    <section className="card" aria-labelledby="admin-review-commissions-title">
      <h3 id="admin-review-commissions-title">{t('review.case.heldTitle')}</h3>
      <p>{t('review.case.heldTotal', { amount: formatMoney(review.heldCents, lang) })}</p>
      {review.commissions.length === 0 ? (
        <p className="empty-state admin-empty">{t('review.case.noCommissions')}</p>
      ) : (
        <AdminTable
          region={t('review.case.heldTitle')}
          className="admin-table--stack"
          columns={[
            { label: t('review.case.commissionColumns.occurredAt') },
            { label: t('review.case.commissionColumns.code') },
            { label: t('review.case.commissionColumns.kind') },
            { label: t('review.case.commissionColumns.amount'), number: true },
            { label: t('review.case.commissionColumns.state') },
          ]}
        >
          {review.commissions.map((commission) => (
            <tr key={commission.conversionId}>
              <td className="admin-table__date" data-label={t('review.case.commissionColumns.occurredAt')}>
                {formatCompactDateTime(commission.occurredAt, lang)}
              </td>
              <td data-label={t('review.case.commissionColumns.code')}>
                {commission.code ? <code>{commission.code}</code> : '—'}
              </td>
              <td data-label={t('review.case.commissionColumns.kind')}>
                {t(`review.case.commissionKinds.${commission.kind}`)}
              </td>
              <td className="admin-table__number" data-label={t('review.case.commissionColumns.amount')}>
                {formatMoney(commission.commissionCents, lang)}
              </td>
              <td data-label={t('review.case.commissionColumns.state')}>
                {t(`review.case.states.${commission.state}`)}
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}

const OUTCOME: Record<ReviewDecision, 'approved' | 'rejected' | 'banned'> = {
  approve: 'approved',
  reject: 'rejected',
  ban: 'banned',
};

function ReviewDecisions({ review, onDone }: { review: AdminReviewCase; onDone: (notice: Notice) => void }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const errorMessage = useAdminErrorMessage();
  const queryClient = useQueryClient();
  const [deciding, setDeciding] = useState<ReviewDecision | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const decide = useMutation({
    mutationFn: (decision: ReviewDecision) =>
      callFunction('adminDecideReviewCase', { caseId: review.id, decision, reason: reason.trim() }),
    onSuccess: (result, decision) => {
      setDeciding(null);
      onDone({
        kind: 'success',
        text: t(`review.decisions.outcomes.${OUTCOME[decision]}`, { count: result.commissions }),
      });
    },
    onError: (failure) => setError(errorMessage(failure)),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.review }),
        queryClient.invalidateQueries({ queryKey: adminKeys.affiliate(review.affiliateId) }),
        queryClient.invalidateQueries({ queryKey: adminKeys.affiliates }),
        queryClient.invalidateQueries({ queryKey: adminKeys.conversions }),
      ]),
  });
  const amount = formatMoney(review.heldCents, lang);
  return (
    <div className="admin-review__decisions">
      <h4>{t('review.case.decisionsTitle')}</h4>
      <div className="form-actions">
        {(['approve', 'reject', 'ban'] as const).map((decision) => (
          <button
            key={decision}
            type="button"
            className={decision === 'approve' ? 'button button--primary' : 'button button--secondary'}
            aria-expanded={deciding === decision}
            onClick={() => {
              setError(null);
              setReason('');
              setDeciding(decision);
            }}
          >
            {t(`review.decisions.${decision}`)}
          </button>
        ))}
      </div>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {deciding ? (
        <ConfirmPanel
          key={deciding}
          id="admin-review-decide"
          title={t(`review.decisions.confirm.${deciding}.title`, { id: review.id })}
          text={t(`review.decisions.confirm.${deciding}.text`, { amount })}
          confirmLabel={t(`review.decisions.${deciding}`)}
          busy={decide.isPending}
          danger={deciding !== 'approve'}
          reason={{ required: true, value: reason, onChange: setReason, maxLength: ADMIN_REASON_MAX }}
          onConfirm={() => decide.mutate(deciding)}
          onCancel={() => setDeciding(null)}
        />
      ) : null}
    </div>
  );
}

function ReviewPolicies() {
  const { t } = useTranslation('admin');
  const policies = useAdminReviewPolicies();
  const queryClient = useQueryClient();
  const errorMessage = useAdminErrorMessage();
  const [notice, setNotice] = useState<Notice>(null);
  const save = useMutation({
    mutationFn: (change: { groupId: string; signal: ReviewSignalKind; action: ReviewAction }) =>
      callFunction('adminSetReviewPolicy', change),
    onSuccess: (result, change) => {
      queryClient.setQueryData(adminKeys.reviewPolicies, result);
      const group = result.groups.find((g) => g.groupId === change.groupId)?.name ?? change.groupId;
      setNotice({
        kind: 'success',
        text: t('review.policies.saved', {
          signal: t(`review.kinds.${change.signal}`),
          group,
          action: t(`review.actions.${change.action}`),
        }),
      });
    },
    onError: (failure) => setNotice({ kind: 'error', text: errorMessage(failure) }),
  });
  const groups = policies.data?.groups ?? [];
  return (
    <section className="card" aria-labelledby="admin-review-policies-title">
      <h3 id="admin-review-policies-title">{t('review.policies.title')}</h3>
      <p className="form-hint">{t('review.policies.intro')}</p>
      <NoticeBanner notice={notice} />
      <ListState query={policies} empty={groups.length === 0} />
      {groups.length > 0 ? (
        <AdminTable
          region={t('review.policies.title')}
          className="admin-table--stack admin-review__policies"
          columns={[
            { label: t('review.policies.group') },
            ...REVIEW_SIGNALS.map((signal) => ({ label: t(`review.kinds.${signal}`) })),
          ]}
        >
          {groups.map((group) => (
            <tr key={group.groupId}>
              <th scope="row" data-label={t('review.policies.group')}>
                {group.name}
              </th>
              {REVIEW_SIGNALS.map((signal) => (
                <td key={signal} className="admin-table__code" data-label={t(`review.kinds.${signal}`)}>
                  <select
                    aria-label={t('review.policies.label', { signal: t(`review.kinds.${signal}`), group: group.name })}
                    value={group.actions[signal]}
                    disabled={save.isPending}
                    onChange={(event) =>
                      save.mutate({ groupId: group.groupId, signal, action: event.target.value as ReviewAction })
                    }
                  >
                    {REVIEW_ACTIONS.map((action) => (
                      <option key={action} value={action}>
                        {t(`review.actions.${action}`)}
                      </option>
                    ))}
                  </select>
                </td>
              ))}
            </tr>
          ))}
        </AdminTable>
      ) : null}
    </section>
  );
}
