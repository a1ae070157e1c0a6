import { useEffect, useState } from 'react';
import { useTranslation } from '../../lib/react-i18n';
import { QR_DEFAULTS } from '@skanova/shared/marketing/constants';

interface StoreQrCodesProps {
  appStoreUrl: string;
  playStoreUrl: string;
}

type QrLibrary = typeof import('qrcode');

let qrLibrary: Promise<QrLibrary> | undefined;

/** The QR encoder is loaded on demand (it stays out of the page's first-load JavaScript). */
export function loadQrLibrary(): Promise<QrLibrary> {
  qrLibrary ??= import('qrcode').then((module) => ((module as { default?: QrLibrary }).default ?? module) as QrLibrary);
  return qrLibrary;
}

/** An SVG QR code as a data URL (the CSP allows `data:` images). */
export async function qrDataUrl(text: string): Promise<string> {
  const qrcode = await loadQrLibrary();
  const svg = await qrcode.toString(text, {
    type: 'svg',
    errorCorrectionLevel: QR_DEFAULTS.errorCorrectionLevel,
    margin: 2,
    width: QR_DEFAULTS.size,
    color: { dark: QR_DEFAULTS.foreground, light: QR_DEFAULTS.background },
  });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** Desktop visitors scan one of these with their phone. */
export function StoreQrCodes({ appStoreUrl, playStoreUrl }: StoreQrCodesProps) {
  const { t } = useTranslation('landing');
  const [images, setImages] = useState<{ appStore: string; googlePlay: string } | null>(null);

  useEffect(() => {
    let live = true;
    Promise.all([qrDataUrl(appStoreUrl), qrDataUrl(playStoreUrl)]).then(
      ([appStore, googlePlay]) => live && setImages({ appStore, googlePlay }),
      (error: unknown) => console.error('QR codes could not be drawn', error),
    );
    return () => {
      live = false;
    };
  }, [appStoreUrl, playStoreUrl]);

  const codes = [
    {
      key: 'appStore',
      src: images?.appStore,
      alt: t('desktop.appStoreQr'),
      caption: t('desktop.appStoreCaption'),
      href: appStoreUrl,
    },
    {
      key: 'googlePlay',
      src: images?.googlePlay,
      alt: t('desktop.googlePlayQr'),
      caption: t('desktop.googlePlayCaption'),
      href: playStoreUrl,
    },
  ];
  return (
    <ul className="landing-qr" aria-busy={images ? undefined : true}>
      {codes.map((code) => (
        <li key={code.key} className="landing-qr__item">
          <figure className="landing-qr__figure">
            {code.src ? (
              <img
                className="landing-qr__image"
                src={code.src}
                alt={code.alt}
                width={QR_DEFAULTS.size}
                height={QR_DEFAULTS.size}
              />
            ) : (
              <span className="landing-qr__placeholder" aria-hidden="true" />
            )}
            <figcaption>
              <a href={code.href}>{code.caption}</a>
            </figcaption>
          </figure>
        </li>
      ))}
    </ul>
  );
}
