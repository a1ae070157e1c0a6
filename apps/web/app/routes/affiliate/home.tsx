import type { RouteHandle } from '../../root';

export const handle: RouteHandle = { i18n: [] };

/** Placeholder until the page is built. */
export default function AffiliateHome() {
  return <h1>affiliate/home</h1>;
}
