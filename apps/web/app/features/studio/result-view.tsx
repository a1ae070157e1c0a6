import { type ReactNode, useState } from 'react';
import { type Analysis, METRIC_IDS, type MetricId, type Point, type ZoneResult } from '@skanova/skin/contract';
import { useTranslation } from '../../lib/react-i18n';
import noiseFloors from '@skanova/skin/data/noise-floors.json';
import { useObjectUrl } from './blob-image';
import { faceFrame } from './face-frame';
import type { Frame } from './storage';
import { levelOf, summarise } from './summary';

interface ResultViewProps {
  analysis: Analysis;
  /** The photo (or, for a saved scan without it, its preview): the zones are drawn over it. */
  image: Blob;
  /** Where `image` sits in the analysed photo (its pixels); the whole photo by default. */
  imageFrame?: Frame;
  /** The face's landmarks (image pixels): the picture is framed on the face. */
  landmarks: readonly Point[];
  /** Heading level 1 on its own page; the capture page's result is its page's main content too. */
  heading: string;
  meta?: ReactNode;
  actions?: ReactNode;
}

/** The outline of a zone as an SVG path in the analysis image's pixels. */
function zonePath(zone: ZoneResult): string {
  return zone.outline
    .filter((ring) => ring.length > 2)
    .map((ring) => `M${ring.map(([x, y]) => `${x.toFixed(1)} ${y.toFixed(1)}`).join('L')}Z`)
    .join('');
}

/** The result (docs/product/web-app.md#result): the photo with the zones (can be hidden), a short summary, per-zone scores, what each score means, the disclaimer. */
export function ResultView({ analysis, image, imageFrame, landmarks, heading, meta, actions }: ResultViewProps) {
  const { t, i18n } = useTranslation('studio');
  const [showZones, setShowZones] = useState(true);
  const url = useObjectUrl(image);
  const summary = summarise(analysis);
  const frame = faceFrame(landmarks, analysis.width, analysis.height);
  const metricName = (metric: MetricId) => t(`metrics.${metric}.name`);

  return (
    <article className="studio-result" aria-labelledby="result-title">
      <header className="studio-result__header">
        <h1 id="result-title">{heading}</h1>
        {meta}
      </header>
      <div className="studio-result__layout">
        <figure className="studio-photo">
          {/* One picture: the photo framed on the face, the zones drawn over it in the photo's pixels. */}
          <svg
            className="studio-photo__picture"
            viewBox={`${frame.x} ${frame.y} ${frame.width} ${frame.height}`}
            role="img"
            aria-label={showZones ? t('result.photoAlt') : t('result.photoAltHidden')}
          >
            {url ? (
              <image
                href={url}
                x={imageFrame?.x ?? 0}
                y={imageFrame?.y ?? 0}
                width={imageFrame?.width ?? analysis.width}
                height={imageFrame?.height ?? analysis.height}
                preserveAspectRatio="none"
              />
            ) : null}
            {showZones
              ? analysis.zones.map((zone) => (
                  <path key={zone.zone} d={zonePath(zone)} className={`studio-zone studio-zone--${zone.zone}`} />
                ))
              : null}
          </svg>
          <figcaption>
            <label className="choice studio-photo__toggle">
              <input type="checkbox" checked={!showZones} onChange={(event) => setShowZones(!event.target.checked)} />
              <span>{t('result.hideZones')}</span>
            </label>
          </figcaption>
        </figure>

        <div className="studio-result__details">
          <section className="studio-card" aria-labelledby="summary-title">
            <h2 id="summary-title">{t('result.summaryTitle')}</h2>
            <p>
              {t('result.summary', {
                top: metricName(summary.top.metric),
                topValue: summary.top.value,
                bottom: metricName(summary.bottom.metric),
                bottomValue: summary.bottom.value,
                zoneMetric: summary.zone ? metricName(summary.zone.metric) : '',
                zone: summary.zone ? t(`zones.${summary.zone.zone}`) : '',
                zoneValue: summary.zone?.value ?? 0,
              })}
            </p>
            <p className="studio-disclaimer">{t('result.disclaimer')}</p>
          </section>
          {actions}
        </div>
      </div>

      <section className="studio-section" aria-labelledby="zones-title">
        <h2 id="zones-title">{t('result.zonesTitle')}</h2>
        <ul className="studio-zones">
          {analysis.zones.map((zone) => (
            <li key={zone.zone} className="studio-card studio-zone-card">
              <h3>
                <span className={`studio-swatch studio-zone--${zone.zone}`} aria-hidden="true" />
                {t(`zoneTitles.${zone.zone}`)}
              </h3>
              {METRIC_IDS.some((metric) => zone.metrics[metric] !== undefined) ? (
                <dl className="studio-scores">
                  {METRIC_IDS.filter((metric) => zone.metrics[metric] !== undefined).map((metric) => {
                    const value = Math.round(zone.metrics[metric]!);
                    return (
                      <div key={metric} className="studio-score">
                        <dt>{t(`metrics.${metric}.title`)}</dt>
                        <dd>
                          <span className="studio-score__figure">
                            <span className="studio-score__value">{t('result.score', { value })}</span>{' '}
                            <span className="studio-muted">{t(`result.level.${levelOf(value)}`)}</span>
                          </span>
                          <span className="studio-bar" aria-hidden="true">
                            <span className="studio-bar__fill" style={{ width: `${value}%` }} />
                          </span>
                        </dd>
                      </div>
                    );
                  })}
                </dl>
              ) : (
                <p className="studio-muted">{t('result.zoneNotMeasured')}</p>
              )}
            </li>
          ))}
        </ul>
      </section>

      <section className="studio-section" aria-labelledby="metrics-title">
        <h2 id="metrics-title">{t('result.metricsTitle')}</h2>
        <p>{t('result.scale')}</p>
        <dl className="studio-glossary">
          {METRIC_IDS.map((metric) => (
            <div key={metric} className="studio-card">
              <dt>{t(`metrics.${metric}.title`)}</dt>
              <dd>
                <p>
                  <strong>{t('result.means')}</strong> {t(`metrics.${metric}.means`)}
                </p>
                <p>
                  <strong>{t('result.notMeans')}</strong> {t(`metrics.${metric}.notMeans`)}
                </p>
                <p className="studio-muted">
                  {t('result.floor', {
                    count: noiseFloors.overall[metric],
                    floor: new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(
                      noiseFloors.overall[metric],
                    ),
                  })}
                </p>
              </dd>
            </div>
          ))}
        </dl>
      </section>
    </article>
  );
}
