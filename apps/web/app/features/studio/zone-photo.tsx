import { type ReactNode, useId, useState } from 'react';
import type { Analysis, Point, ZoneId } from '@skanova/skin/contract';
import { useTranslation } from '../../lib/react-i18n';
import { useObjectUrl } from './blob-image';
import { faceFrame } from './face-frame';
import type { Frame } from './storage';
import { zonePath } from './zone-outline';

// The photo with its zones (docs/product/web-app.md#result): smooth outlines in distinct colours, a
// legend on the photo, and the zone's scores under it when the visitor taps a zone or focuses its
// name in the legend. The legend's names are the keyboard's way in: the outlines on the photo are
// for pointers. The lip contour is drawn as a ring (fill-rule evenodd): the lips and the teeth stay
// outside it.

interface ZonePhotoProps {
  analysis: Analysis;
  image: Blob;
  imageFrame?: Frame;
  landmarks: readonly Point[];
  /** The scores of a zone, shown under the photo once it is chosen. */
  renderScores: (zone: ZoneId) => ReactNode;
}

export function ZonePhoto({ analysis, image, imageFrame, landmarks, renderScores }: ZonePhotoProps) {
  const { t } = useTranslation('studio');
  const id = useId();
  const [showZones, setShowZones] = useState(true);
  const [chosen, setChosen] = useState<ZoneId | null>(null);
  const url = useObjectUrl(image);
  const frame = faceFrame(landmarks, analysis.width, analysis.height);
  const zones = analysis.zones.filter((zone) => zone.outline.some((loop) => loop.length > 2));
  const panel = `${id}-scores`;

  return (
    <figure className="studio-photo">
      <div className={`studio-photo__stage${chosen ? ' studio-photo__stage--chosen' : ''}`}>
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
            ? zones.map((zone) => (
                <path
                  key={zone.zone}
                  d={zonePath(zone)}
                  fillRule="evenodd"
                  className={`studio-zone studio-zone--${zone.zone}${chosen === zone.zone ? ' studio-zone--chosen' : ''}`}
                  onClick={() => setChosen(zone.zone)}
                />
              ))
            : null}
        </svg>
        {showZones ? (
          <ul className="studio-legend" aria-label={t('result.legend')}>
            {zones.map((zone) => (
              <li key={zone.zone}>
                <button
                  type="button"
                  className="studio-legend__item"
                  aria-pressed={chosen === zone.zone}
                  aria-controls={panel}
                  onFocus={() => setChosen(zone.zone)}
                  onClick={() => setChosen(zone.zone)}
                >
                  <span className={`studio-swatch studio-zone--${zone.zone}`} aria-hidden="true" />
                  {t(`zoneTitles.${zone.zone}`)}
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <figcaption className="studio-photo__caption">
        <div id={panel} className="studio-zone-panel" aria-live="polite">
          {showZones && chosen ? (
            <section aria-label={t('result.zoneScores', { zone: t(`zoneTitles.${chosen}`) })}>
              <p className="studio-zone-panel__title">
                <span className={`studio-swatch studio-zone--${chosen}`} aria-hidden="true" />
                {t(`zoneTitles.${chosen}`)}
              </p>
              {renderScores(chosen)}
            </section>
          ) : showZones ? (
            <p className="studio-muted">{t('result.zoneHint')}</p>
          ) : null}
        </div>
        <label className="choice studio-photo__toggle">
          <input
            type="checkbox"
            checked={!showZones}
            onChange={(event) => {
              setShowZones(!event.target.checked);
              setChosen(null);
            }}
          />
          <span>{t('result.hideZones')}</span>
        </label>
      </figcaption>
    </figure>
  );
}
