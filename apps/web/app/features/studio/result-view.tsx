import { type ReactNode, useId, useMemo, useState } from 'react';
import { type Analysis, METRIC_IDS, type MetricId, type Point, type ZoneId } from '@skanova/skin/contract';
import { higherMeansKey, readLevel } from '@skanova/shared/studio/reading';
import { useTranslation } from '../../lib/react-i18n';
import { ResultTakeaways } from './result-takeaways';
import { ChangeFigure } from './reading-words';
import type { Frame } from './storage';
import { type Takeaways, changeAt, takeaways } from './takeaways';
import { useResultHistory } from './use-result-history';
import { useWideScreen } from './use-wide-screen';
import { ZonePhoto } from './zone-photo';
import { dateFormat } from './journal/journal-format';
import './result.css';

interface ResultViewProps {
  analysis: Analysis;
  /** The photo (or, for a saved scan without it, its preview): the zones are drawn over it. */
  image: Blob;
  /** Where `image` sits in the analysed photo (its pixels); the whole photo by default. */
  imageFrame?: Frame;
  /** The face's landmarks (image pixels): the picture is framed on the face. */
  landmarks: readonly Point[];
  /** The saved scan shown (its id and moment); a new scan, not saved yet, has neither. */
  scan?: { id: string; takenAt: string };
  /** Heading level 1 on its own page; the capture page's result is its page's main content too. */
  heading: string;
  meta?: ReactNode;
  actions?: ReactNode;
}

/**
 * The result (docs/product/web-app.md#result): the photo with its zones and, beside it, at most three
 * takeaways; then the scores, zone by zone, and what each metric means — folded on a phone, open on a
 * wider screen. Every score and change is read as the other screens read it (shared reading.ts).
 */
export function ResultView({ analysis, image, imageFrame, landmarks, scan, heading, meta, actions }: ResultViewProps) {
  const { t } = useTranslation('studio');
  // A new scan is taken now: what came before it is every saved scan.
  const [now] = useState(() => new Date().toISOString());
  const current = useMemo(
    () => ({ id: scan?.id ?? '', takenAt: scan?.takenAt ?? now, analysis }),
    [scan?.id, scan?.takenAt, now, analysis],
  );
  const history = useResultHistory();
  const found = useMemo(
    () =>
      takeaways(
        current,
        history.status === 'ready' ? history.scans : [],
        history.status === 'ready' ? history.profile : undefined,
      ),
    [current, history],
  );

  return (
    <article className="studio-result" aria-labelledby="result-title">
      <header className="studio-result__header">
        <h1 id="result-title">{heading}</h1>
        {meta}
      </header>
      <div className="studio-result__layout">
        <ZonePhoto
          analysis={analysis}
          image={image}
          {...(imageFrame ? { imageFrame } : {})}
          landmarks={landmarks}
          renderScores={(zone) => <ZoneScores analysis={analysis} zone={zone} found={found} />}
        />
        <div className="studio-result__details">
          <ResultTakeaways found={found} ready={history.status !== 'loading'} />
          {actions}
          <p className="studio-disclaimer">{t('result.disclaimer')}</p>
        </div>
      </div>
      <ZoneSection analysis={analysis} found={found} />
      <MetricSection />
    </article>
  );
}

/** One zone's scores: each with whether it stands out and, against the last scan taken alike, its change. */
function ZoneScores({ analysis, zone, found }: { analysis: Analysis; zone: ZoneId; found: Takeaways }) {
  const { t } = useTranslation('studio');
  const metrics = analysis.zones.find((result) => result.zone === zone)?.metrics ?? {};
  const measured = METRIC_IDS.filter((metric) => metrics[metric] !== undefined);
  if (measured.length === 0) return <p className="studio-muted">{t('result.zoneNotMeasured')}</p>;
  return (
    <dl className="studio-scores">
      {measured.map((metric) => {
        const value = metrics[metric]!;
        const level = readLevel(metric, zone, value);
        const change = changeAt(found, metric, zone);
        return (
          <div key={metric} className="studio-score">
            <dt>{t(`metrics.${metric}.title`)}</dt>
            <dd className="studio-score__level">
              <span className="studio-score__value">{t('result.score', { value: Math.round(value) })}</span>
              {level.standsOut ? <span className="badge studio-stands-out">{t(level.key)}</span> : null}
            </dd>
            {change ? (
              <dd className="studio-score__change">
                <ChangeFigure change={change.change} />
              </dd>
            ) : null}
          </div>
        );
      })}
    </dl>
  );
}

