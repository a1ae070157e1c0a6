import { Outlet } from 'react-router';
import { SessionProvider } from '../features/affiliate-auth/session';

// Placeholder: the affiliate header, mobile menu and footer come with the affiliate pages.
export default function AffiliateLayout() {
  return (
    <SessionProvider>
      <main id="main" className="affiliate-main" tabIndex={-1}>
        <Outlet />
      </main>
    </SessionProvider>
  );
}
