import QRCode from 'qrcode';
import { QR_DEFAULTS } from '@skanova/shared/marketing/constants';
import { LANDING_PAGE } from '@skanova/shared/site/constants';
import { type QrMatrix, qrMatrixFromModules } from '@skanova/shared/marketing/qr-matrix';

/** `${PUBLIC_URL}/download?ref=CODE` (docs/product/attribution.md#referral-link): what every printed QR code and banner points to. */
export function referralLink(publicUrl: string, code: string): string {
  return `${publicUrl}${LANDING_PAGE}?ref=${encodeURIComponent(code)}`;
}

/** The QR modules of a link at the spec's error-correction level (H: readable with 30 % of it damaged). */
export function qrMatrix(text: string): QrMatrix {
  return qrMatrixFromModules(QRCode.create(text, { errorCorrectionLevel: QR_DEFAULTS.errorCorrectionLevel }).modules);
}
