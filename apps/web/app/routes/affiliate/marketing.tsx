import type { RouteHandle } from '../../root';

export const handle: RouteHandle = { i18n: [] };

/** Placeholder until the page is built. */
export default function AffiliateMarketing() {
  return <h1>affiliate/marketing</h1>;
}
