import { InfoPage } from '../components/info-page';
import type { RouteHandle } from '../lib/route-handle';

export const handle: RouteHandle = { i18n: ['company'] };

export default function Page() {
  return <InfoPage page="careers" />;
}
