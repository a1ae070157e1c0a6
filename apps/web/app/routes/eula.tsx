import { LegalPage } from '../components/legal-page';
import type { RouteHandle } from '../lib/route-handle';

export const handle: RouteHandle = { i18n: ['eula'] };

export default function Eula() {
  return <LegalPage namespace="eula" path="/eula" />;
}
