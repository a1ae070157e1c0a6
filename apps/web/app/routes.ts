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
  // The affiliate area (docs/product/routes-and-screens.md#affiliate-layout): its own header and footer, and the session.
  layout('components/affiliate-layout.tsx', [
    route('affiliate', 'routes/affiliate/home.tsx'),
    route('affiliate/signup', 'routes/affiliate/signup.tsx'),
    // One module for the two ways into an account (login, forgotten password).
    route('affiliate/login', 'routes/affiliate/account-access.tsx', { id: 'affiliate-login' }),
    route('affiliate/terms', 'routes/affiliate/terms.tsx'),
    route('affiliate/reset-password', 'routes/affiliate/account-access.tsx', { id: 'affiliate-reset-password' }),
    layout('features/auth/protected-layout.tsx', [
      route('affiliate/dashboard', 'routes/affiliate/dashboard.tsx'),
      route('affiliate/qrcode', 'routes/affiliate/qrcode.tsx'),
      route('affiliate/marketing', 'routes/affiliate/marketing.tsx'),
    ]),
  ]),
  // The web app (ADR 010): one route for its pages (each route costs every page's manifest bytes).
  route('studio/*', 'routes/studio.tsx'),
  // The operator console (docs/product/routes-and-screens.md#operator-console): its own shell and session; the server checks the role.
  route('admin', 'routes/admin.tsx'),
  // One landing page for /download, /download?ref=CODE, /ref/CODE and /app/TYPE[/CODE] (see entry.client).
  route('download', 'routes/landing.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
