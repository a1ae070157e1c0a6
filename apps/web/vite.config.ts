import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

// Chunking (ADR 005): the libraries every page needs in one `vendor` chunk and the shell every public
// page needs in one `app` chunk — one well-compressed file each instead of a dozen small ones.
export default defineConfig({
  plugins: [reactRouter()],
  build: {
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        advancedChunks: {
          groups: [
            {
              name: 'vendor',
              test: /node_modules\/(react|react-dom|react-router|scheduler|i18next|cookie|set-cookie-parser|turbo-stream)\//,
            },
            {
              name: 'app',
              test: /app\/lib\/(i18n|react-i18n|site-config|consent)\.tsx?|app\/components\/(page-meta|language-toggle)\.tsx|app\/features\/consent\/consent-banner\.tsx|app\/features\/vitals\/|packages\/shared\/src\/(constants\/(site|timing|landing)\.ts|landing\/)/,
            },
          ],
        },
      },
    },
  },
});
