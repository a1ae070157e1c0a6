import { type RouteConfig, index, layout, route } from '@react-router/dev/routes';

export default [
  layout('components/public-layout.tsx', [
    index('routes/home.tsx'),
    route('terms', 'routes/terms.tsx'),
    route('privacy', 'routes/privacy.tsx'),
    route('eula', 'routes/eula.tsx'),
    route('rgpd', 'routes/rgpd.tsx'),
    route('support', 'routes/support.tsx'),
    route('about', 'routes/about.tsx'),
    route('careers', 'routes/careers.tsx'),
    route('press', 'routes/press.tsx'),
    route('blog', 'routes/blog.tsx'),
  ]),
  // One landing page for /download, /download?ref=CODE, /ref/CODE and /app/TYPE[/CODE] (see entry.client).
  route('download', 'routes/landing.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
