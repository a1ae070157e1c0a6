// The affiliate layout's header and footer, loaded as one chunk beside the page (see affiliate-layout.tsx).
export { AffiliateFooter } from './affiliate-footer';
export { AffiliateHeader } from './affiliate-header';
