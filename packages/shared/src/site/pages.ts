import { ADMIN_PAGES } from '../admin/pages.ts';
import { AFFILIATE_PAGES } from '../affiliate/constants.ts';
import { STUDIO_PAGES } from '../studio/constants.ts';
import { LANDING_PAGE, PUBLIC_PAGES } from './constants.ts';

/** Every prerendered page the server sends (one HTML file per language each). */
export const SERVED_PAGES = [
  ...PUBLIC_PAGES,
  ...AFFILIATE_PAGES,
  LANDING_PAGE,
  ...ADMIN_PAGES,
  ...STUDIO_PAGES,
] as const;
