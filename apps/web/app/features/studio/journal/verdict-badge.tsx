import type { MetricChange } from '@skanova/skin/trend';
import { useTranslation } from '../../../lib/react-i18n';
import { formatDelta } from './journal-format';

/**
 * A change in figures and words: "+3.2 worse", or "(+3.2) worse" right after the two scores. The
 * verdict is always written; its colour only repeats it.
 */
export function ChangeFigure({ change, afterScores = false }: { change: MetricChange; afterScores?: boolean }) {
  const { t, i18n } = useTranslation('studio');
  const delta = formatDelta(change.delta, i18n.language);
  return (
    <span className="journal-change">
      <span className="journal-change__delta">{afterScores ? `(${delta})` : delta}</span>{' '}
      <span className={`badge journal-verdict journal-verdict--${change.verdict}`}>
        {t(`journal.verdict.${change.verdict}`)}
      </span>
    </span>
  );
}
