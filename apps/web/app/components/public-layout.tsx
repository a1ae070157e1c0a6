import { Outlet } from 'react-router';
import { PublicFooter } from './public-footer';
import { PublicHeader } from './public-header';

export default function PublicLayout() {
  return (
    <>
      <PublicHeader />
      <main id="main" className="public-main fade-in" tabIndex={-1}>
        <Outlet />
      </main>
      <PublicFooter />
    </>
  );
}
