import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { checkForm } from '@skanova/shared/callable/field-errors';
import { RULE_KINDS, type RuleKind, TIERS_MAX } from '@skanova/shared/rewards/constants';
import {
  basisPointsFromPercent,
  centsFromDollars,
  dollarsText,
  percentText,
} from '@skanova/shared/rewards/form-values';
import type { AdminGroup, RewardRuleVersion } from '@skanova/shared/rewards/functions';
import { type AdminPublishRuleVersionRequest, adminPublishRuleVersionSchema } from '@skanova/shared/rewards/schemas';
import { SPECIFICATION_RULE } from '@skanova/shared/rewards/specification-rule';
import { callFunction } from '../../lib/callable';
import { type FieldError, callFieldErrors } from '../../lib/form-errors';
import { useTranslation } from '../../lib/react-i18n';
import { useAdminErrorMessage } from './admin-format';
import { ConsoleError, ConsoleInput, unplacedErrors } from './console-form';
import { type Notice, NoticeBanner } from './console-parts';
import { adminKeys } from './queries';

// The next version of a group's rule (docs/product/money.md#operators-groups-rules-and-campaigns): the
// operator types dollars and percentages (at most two decimals), which become the request's cents and
// basis points; the shared schema checks the request and each message stands next to its field, as
// the server's refusal does (an effective time already past, before the latest version).

interface Draft {
  kind: RuleKind;
  steps: { from: string; amount: string }[];
  percent: string;
  recurring: boolean;
  months: string;
  holdDays: string;
  minimum: string;
  /** `datetime-local` text, read as UTC; empty for now. */
  effectiveFrom: string;
}

/** The form starts from the group's latest version (or the specification's rule for a new group). */
function draftFrom(rule: Omit<RewardRuleVersion, 'version' | 'effectiveFrom' | 'createdAt' | 'createdBy'>): Draft {
  return {
    kind: rule.kind,
    steps: (rule.tiers ?? SPECIFICATION_RULE.tiers ?? []).map((step) => ({
      from: String(step.from),
      amount: dollarsText(step.cents),
    })),
    percent: rule.percentBasisPoints === null ? '' : percentText(rule.percentBasisPoints),
    recurring: rule.recurringMonths !== null,
    months: rule.recurringMonths === null ? '12' : String(rule.recurringMonths),
    holdDays: String(rule.holdDays),
    minimum: dollarsText(rule.minimumPayoutCents),
    effectiveFrom: '',
  };
}

/** A whole number as typed, or NaN (which the schema refuses with the field's own message). */
const whole = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);

/** The request the draft stands for: what cannot be read as a number stays one the schema refuses. */
export function ruleRequest(groupId: string, draft: Draft): AdminPublishRuleVersionRequest {
  const common = {
    groupId,
    kind: draft.kind,
    holdDays: whole(draft.holdDays),
    minimumPayoutCents: centsFromDollars(draft.minimum) ?? Number.NaN,
    ...(draft.effectiveFrom ? { effectiveFrom: `${draft.effectiveFrom.slice(0, 16)}:00.000Z` } : {}),
  };
  if (draft.kind === 'flat') {
    return {
      ...common,
      tiers: draft.steps.map((step) => ({
        from: whole(step.from),
        cents: centsFromDollars(step.amount) ?? Number.NaN,
      })),
    };
  }
  return {
    ...common,
    percentBasisPoints: basisPointsFromPercent(draft.percent) ?? Number.NaN,
    recurringMonths: draft.recurring ? whole(draft.months) : null,
  };
}

const FIELD_PATHS = [
  'groupId',
  'kind',
  'tiers',
  'percentBasisPoints',
  'recurringMonths',
  'holdDays',
  'minimumPayoutCents',
  'effectiveFrom',
];

