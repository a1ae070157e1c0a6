import { CodeRoutePage } from '../../features/marketing/code-page';
import { MarketingPanel } from '../../features/marketing/marketing-panel';
import type { RouteHandle } from '../../lib/route-handle';
import { AFFILIATE_MARKETING_PAGE } from '@skanova/shared/affiliate/constants';

export const handle: RouteHandle = { i18n: ['marketing'] };

/** The marketing resources page (docs/product/routes-and-screens.md#marketing-resources-page): the marketing panel of the chosen code, or how to get a first code. */
export default function AffiliateMarketing() {
  return (
    <CodeRoutePage texts="marketingPage" path={AFFILIATE_MARKETING_PAGE} noCodesKey="marketingPage.noCodes">
      {(code) => <MarketingPanel code={code.code} link={code.link} />}
    </CodeRoutePage>
  );
}
