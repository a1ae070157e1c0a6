import type { MetricChange } from '@skanova/skin/trend';
import { readChange } from '@skanova/shared/studio/reading';
import noiseFloors from '@skanova/skin/data/noise-floors.json';
import { useTranslation } from '../../lib/react-i18n';
import { formatDelta, numberFormat } from './journal/journal-format';
import './reading-words.css';

// A change between two scans as every studio screen writes it (shared reading.ts): the movement in
// words ("less redness") and what it says — no real change, better, worse, or not comparable — with
// colour only for better or worse; and the one plain explanation of "no real change", given where a
// visitor asks for it.

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * What a change says, in words: "better", "worse", "no real change", or "not comparable (maybe the
 * lamp)" for a change beyond the floor between photos not taken alike.
 */
export function verdictWords(t: Translate, change: MetricChange): string {
  const reading = readChange(change);
  const [difference] = reading.differences;
  return difference ? `${t(reading.key)} (${t(`journal.unsure.${difference}`)})` : t(reading.key);
}

/**
 * A change in figures and words: "−9.0 less redness [better]", or "(−9.0)" right after the two scores.
 * Within the floor only "no real change" is said. The words are always written; a colour only repeats
 * better or worse.
 */
export function ChangeFigure({ change, afterScores = false }: { change: MetricChange; afterScores?: boolean }) {
  const { t, i18n } = useTranslation('studio');
  const reading = readChange(change);
  const delta = formatDelta(change.delta, i18n.language);
  return (
    <span className="journal-change">
      <span className="journal-change__delta">{afterScores ? `(${delta})` : delta}</span>{' '}
      {reading.movementKey ? (
        <>
          <span className="journal-change__movement">{t(reading.movementKey)}</span>{' '}
        </>
      ) : null}
      <span className={`badge journal-verdict journal-verdict--${reading.tone ?? reading.kind}`}>
        {verdictWords(t, change)}
      </span>
    </span>
  );
}

/** "Why “no real change”?": the noise floor in plain words, folded until the visitor asks. */
export function WhyNoRealChange() {
  const { t, i18n } = useTranslation('studio');
  const redness = numberFormat(i18n.language, { maximumFractionDigits: 1 }).format(noiseFloors.overall.redness);
  return (
    <details className="studio-why">
      <summary>{t('reading.why.question')}</summary>
      <p>{t('reading.why.photo')}</p>
      <p>{t('reading.why.measured', { redness })}</p>
      <p>{t('reading.why.words')}</p>
    </details>
  );
}
