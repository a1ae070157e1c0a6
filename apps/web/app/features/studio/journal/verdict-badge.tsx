import type { MetricChange } from '@skanova/skin/trend';
import { useTranslation } from '../../../lib/react-i18n';
import { formatDelta } from './journal-format';

/** A change in words and figures: "+3.2 · worse". The verdict is always written, its colour only repeats it. */
export function ChangeFigure({ change }: { change: MetricChange }) {
  const { t, i18n } = useTranslation('studio');
  return (
    <span className="journal-change">
      <span className="journal-change__delta">{formatDelta(change.delta, i18n.language)}</span>{' '}
      <span className={`badge journal-verdict journal-verdict--${change.verdict}`}>
        {t(`journal.verdict.${change.verdict}`)}
      </span>
    </span>
  );
}
