import type { ConditionDifference } from '@skanova/skin/conditions';
import type { MetricChange } from '@skanova/skin/trend';
import { useTranslation } from '../../../lib/react-i18n';
import { formatDelta } from './journal-format';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * A change's verdict in words: "better", "worse", "stable" — or, for a change beyond the floor between
 * photos not taken alike, what may have made it ("maybe the lamp"), never better or worse.
 */
export function verdictWords(t: Translate, change: MetricChange): string {
  const [difference] = change.differences;
  return change.verdict === 'unsure' && difference
    ? t(`journal.unsure.${difference}`)
    : t(`journal.verdict.${change.verdict}`);
}

/**
 * A change in figures and words: "+3.2 worse", or "(+3.2) worse" right after the two scores. The
 * verdict is always written; its colour only repeats it (neutral when unsure).
 */
export function ChangeFigure({ change, afterScores = false }: { change: MetricChange; afterScores?: boolean }) {
  const { t, i18n } = useTranslation('studio');
  const delta = formatDelta(change.delta, i18n.language);
  return (
    <span className="journal-change">
      <span className="journal-change__delta">{afterScores ? `(${delta})` : delta}</span>{' '}
      <span className={`badge journal-verdict journal-verdict--${change.verdict}`}>{verdictWords(t, change)}</span>
    </span>
  );
}

/**
 * Why changes read "unsure": one sentence per kind of difference between the two photos (light, its
 * direction, its colour, distance, pose), then how to take the next one alike.
 */
export function DifferencesNote({
  differences,
  headingLevel,
}: {
  differences: readonly ConditionDifference[];
  headingLevel?: 2 | 3;
}) {
  const { t } = useTranslation('studio');
  if (differences.length === 0) return null;
  const Heading = headingLevel === 2 ? 'h2' : headingLevel === 3 ? 'h3' : 'p';
  return (
    <div className="journal-differences" role="note">
      <Heading className="journal-differences__title">{t('journal.differences.title')}</Heading>
      <p>{t('journal.differences.lead')}</p>
      <ul>
        {differences.map((difference) => (
          <li key={difference}>{t(`journal.differences.${difference}`)}</li>
        ))}
      </ul>
      <p>{t('journal.differences.advice')}</p>
    </div>
  );
}
