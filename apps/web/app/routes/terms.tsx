import { LegalPage } from '../components/legal-page';
import type { RouteHandle } from '../lib/route-handle';

export const handle: RouteHandle = { i18n: ['terms'] };

export default function Terms() {
  return <LegalPage namespace="terms" path="/terms" />;
}
