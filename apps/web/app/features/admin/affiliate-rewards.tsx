import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { AdminAffiliateProfile } from '@skanova/shared/admin/responses';
import { checkForm } from '@skanova/shared/callable/field-errors';
import { RULE_KINDS, type RuleKind } from '@skanova/shared/rewards/constants';
import { basisPointsFromPercent, centsFromDollars } from '@skanova/shared/rewards/form-values';
import type { AdminCampaignRate } from '@skanova/shared/rewards/functions';
import { type AdminCreateCampaignRateRequest, adminCreateCampaignRateSchema } from '@skanova/shared/rewards/schemas';
import { callFunction } from '../../lib/callable';
import { type FieldError, callFieldErrors, fieldErrorText } from '../../lib/form-errors';
import { formatDay } from '../../lib/format';
import { useTranslation } from '../../lib/react-i18n';
import { ruleAmount, rulePercent } from '../../lib/reward-words';
import { useAdminErrorMessage } from './admin-format';
import { displayName } from './affiliate-parts';
import { ConsoleError, ConsoleField, ConsoleInput } from './console-form';
import { ConfirmPanel, type Notice, NoticeBanner } from './console-parts';
import { adminKeys, useAdminCampaignRates, useAdminGroups } from './queries';

// An affiliate's partner group and their codes' campaign rates, on their page in the console
// (docs/product/money.md#operators-groups-rules-and-campaigns): moving them to another group is
// confirmed first and audited; each referral code lists its campaign rates, takes a new one and lets
// one that priced nothing go.

