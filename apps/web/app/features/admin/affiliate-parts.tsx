import type { AdminAffiliateSummary } from '@skanova/shared/admin/responses';
import { useTranslation } from '../../lib/react-i18n';

// What the affiliate list and the affiliate detail both show.

/** The status an operator reads: the account's state first (disabled, deleted), then the application's. */
export function AffiliateStatusBadge({
  affiliate,
}: {
  affiliate: Pick<AdminAffiliateSummary, 'status' | 'disabled' | 'deleted'>;
}) {
  const { t } = useTranslation('admin');
  const status = affiliate.deleted ? 'deleted' : affiliate.disabled ? 'disabled' : affiliate.status;
  return <span className={`badge admin-badge--${status}`}>{t(`affiliates.statuses.${status}`)}</span>;
}

export function displayName(affiliate: { firstName: string | null; lastName: string | null }): string | null {
  const name = [affiliate.firstName, affiliate.lastName].filter(Boolean).join(' ');
  return name === '' ? null : name;
}
