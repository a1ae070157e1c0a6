import type { ResourceKey } from 'i18next';
import { addNamespaceLoaders } from '../../lib/i18n';

// The app's strings in the other language are loaded through the app's own chunk (the page's own
// language is in its HTML, ADR 004): the site's shared loader map leaves them out, so the public pages
// do not carry them (lib/i18n.ts). Imported for this effect by the app's layout.
addNamespaceLoaders(
  import.meta.glob<{ default: ResourceKey }>('./*/studio.json', { base: '../../../../../packages/shared/src/i18n/' }),
);
