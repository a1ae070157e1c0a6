import type { Config } from '@react-router/dev/config';
import { LANDING_PAGE, PUBLIC_PAGES } from '@skanova/shared/constants/site';

// Built once per language (SITE_LANG): the same routes prerendered to build/<lang>/client.
// The client JavaScript is identical in both builds (checked by scripts/postbuild.ts).
const lang = process.env.SITE_LANG ?? 'fr';

export default {
  ssr: false,
  buildDirectory: `build/${lang}`,
  prerender: [...PUBLIC_PAGES, LANDING_PAGE, '/404'],
} satisfies Config;
