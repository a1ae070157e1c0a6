import { type FormEvent, useId, useRef, useState } from 'react';
import { type FieldError, checkForm } from '@skanova/shared/callable/field-errors';
import {
  AGE_BANDS,
  CONCERNS,
  type ConsultationProfile,
  MAX_CONCERNS,
  ROUTINE_PRODUCTS,
  SENSITIVITIES,
  SKIN_TYPES,
  SUN_EXPOSURES,
  consultationFormSchema,
  profileOf,
} from '@skanova/shared/studio/profile';
import { errorAt } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/react-i18n';

/** The questions in the order they are asked; single answers are radio groups, lists are checkboxes. */
const QUESTIONS = [
  { name: 'skinType', kind: 'one', choices: SKIN_TYPES },
  { name: 'sensitivity', kind: 'one', choices: SENSITIVITIES },
  { name: 'concerns', kind: 'many', choices: CONCERNS },
  { name: 'sunExposure', kind: 'one', choices: SUN_EXPOSURES },
  { name: 'currentRoutine', kind: 'many', choices: ROUTINE_PRODUCTS },
  { name: 'ageBand', kind: 'one', choices: AGE_BANDS },
] as const;

type QuestionName = (typeof QUESTIONS)[number]['name'];
type Answers = Partial<Record<QuestionName, string | string[]>>;

const CHOICE_HINTS: Partial<Record<QuestionName, true>> = { skinType: true };
const QUESTION_HINTS: Partial<Record<QuestionName, true>> = { concerns: true, currentRoutine: true };

function answersOf(profile: ConsultationProfile | undefined): Answers {
  if (!profile) return { concerns: [], currentRoutine: [] };
  const { skinType, sensitivity, concerns, sunExposure, currentRoutine, ageBand } = profile;
  return { skinType, sensitivity, concerns: [...concerns], sunExposure, currentRoutine: [...currentRoutine], ageBand };
}

interface QuestionnaireProps {
  profile: ConsultationProfile | undefined;
  onSave: (profile: ConsultationProfile) => Promise<void>;
  /** Editing saved answers can be abandoned; the first time cannot. */
  onCancel?: () => void;
}

/**
 * The consultation's questionnaire (docs/product/web-app.md#consultation): six questions, each a group of radio buttons or
 * checkboxes with its legend, checked by the profile's own schema; an error is shown under its
 * question and the first invalid question takes the focus.
 */
export function Questionnaire({ profile, onSave, onCancel }: QuestionnaireProps) {
  const { t } = useTranslation('studio');
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [answers, setAnswers] = useState<Answers>(() => answersOf(profile));
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const concernCount = (answers.concerns as string[] | undefined)?.length ?? 0;

  const choose = (name: QuestionName, value: string, many: boolean, checked: boolean) => {
    setAnswers((current) => {
      if (!many) return { ...current, [name]: value };
      const list = (current[name] as string[] | undefined) ?? [];
      return { ...current, [name]: checked ? [...list, value] : list.filter((item) => item !== value) };
    });
    // An answer given clears its question's message.
    setErrors((current) => current.filter((error) => error.path !== name || (name === 'concerns' && checked)));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkForm(consultationFormSchema, answers);
    if (!checked.success) {
      setErrors(checked.errors);
      const first = QUESTIONS.find((question) => errorAt(checked.errors, question.name));
      form.current?.querySelector<HTMLInputElement>(`input[name="${id}-${first?.name}"]`)?.focus();
      return;
    }
    setErrors([]);
    setBusy(true);
    setFailed(false);
    onSave(profileOf(checked.data, new Date())).catch(() => {
      setFailed(true);
      setBusy(false);
    });
  };

  return (
    <form ref={form} className="consult-form" noValidate onSubmit={submit}>
      {failed ? (
        <p className="form-error" role="alert">
          {t('consultation.profile.saveFailed')}
        </p>
      ) : null}
      {errors.length > 0 ? (
        <p className="form-error" role="alert">
          {t('consultation.profile.errorSummary')}
        </p>
      ) : null}
      {QUESTIONS.map((question) => {
        const error = errorAt(errors, question.name);
        const errorId = `${id}-${question.name}-error`;
        const hintId = `${id}-${question.name}-hint`;
        const many = question.kind === 'many';
        const chosen = answers[question.name];
        const describedBy =
          [QUESTION_HINTS[question.name] ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
        return (
          <fieldset key={question.name} className="consult-question" aria-describedby={describedBy}>
            <legend>{t(`consultation.fields.${question.name}`)}</legend>
            {question.name === 'concerns' ? (
              <p className="form-hint" id={hintId} aria-live="polite">
                {t('consultation.hints.concerns')} {t('consultation.hints.concernsCount', { count: concernCount })}
              </p>
            ) : QUESTION_HINTS[question.name] ? (
              <p className="form-hint" id={hintId}>
                {t(`consultation.hints.${question.name}`)}
              </p>
            ) : null}
            {error ? (
              <p className="field-error" id={errorId}>
                {t(error.key, { count: MAX_CONCERNS })}
              </p>
            ) : null}
            <div className={`consult-options consult-options--${question.name}`}>
              {question.choices.map((choice) => {
                const checked = many ? ((chosen as string[] | undefined) ?? []).includes(choice) : chosen === choice;
                return (
                  <label key={choice} className="choice consult-option">
                    <input
                      type={many ? 'checkbox' : 'radio'}
                      name={`${id}-${question.name}`}
                      value={choice}
                      checked={checked}
                      onChange={(event) => choose(question.name, choice, many, event.target.checked)}
                      aria-invalid={error ? true : undefined}
                    />
                    <span className="consult-option__text">
                      <span>{t(`consultation.choices.${question.name}.${choice}`)}</span>
                      {CHOICE_HINTS[question.name] ? (
                        <span className="consult-option__hint">
                          {t(`consultation.choiceHints.${question.name}.${choice}`)}
                        </span>
                      ) : null}
                    </span>
                  </label>
                );
              })}
            </div>
          </fieldset>
        );
      })}
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? t('consultation.profile.saving') : t('consultation.profile.save')}
        </button>
        {onCancel ? (
          <button type="button" className="button button--ghost" onClick={onCancel}>
            {t('consultation.profile.cancel')}
          </button>
        ) : null}
      </div>
    </form>
  );
}
