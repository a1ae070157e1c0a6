import type { RouteHandle } from '../../root';

export const handle: RouteHandle = { i18n: [] };

/** Placeholder until the page is built. */
export default function AffiliateDashboard() {
  return <h1>affiliate/dashboard</h1>;
}
