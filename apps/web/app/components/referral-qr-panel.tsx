import { type ChangeEvent, useId, useMemo, useState } from 'react';
import { QR_DEFAULTS, QR_SIZE_RANGE } from '@skanova/shared/marketing/constants';
import { qrFileName } from '@skanova/shared/marketing/assets';
import { QR_QUIET_ZONE_MODULES, qrExtent, qrPathData, qrSvgDocument } from '@skanova/shared/marketing/qr-matrix';
import { downloadBlob } from '../lib/download';
import { createQrMatrix } from '../lib/qr-code';
import { useTranslation } from '../lib/react-i18n';
import { svgBlob, svgToPng } from '../lib/svg-image';
import './referral-qr-panel.css';

// The referral QR panel (docs/product/routes-and-screens.md#referral-qr-panel): the QR code of the link with the link in
// clear, options (size, colours) behind a toggle, SVG and PNG downloads, three tips. Used on the
// QR code page and in the dashboard's Links tab. The settings are local only (docs/product/routes-and-screens.md#referral-qr-panel).

export interface ReferralQrPanelProps {
  /** The code the QR points to (shown in file names). */
  code: string;
  /** The referral link encoded in the QR (docs/product/attribution.md#referral-link), or the optional appLink override. */
  link: string;
  /** Level of the panel's own headings: one below the heading the panel sits under (default 4). */
  headingLevel?: 3 | 4;
}

export function ReferralQrPanel({ code, link, headingLevel = 4 }: ReferralQrPanelProps) {
  const { t } = useTranslation('marketing');
  const id = useId();
  const [optionsOpen, setOptionsOpen] = useState(false);
  const [size, setSize] = useState<number>(QR_DEFAULTS.size);
  const [foreground, setForeground] = useState<string>(QR_DEFAULTS.foreground);
  const [background, setBackground] = useState<string>(QR_DEFAULTS.background);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const matrix = useMemo(() => createQrMatrix(link), [link]);
  const extent = qrExtent(matrix);
  const label = t('qr.imageLabel', { link });
  const Heading = `h${headingLevel}` as const;
  const tips = t('qr.tips', { returnObjects: true }) as string[];

  const documentSvg = () => qrSvgDocument(matrix, { size, foreground, background, title: label });

  async function downloadPng() {
    setDownloadFailed(false);
    try {
      downloadBlob(await svgToPng(documentSvg(), size, size), qrFileName(code, 'png'));
    } catch (error) {
      console.error('QR code PNG failed', error);
      setDownloadFailed(true);
    }
  }

  return (
    <div className="qr-panel">
      <figure className="qr-panel__figure">
        <svg
          className="qr-panel__code"
          xmlns="http://www.w3.org/2000/svg"
          width={size}
          height={size}
          viewBox={`0 0 ${extent} ${extent}`}
          shapeRendering="crispEdges"
          role="img"
          aria-label={label}
        >
          <rect width={extent} height={extent} fill={background} />
          <path d={qrPathData(matrix, QR_QUIET_ZONE_MODULES)} fill={foreground} />
        </svg>
        <figcaption>
          <span className="qr-panel__link-label">{t('qr.linkLabel')}</span>{' '}
          <code className="qr-panel__link">{link}</code>
        </figcaption>
      </figure>

      <button
        type="button"
        className="button button--ghost button--small qr-panel__toggle"
        aria-expanded={optionsOpen}
        aria-controls={`${id}-options`}
        onClick={() => setOptionsOpen((open) => !open)}
      >
        {t('qr.options')}
      </button>
      <div id={`${id}-options`} className="qr-panel__options" hidden={!optionsOpen}>
        <div className="form-field">
          <label htmlFor={`${id}-size`}>{t('qr.size', { size })}</label>
          <input
            id={`${id}-size`}
            type="range"
            min={QR_SIZE_RANGE.min}
            max={QR_SIZE_RANGE.max}
            step={QR_SIZE_RANGE.step}
            value={size}
            onChange={(event: ChangeEvent<HTMLInputElement>) => setSize(Number(event.target.value))}
          />
        </div>
        <div className="qr-panel__colours">
          <div className="form-field">
            <label htmlFor={`${id}-foreground`}>{t('qr.foreground')}</label>
            <input
              id={`${id}-foreground`}
              type="color"
              value={foreground}
              onChange={(event) => setForeground(event.target.value)}
            />
          </div>
          <div className="form-field">
            <label htmlFor={`${id}-background`}>{t('qr.background')}</label>
            <input
              id={`${id}-background`}
              type="color"
              value={background}
              onChange={(event) => setBackground(event.target.value)}
            />
          </div>
        </div>
      </div>

      <div className="button-row">
        <button
          type="button"
          className="button button--primary"
          onClick={() => downloadBlob(svgBlob(documentSvg()), qrFileName(code, 'svg'))}
        >
          {t('qr.downloadSvg')}
        </button>
        <button type="button" className="button button--secondary" onClick={() => void downloadPng()}>
          {t('qr.downloadPng')}
        </button>
      </div>
      {downloadFailed ? (
        <p className="form-error" role="alert">
          {t('qr.downloadError')}
        </p>
      ) : null}

      <Heading className="qr-panel__tips-title">{t('qr.tipsTitle')}</Heading>
      <ul className="qr-panel__tips">
        {tips.map((tip) => (
          <li key={tip}>{tip}</li>
        ))}
      </ul>
    </div>
  );
}
