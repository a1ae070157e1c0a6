import type { RouteHandle } from '../../root';

export const handle: RouteHandle = { i18n: [] };

/** Placeholder until the page is built. */
export default function AffiliateQrcode() {
  return <h1>affiliate/qrcode</h1>;
}
