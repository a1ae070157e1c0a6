import { CodeRoutePage } from '../../features/marketing/code-page';
import { QrIdeas } from '../../features/marketing/qr-ideas';
import { ReferralQrPanel } from '../../components/referral-qr-panel';
import { useTranslation } from '../../lib/react-i18n';
import type { RouteHandle } from '../../lib/route-handle';
import { AFFILIATE_QR_CODE_PAGE } from '@skanova/shared/affiliate/constants';

export const handle: RouteHandle = { i18n: ['marketing'] };

/** The QR code page (docs/product/routes-and-screens.md#qr-code-page): the QR panel of the chosen code, four ideas, the way back. */
export default function AffiliateQrcode() {
  const { t } = useTranslation('marketing');
  return (
    <CodeRoutePage texts="qrPage" path={AFFILIATE_QR_CODE_PAGE} noCodesKey="codes.noCodes" footer={<QrIdeas />}>
      {(code) => (
        <section className="card marketing-section" aria-labelledby="qr-panel-title">
          <h2 id="qr-panel-title">{t('qr.title')}</h2>
          <ReferralQrPanel code={code.code} link={code.link} headingLevel={3} />
        </section>
      )}
    </CodeRoutePage>
  );
}