export function AffiliateGroup({ affiliate }: { affiliate: AdminAffiliateProfile }) {
  const { t } = useTranslation('admin');
  const errorMessage = useAdminErrorMessage();
  const queryClient = useQueryClient();
  const groups = useAdminGroups();
  const targets = (groups.data ?? []).filter((group) => !group.archivedAt && group.id !== affiliate.groupId);
  const [target, setTarget] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [notice, setNotice] = useState<Notice>(null);
  const chosen = targets.find((group) => group.id === target) ?? targets[0];
  const name = displayName(affiliate) ?? affiliate.email ?? affiliate.id;
  const move = useMutation({
    mutationFn: (groupId: string) => callFunction('adminMoveAffiliateToGroup', { affiliateId: affiliate.id, groupId }),
    onSuccess: () => {
      setConfirming(false);
      setTarget('');
      setNotice({ kind: 'success', text: t('move.done', { name, group: chosen?.name ?? '' }) });
    },
    onError: (error) => {
      setConfirming(false);
      const fields = callFieldErrors(error);
      setErrors(fields);
      setNotice(fields.length > 0 ? null : { kind: 'error', text: errorMessage(error) });
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.affiliate(affiliate.id) }),
        queryClient.invalidateQueries({ queryKey: adminKeys.groups }),
        queryClient.invalidateQueries({ queryKey: adminKeys.audit }),
      ]),
  });
  return (
    <div className="admin-group-move">
      <h4>{t('move.title')}</h4>
      <NoticeBanner notice={notice} />
      <dl className="facts">
        <div>
          <dt>{t('move.current')}</dt>
          <dd>
            {affiliate.groupName} <code>{affiliate.groupId}</code>
          </dd>
        </div>
      </dl>
      {affiliate.deleted ? null : confirming && chosen ? (
        <ConfirmPanel
          id="admin-move-confirm"
          title={t('move.confirmTitle', { name, group: chosen.name })}
          text={t('move.confirmText', { group: chosen.name })}
          confirmLabel={t('move.submit')}
          busy={move.isPending}
          onConfirm={() => move.mutate(chosen.id)}
          onCancel={() => setConfirming(false)}
        />
      ) : targets.length === 0 ? (
        groups.data ? (
          <p className="empty-state admin-empty">{t('move.none')}</p>
        ) : null
      ) : (
        <form
          className="admin-filters admin-filters--top"
          onSubmit={(event) => {
            event.preventDefault();
            setNotice(null);
            setErrors([]);
            setConfirming(true);
          }}
        >
          <ConsoleField id="admin-move-group" path="groupId" label={t('move.select')} errors={errors}>
            {(control) => (
              <select {...control} value={chosen?.id ?? ''} onChange={(event) => setTarget(event.target.value)}>
                {targets.map((group) => (
                  <option key={group.id} value={group.id}>
                    {group.name}
                  </option>
                ))}
              </select>
            )}
          </ConsoleField>
          <div className="form-actions">
            <button type="submit" className="button button--secondary">
              {t('move.submit')}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

/** A campaign rate's first and last days (its end is 00:00 UTC after the last day). */
function rangeDays(rate: AdminCampaignRate, lang: string): { from: string; until: string } {
  const lastDay = new Date(new Date(rate.endsAt).getTime() - 1).toISOString();
  return { from: formatDay(rate.startsAt, lang), until: formatDay(lastDay, lang) };
}

export function CampaignRates({ affiliateId, codes }: { affiliateId: string; codes: readonly string[] }) {
  const { t } = useTranslation('admin');
  const rates = useAdminCampaignRates(affiliateId);
  if (codes.length === 0) return null;
  return (
    <div className="admin-campaigns">
      <h4>{t('campaigns.title')}</h4>
      <p className="form-hint">{t('campaigns.lead')}</p>
      {codes.map((code) => (
        <CodeCampaigns
          key={code}
          affiliateId={affiliateId}
          code={code}
          rates={(rates.data ?? []).filter((rate) => rate.code === code)}
        />
      ))}
    </div>
  );
}

function CodeCampaigns({
  affiliateId,
  code,
  rates,
}: {
  affiliateId: string;
  code: string;
  rates: AdminCampaignRate[];
}) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const errorMessage = useAdminErrorMessage();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<AdminCampaignRate | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const remove = useMutation({
    mutationFn: (rate: AdminCampaignRate) => callFunction('adminDeleteCampaignRate', { campaignRateId: rate.id }),
    onSuccess: (answer) => {
      setDeleting(null);
      setNotice({ kind: 'success', text: t('campaigns.deleted', { id: answer.deleted }) });
    },
    onError: (error) => {
      setDeleting(null);
      const [field] = callFieldErrors(error);
      setNotice({ kind: 'error', text: field ? fieldErrorText(t, field) : errorMessage(error) });
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.campaignRates(affiliateId) }),
        queryClient.invalidateQueries({ queryKey: adminKeys.audit }),
      ]),
  });
  const headingId = `admin-campaigns-${code}`;
  return (
    <section className="admin-campaigns__code" aria-labelledby={headingId}>
      <h5 id={headingId}>{t('campaigns.ofCode', { code })}</h5>
      <NoticeBanner notice={notice} />
      {rates.length === 0 ? (
        <p className="form-hint">{t('campaigns.none')}</p>
      ) : (
        <ul className="admin-campaigns__list">
          {rates.map((rate) => (
            <li key={rate.id}>
              <span>
                <strong>{t('campaigns.rateNumber', { id: rate.id })}</strong> ·{' '}
                {t('campaigns.range', rangeDays(rate, lang))} ·{' '}
                {rate.kind === 'flat'
                  ? ruleAmount(rate.amountCents ?? 0, lang)
                  : rulePercent(rate.percentBasisPoints ?? 0, lang)}
                {rate.commissions > 0 ? (
                  <span className="admin-table__sub">{t('campaigns.used', { count: rate.commissions })}</span>
                ) : null}
              </span>
              {rate.commissions === 0 && deleting?.id !== rate.id ? (
                <button
                  type="button"
                  className="button button--ghost button--small"
                  onClick={() => {
                    setNotice(null);
                    setDeleting(rate);
                  }}
                >
                  {t('campaigns.delete', { id: rate.id })}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {deleting ? (
        <ConfirmPanel
          id={`admin-campaign-delete-${deleting.id}`}
          title={t('campaigns.deleteTitle', { id: deleting.id })}
          text={t('campaigns.deleteText')}
          confirmLabel={t('campaigns.deleteConfirm')}
          busy={remove.isPending}
          danger
          onConfirm={() => remove.mutate(deleting)}
          onCancel={() => setDeleting(null)}
        />
      ) : null}
      {adding ? (
        <AddCampaignRate
          affiliateId={affiliateId}
          code={code}
          onDone={(text) => {
            setAdding(false);
            setNotice({ kind: 'success', text });
          }}
          onCancel={() => setAdding(false)}
        />
      ) : (
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => {
            setNotice(null);
            setAdding(true);
          }}
        >
          {t('campaigns.add', { code })}
        </button>
      )}
    </section>
  );
}

function AddCampaignRate({
  affiliateId,
  code,
  onDone,
  onCancel,
}: {
  affiliateId: string;
  code: string;
  onDone: (text: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('admin');
  const errorMessage = useAdminErrorMessage();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<{ from: string; until: string; kind: RuleKind; value: string }>({
    from: '',
    until: '',
    kind: 'flat',
    value: '',
  });
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [notice, setNotice] = useState<Notice>(null);
  const create = useMutation({
    mutationFn: (request: AdminCreateCampaignRateRequest) => callFunction('adminCreateCampaignRate', request),
    onSuccess: (rate) => onDone(t('campaigns.done', { id: rate.id, code })),
    onError: (error) => {
      const fields = callFieldErrors(error);
      setErrors(fields);
      setNotice(fields.length > 0 ? null : { kind: 'error', text: errorMessage(error) });
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.campaignRates(affiliateId) }),
        queryClient.invalidateQueries({ queryKey: adminKeys.audit }),
      ]),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNotice(null);
    const request =
      draft.kind === 'flat'
        ? {
            code,
            from: draft.from,
            until: draft.until,
            kind: draft.kind,
            amountCents: centsFromDollars(draft.value) ?? Number.NaN,
          }
        : {
            code,
            from: draft.from,
            until: draft.until,
            kind: draft.kind,
            percentBasisPoints: basisPointsFromPercent(draft.value) ?? Number.NaN,
          };
    const checked = checkForm(adminCreateCampaignRateSchema, request);
    setErrors(checked.errors);
    if (checked.success && !create.isPending) create.mutate(checked.data);
  }

  const id = `admin-campaign-${code}`;
  const valuePath = draft.kind === 'flat' ? 'amountCents' : 'percentBasisPoints';
  return (
    <form
      className="admin-filters admin-filters--top admin-campaigns__form"
      onSubmit={onSubmit}
      noValidate
      aria-label={t('campaigns.add', { code })}
    >
      <NoticeBanner notice={notice} />
      <ConsoleError error={errors.find((error) => error.path === 'code')} />
      <ConsoleInput
        id={`${id}-from`}
        path="from"
        label={t('campaigns.from')}
        errors={errors}
        type="date"
        value={draft.from}
        onValue={(value) => setDraft({ ...draft, from: value })}
      />
      <ConsoleInput
        id={`${id}-until`}
        path="until"
        label={t('campaigns.until')}
        errors={errors}
        type="date"
        value={draft.until}
        onValue={(value) => setDraft({ ...draft, until: value })}
      />
      <ConsoleField id={`${id}-kind`} path="kind" label={t('campaigns.kind')} errors={errors}>
        {(control) => (
          <select
            {...control}
            value={draft.kind}
            onChange={(event) => setDraft({ ...draft, kind: event.target.value as RuleKind })}
          >
            {RULE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {t(`rules.publish.kinds.${kind}`)}
              </option>
            ))}
          </select>
        )}
      </ConsoleField>
      <ConsoleInput
        id={`${id}-value`}
        path={valuePath}
        label={draft.kind === 'flat' ? t('campaigns.amount') : t('campaigns.percent')}
        errors={errors}
        inputMode="decimal"
        value={draft.value}
        onValue={(value) => setDraft({ ...draft, value })}
      />
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={create.isPending}>
          {create.isPending ? t('campaigns.working') : t('campaigns.submit')}
        </button>
        <button type="button" className="button button--ghost" onClick={onCancel} disabled={create.isPending}>
          {t('confirm.cancel')}
        </button>
      </div>
    </form>
  );
}