/** A heading that opens and closes its panel (accordion pattern: a button in the heading, aria-expanded). */
function Disclosure({
  open,
  onToggle,
  title,
  children,
  className,
}: {
  open: boolean;
  onToggle: () => void;
  title: ReactNode;
  children: ReactNode;
  className: string;
}) {
  const panel = useId();
  return (
    <li className={`studio-card ${className}`}>
      <h3 className="studio-disclosure__heading">
        <button
          type="button"
          className="accordion__trigger studio-disclosure__trigger"
          aria-expanded={open}
          aria-controls={panel}
          onClick={onToggle}
        >
          {title}
        </button>
      </h3>
      <div id={panel} className="studio-disclosure__panel" hidden={!open}>
        {children}
      </div>
    </li>
  );
}

/** Which disclosures are open: all on a wide screen, none on a phone, then as the visitor leaves them. */
function useOpenSet<K extends string>() {
  const wide = useWideScreen();
  const [toggled, setToggled] = useState<ReadonlySet<K>>(new Set());
  return {
    isOpen: (key: K) => wide !== toggled.has(key),
    toggle: (key: K) =>
      setToggled((current) => {
        const next = new Set(current);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
  };
}

function ZoneSection({ analysis, found }: { analysis: Analysis; found: Takeaways }) {
  const { t, i18n } = useTranslation('studio');
  const open = useOpenSet<ZoneId>();
  return (
    <section className="studio-section" aria-labelledby="zones-title">
      <h2 id="zones-title">{t('result.zonesTitle')}</h2>
      {found.comparedWith ? (
        <p className="studio-muted">
          {t('result.changesAgainst', {
            date: dateFormat(i18n.language, { dateStyle: 'long' }).format(new Date(found.comparedWith.takenAt)),
          })}
        </p>
      ) : null}
      <ul className="studio-zones">
        {analysis.zones.map((result) => {
          const standing = METRIC_IDS.filter((metric) => {
            const value = result.metrics[metric];
            return value !== undefined && readLevel(metric, result.zone, value).standsOut;
          }).length;
          return (
            <Disclosure
              key={result.zone}
              className="studio-zone-card"
              open={open.isOpen(result.zone)}
              onToggle={() => open.toggle(result.zone)}
              title={
                <>
                  <span className={`studio-swatch studio-zone--${result.zone}`} aria-hidden="true" />
                  <span className="studio-disclosure__title">{t(`zoneTitles.${result.zone}`)}</span>
                  {standing > 0 ? (
                    <span className="studio-disclosure__note">{t('result.standsOutCount', { count: standing })}</span>
                  ) : null}
                </>
              }
            >
              <ZoneScores analysis={analysis} zone={result.zone} found={found} />
            </Disclosure>
          );
        })}
      </ul>
    </section>
  );
}

/** What each metric means: its direction in words (once, on its heading), what it means and does not, and from where it stands out. */
function MetricSection() {
  const { t } = useTranslation('studio');
  const open = useOpenSet<MetricId>();
  return (
    <section className="studio-section" aria-labelledby="metrics-title">
      <h2 id="metrics-title">{t('result.metricsTitle')}</h2>
      <p>{t('result.scale')}</p>
      <ul className="studio-glossary">
        {METRIC_IDS.map((metric) => {
          const level = readLevel(metric, 'overall', 0);
          return (
            <Disclosure
              key={metric}
              className="studio-glossary__item"
              open={open.isOpen(metric)}
              onToggle={() => open.toggle(metric)}
              title={
                <>
                  <span className="studio-disclosure__title">{t(`metrics.${metric}.title`)}</span>
                  <span className="studio-disclosure__note">{t(higherMeansKey(metric))}</span>
                </>
              }
            >
              <p>
                <strong>{t('result.means')}</strong> {t(`metrics.${metric}.means`)}
              </p>
              <p>
                <strong>{t('result.notMeans')}</strong> {t(`metrics.${metric}.notMeans`)}
              </p>
              <p>{t(`result.standsOutFrom.${level.aim}`, { threshold: level.threshold })}</p>
            </Disclosure>
          );
        })}
      </ul>
    </section>
  );
}
