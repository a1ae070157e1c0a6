import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

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
              test: /node_modules\/(react|react-dom|react-router|scheduler|i18next|react-i18next|cookie|set-cookie-parser|turbo-stream)\//,
            },
            {
              name: 'app',
              test: /app\/lib\/(i18n|site-config)\.ts|app\/components\/(page-meta|public-[a-z]+|language-toggle|store-links)\.tsx|app\/features\/consent\/|packages\/shared\/src\/(constants|landing)\//,
            },
          ],
        },
      },
    },
  },
});
