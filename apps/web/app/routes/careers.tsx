import { InfoPage } from '../components/info-page';
import type { RouteHandle } from '../root';

export const handle: RouteHandle = { i18n: ['company'] };

export default function Page() {
  return <InfoPage page="careers" />;
}