export function RuleForm({ group, start }: { group: AdminGroup; start: RewardRuleVersion | null }) {
  const { t } = useTranslation('admin');
  const errorMessage = useAdminErrorMessage();
  const queryClient = useQueryClient();
  const version = group.versionCount + 1;
  const [draft, setDraft] = useState<Draft>(() => draftFrom(start ?? SPECIFICATION_RULE));
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [notice, setNotice] = useState<Notice>(null);
  const publish = useMutation({
    mutationFn: (request: AdminPublishRuleVersionRequest) => callFunction('adminPublishRuleVersion', request),
    onSuccess: (answer) => {
      queryClient.setQueryData(adminKeys.group(group.id), answer);
      setNotice({ kind: 'success', text: t('rules.publish.done', { version }) });
    },
    onError: (error) => {
      const fields = callFieldErrors(error);
      setErrors(fields);
      setNotice({ kind: 'error', text: fields.length > 0 ? t('rules.publish.errorsTitle') : errorMessage(error) });
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.groups }),
        queryClient.invalidateQueries({ queryKey: adminKeys.audit }),
      ]),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNotice(null);
    const checked = checkForm(adminPublishRuleVersionSchema, ruleRequest(group.id, draft));
    setErrors(checked.errors);
    if (!checked.success) {
      setNotice({ kind: 'error', text: t('rules.publish.errorsTitle') });
      return;
    }
    if (!publish.isPending) publish.mutate(checked.data);
  }

  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const setStep = (index: number, change: Partial<Draft['steps'][number]>) =>
    set({ steps: draft.steps.map((step, at) => (at === index ? { ...step, ...change } : step)) });
  const others = unplacedErrors(errors, FIELD_PATHS);

  return (
    <section className="card" aria-labelledby="admin-rule-title">
      <h3 id="admin-rule-title">{t('rules.publish.title', { version })}</h3>
      <p className="form-hint">{t('rules.publish.lead')}</p>
      <NoticeBanner notice={notice} />
      {others.map((error) => (
        <ConsoleError key={`${error.path}-${error.key}`} error={error} />
      ))}
      <form className="admin-rule-form" onSubmit={onSubmit} noValidate aria-labelledby="admin-rule-title">
        <fieldset className="form-field">
          <legend>{t('rules.publish.kind')}</legend>
          {RULE_KINDS.map((kind) => (
            <label key={kind} className="choice">
              <input
                type="radio"
                name="admin-rule-kind"
                value={kind}
                checked={draft.kind === kind}
                onChange={() => set({ kind })}
              />
              {t(`rules.publish.kinds.${kind}`)}
            </label>
          ))}
        </fieldset>
        {draft.kind === 'flat' ? (
          <fieldset className="form-field admin-rule-steps" aria-describedby="admin-rule-steps-hint">
            <legend>{t('rules.publish.steps')}</legend>
            <p id="admin-rule-steps-hint" className="form-hint">
              {t('rules.publish.stepsHint')}
            </p>
            <ConsoleError error={errors.find((error) => error.path === 'tiers')} />
            {draft.steps.map((step, index) => (
              <fieldset key={index} className="admin-rule-step">
                <legend>{t('rules.publish.stepLegend', { step: index + 1 })}</legend>
                <ConsoleInput
                  id={`admin-rule-step-${index}-from`}
                  path={`tiers.${index}.from`}
                  label={t('rules.publish.from')}
                  errors={errors}
                  inputMode="numeric"
                  value={index === 0 ? '0' : step.from}
                  readOnly={index === 0}
                  onValue={(value) => setStep(index, { from: value })}
                />
                <ConsoleInput
                  id={`admin-rule-step-${index}-amount`}
                  path={`tiers.${index}.cents`}
                  label={t('rules.publish.amount')}
                  errors={errors}
                  inputMode="decimal"
                  value={step.amount}
                  onValue={(value) => setStep(index, { amount: value })}
                />
                {index > 0 ? (
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    onClick={() => set({ steps: draft.steps.filter((_, at) => at !== index) })}
                  >
                    {t('rules.publish.removeStep', { step: index + 1 })}
                  </button>
                ) : null}
              </fieldset>
            ))}
            {draft.steps.length < TIERS_MAX ? (
              <button
                type="button"
                className="button button--secondary button--small"
                onClick={() => set({ steps: [...draft.steps, { from: '', amount: '' }] })}
              >
                {t('rules.publish.addStep')}
              </button>
            ) : null}
          </fieldset>
        ) : (
          <div className="admin-filters admin-filters--top">
            <ConsoleInput
              id="admin-rule-percent"
              path="percentBasisPoints"
              label={t('rules.publish.percent')}
              hint={t('rules.publish.percentHint')}
              errors={errors}
              inputMode="decimal"
              value={draft.percent}
              onValue={(value) => set({ percent: value })}
            />
            <div className="form-field">
              <label className="choice">
                <input
                  type="checkbox"
                  checked={draft.recurring}
                  onChange={(event) => set({ recurring: event.target.checked })}
                />
                {t('rules.publish.recurring')}
              </label>
            </div>
            {draft.recurring ? (
              <ConsoleInput
                id="admin-rule-months"
                path="recurringMonths"
                label={t('rules.publish.recurringMonths')}
                hint={t('rules.publish.recurringHint')}
                errors={errors}
                inputMode="numeric"
                value={draft.months}
                onValue={(value) => set({ months: value })}
              />
            ) : null}
          </div>
        )}
        <div className="admin-filters admin-filters--top">
          <ConsoleInput
            id="admin-rule-hold"
            path="holdDays"
            label={t('rules.publish.holdDays')}
            hint={t('rules.publish.holdHint')}
            errors={errors}
            inputMode="numeric"
            value={draft.holdDays}
            onValue={(value) => set({ holdDays: value })}
          />
          <ConsoleInput
            id="admin-rule-minimum"
            path="minimumPayoutCents"
            label={t('rules.publish.minimum')}
            errors={errors}
            inputMode="decimal"
            value={draft.minimum}
            onValue={(value) => set({ minimum: value })}
          />
          <ConsoleInput
            id="admin-rule-effective"
            path="effectiveFrom"
            label={t('rules.publish.effectiveFrom')}
            hint={t('rules.publish.effectiveHint')}
            errors={errors}
            type="datetime-local"
            value={draft.effectiveFrom}
            onValue={(value) => set({ effectiveFrom: value })}
          />
        </div>
        <div className="form-actions">
          <button type="submit" className="button button--primary" disabled={publish.isPending}>
            {publish.isPending ? t('rules.publish.working') : t('rules.publish.submit', { version })}
          </button>
        </div>
      </form>
    </section>
  );
}
