import { useEffect, useState } from 'react';
import { DEFAULT_LANGUAGE, isLanguage } from '@skanova/shared/site/constants';
import { STUDIO_ICONS, studioManifestUrl } from '@skanova/shared/studio/offline';
import { useTranslation } from '../../../lib/react-i18n';
import { useConsent } from '../use-consent';
import { applyAppUpdate, startServiceWorker, useAppUpdate } from './app-update';
import { useAppUpdateHeld } from './update-hold';
// Its styles come with the app's stylesheet, in the page's head (studio-styles.ts).

/** The icon a home screen without manifest support (iOS) shows. */
const TOUCH_ICON = STUDIO_ICONS.find((icon) => icon.size === 192 && icon.purpose === 'any')!;

/**
 * The app offline and installable (ADR 011), mounted once by the app's layout: the web app manifest
 * (on the app's pages only: the public pages keep their weight), the service worker's registration
 * once the visitor has consented (a visitor who only looks at the app's home downloads no offline copy;
 * giving consent starts it, `useConsent`), and the notice that a new version is ready — shown when no
 * analysis is under way, with a button to reload and one to leave it for later.
 */
export function OfflineSupport() {
  const { t, i18n } = useTranslation('studio');
  const lang = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  const update = useAppUpdate();
  const held = useAppUpdateHeld();
  const [later, setLater] = useState(false);
  const [reloading, setReloading] = useState(false);
  const consented = useConsent().status === 'given';
  useEffect(() => {
    if (consented) startServiceWorker();
  }, [consented]);
  const shown = update === 'waiting' && !held && !later;

  return (
    <>
      {/* React hoists these into the head. */}
      <link rel="manifest" href={studioManifestUrl(lang)} />
      <link rel="apple-touch-icon" href={TOUCH_ICON.path} />
      {/* Always in the page, so that screen readers announce the notice when it appears in it. */}
      <div className="studio-update" aria-live="polite">
        {shown ? (
          <section className="studio-update__card" aria-label={t('offline.update.label')}>
            <p className="studio-update__text">
              <strong>{t('offline.update.ready')}</strong> {t('offline.update.keep')}
            </p>
            <div className="studio-update__actions">
              <button type="button" className="button button--secondary button--small" onClick={() => setLater(true)}>
                {t('offline.update.later')}
              </button>
              <button
                type="button"
                className="button button--primary button--small"
                disabled={reloading}
                onClick={() => {
                  setReloading(true);
                  void applyAppUpdate();
                }}
              >
                {t('offline.update.reload')}
              </button>
            </div>
          </section>
        ) : null}
      </div>
    </>
  );
}
