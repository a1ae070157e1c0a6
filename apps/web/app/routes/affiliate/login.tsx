import type { RouteHandle } from '../../root';

export const handle: RouteHandle = { i18n: [] };

/** Placeholder until the page is built. */
export default function AffiliateLogin() {
  return <h1>affiliate/login</h1>;
}
