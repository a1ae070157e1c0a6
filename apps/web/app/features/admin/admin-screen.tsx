import { AdminLayout } from './admin-layout';
import { AdminPage } from './admin-page';

/** Everything /admin shows below its <head>, loaded as one chunk beside the route (see routes/admin.tsx). */
export default function AdminScreen() {
  return (
    <AdminLayout>
      <AdminPage />
    </AdminLayout>
  );
}
