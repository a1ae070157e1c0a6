import type { Config } from '@react-router/dev/config';
import { ADMIN_PAGES } from '@skanova/shared/admin/pages';
import { AFFILIATE_PAGES } from '@skanova/shared/affiliate/constants';
import { LANDING_PAGE, PUBLIC_PAGES } from '@skanova/shared/site/constants';
import { STUDIO_PAGES } from '@skanova/shared/studio/constants';

// Built once per language (SITE_LANG): the same routes prerendered to build/<lang>/client.
// The client JavaScript is identical in both builds (checked by scripts/postbuild.ts).
const lang = process.env.SITE_LANG ?? 'fr';
// SITE_BUILD_DIR lets several builds coexist (e.g. a development build for hydration checks).
const outDir = process.env.SITE_BUILD_DIR ?? 'build';

export default {
  ssr: false,
  buildDirectory: `${outDir}/${lang}`,
  prerender: [...PUBLIC_PAGES, ...AFFILIATE_PAGES, LANDING_PAGE, ...ADMIN_PAGES, ...STUDIO_PAGES, '/404'],
  // React Router 8's behaviours, not adopted: each named (false, today's behaviour) so that every build does not
  // print ten lines announcing them (README, "Quick start": the build says what it made, not what may change).
  future: {
    v8_middleware: false,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
