import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { STUDIO_HOME, STUDIO_SCAN_PAGE } from '@skanova/shared/studio/constants';
import { useTranslation } from '../../lib/react-i18n';
import { formatScanDate } from './format-date';
import { ResultView } from './result-view';
import { type ScanRecord, studioStore } from './storage';

/** One saved scan, read from the device (`/studio/result?id=…`), past the consent check (studio-pages.tsx). */
export default function SavedScan() {
  const { t, i18n } = useTranslation('studio');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = params.get('id') ?? '';
  const [scan, setScan] = useState<ScanRecord | null | undefined>(undefined);

  useEffect(() => {
    let live = true;
    studioStore()
      .getScan(id)
      .then(
        (found) => live && setScan(found ?? null),
        () => live && setScan(null),
      );
    return () => {
      live = false;
    };
  }, [id]);

  if (scan === undefined)
    return (
      <p className="studio-loading" role="status">
        {t('home.loading')}
      </p>
    );
  if (scan === null)
    return (
      <div className="studio-card">
        <h1>{t('result.notFound')}</h1>
        <Link to={STUDIO_HOME} className="button button--primary">
          {t('result.allScans')}
        </Link>
      </div>
    );

  return (
    <ResultView
      analysis={scan.analysis}
      image={scan.photo ?? scan.thumbnail}
      {...(scan.photo ? {} : { imageFrame: scan.thumbnailFrame })}
      landmarks={scan.landmarks}
      scan={{ id: scan.id, takenAt: scan.takenAt }}
      heading={t('result.title')}
      meta={
        <p className="studio-muted">{t('result.takenOn', { date: formatScanDate(scan.takenAt, i18n.language) })}</p>
      }
      actions={
        <div className="studio-card studio-save">
          <div className="form-actions">
            <Link to={STUDIO_SCAN_PAGE} className="button button--primary">
              {t('result.newScan')}
            </Link>
            <Link to={STUDIO_HOME} className="button button--secondary">
              {t('result.allScans')}
            </Link>
          </div>
          <button
            type="button"
            className="button button--ghost studio-delete"
            onClick={() => {
              if (!window.confirm(t('result.deleteConfirm'))) return;
              void studioStore()
                .deleteScan(scan.id)
                .then(() => navigate(STUDIO_HOME));
            }}
          >
            {t('result.delete')}
          </button>
        </div>
      }
    />
  );
}
