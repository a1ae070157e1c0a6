import QRCode from 'qrcode';
import { QR_DEFAULTS } from '@skanova/shared/marketing/constants';
import { type QrMatrix, qrMatrixFromModules } from '@skanova/shared/marketing/qr-matrix';

/**
 * The QR modules of a referral link at level H (docs/product/rules-and-constants.md#look-and-feel), computed synchronously in the browser,
 * so the code renders in the same pass as the rest of the panel.
 */
export function createQrMatrix(text: string): QrMatrix {
  return qrMatrixFromModules(QRCode.create(text, { errorCorrectionLevel: QR_DEFAULTS.errorCorrectionLevel }).modules);
}
