import { LegalPage } from '../components/legal-page';
import type { RouteHandle } from '../lib/route-handle';

export const handle: RouteHandle = { i18n: ['privacy'] };

export default function Privacy() {
  return <LegalPage namespace="privacy" path="/privacy" />;
}
