import { LegalPage } from '../components/legal-page';
import type { RouteHandle } from '../lib/route-handle';

export const handle: RouteHandle = { i18n: ['rgpd'] };

export default function Rgpd() {
  return <LegalPage namespace="rgpd" path="/rgpd" />;
}
