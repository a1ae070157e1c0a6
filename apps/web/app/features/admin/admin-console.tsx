import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { AccountHeader } from '../../components/account-header';
import { TabPanel } from '../../components/tabs';
import { CallableClientError } from '../../lib/callable';
import { useTranslation } from '../../lib/react-i18n';
import type { Session } from '../../lib/auth/get-session';
import { useSession } from '../../lib/auth/session';
import { AffiliatesTab } from './affiliates-tab';
import { AuditTab } from './audit-tab';
import { useAdminTab } from './admin-tab';
import { ADMIN_ID_PREFIX, AdminTabs } from './admin-tabs';
import { ConversionsTab } from './conversions-tab';
import { GroupsTab } from './groups-tab';
import { LedgerTab } from './ledger-tab';
import { OverviewTab } from './overview-tab';
import { PayoutsTab } from './payouts-tab';
import { ReviewTab } from './review-tab';
import { TicketsTab } from './tickets-tab';
import { VitalsTab } from './vitals-tab';
import { WebhooksTab } from './webhooks-tab';

// The console itself (docs/product/routes-and-screens.md#operator-console): who is signed in and sign-out, then the sections of admin-tab.ts. Its server
// state has a query client of its own, made when the console opens and dropped with it at sign-out.

export function AdminConsole({ session }: { session: Session }) {
  const { refresh } = useSession();
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 15_000 } },
        // The session ended or lost its role meanwhile: reading it again shows the right screen.
        queryCache: new QueryCache({
          onError: (error) => {
            if (
              error instanceof CallableClientError &&
              (error.code === 'unauthenticated' || error.code === 'permission-denied')
            )
              void refresh();
          },
        }),
      }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <ConsoleBody session={session} />
    </QueryClientProvider>
  );
}

function ConsoleBody({ session }: { session: Session }) {
  const { t } = useTranslation('admin');
  const [tab, selectTab] = useAdminTab();
  return (
    <div className="container admin-console">
      <AccountHeader
        title={t('header.title')}
        who={t('header.signedInAs', { email: session.user.email })}
        signOutLabel={t('header.signOut')}
        signingOutLabel={t('header.signingOut')}
        signOutFailed={t('header.signOutFailed')}
      />
      <AdminTabs selected={tab} onSelect={(next) => selectTab(next)} />
      <TabPanel key={tab} idPrefix={ADMIN_ID_PREFIX} tab={tab}>
        {tab === 'overview' ? <OverviewTab /> : null}
        {tab === 'affiliates' ? <AffiliatesTab operatorEmail={session.user.email} /> : null}
        {tab === 'groups' ? <GroupsTab /> : null}
        {tab === 'conversions' ? <ConversionsTab /> : null}
        {tab === 'payouts' ? <PayoutsTab /> : null}
        {tab === 'review' ? <ReviewTab /> : null}
        {tab === 'ledger' ? <LedgerTab /> : null}
        {tab === 'tickets' ? <TicketsTab /> : null}
        {tab === 'vitals' ? <VitalsTab /> : null}
        {tab === 'audit' ? <AuditTab /> : null}
        {tab === 'webhooks' ? <WebhooksTab /> : null}
      </TabPanel>
    </div>
  );
}
