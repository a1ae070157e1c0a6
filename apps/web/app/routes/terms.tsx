import { LegalPage } from '../components/legal-page';
import type { RouteHandle } from '../root';

export const handle: RouteHandle = { i18n: ['terms'] };

export default function Terms() {
  return <LegalPage namespace="terms" path="/terms" />;
}
