import type { ResourceKey } from 'i18next';
import { addNamespaceLoaders } from '../../lib/i18n';

// The console's strings in the other language are loaded through the console's own chunk (the page's
// own language is in its HTML, ADR 004): the site's shared loader map leaves them out, so the public
// pages do not carry them (lib/i18n.ts). Imported for this effect by the console's layout.
addNamespaceLoaders(
  import.meta.glob<{ default: ResourceKey }>('./*/admin.json', { base: '../../../../../packages/shared/src/i18n/' }),
);
