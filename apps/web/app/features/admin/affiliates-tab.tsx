import { type FormEvent, Fragment, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ADMIN_AFFILIATE_FILTERS, ADMIN_SEARCH_MAX, type AdminAffiliateFilter } from '@skanova/shared/admin/schemas';
import type { AdminAffiliateSummary } from '@skanova/shared/admin/responses';
import { useTranslation } from '../../lib/react-i18n';
import { formatCount, formatMoney } from '../../lib/format';
import { formatCompactDay } from './admin-format';
import { AffiliateDetail } from './affiliate-detail';
import { AffiliateStatusBadge, displayName } from './affiliate-parts';
import { AdminTable, ListState, Pager } from './console-parts';
import { useAdminAffiliates } from './queries';

// Affiliates (docs/product/rules-and-constants.md#applications-and-disabled-accounts, docs/product/routes-and-screens.md#operator-console): search by name, e-mail, company or code, filter by status, and
// open one affiliate's detail, where the operator approves, refuses, disables or enables.

export function AffiliatesTab({ operatorEmail }: { operatorEmail: string }) {
  const { t } = useTranslation('admin');
  // A link (the overview's pending applications) may open the list filtered by a status.
  const [searchParams] = useSearchParams();
  const linked = ADMIN_AFFILIATE_FILTERS.find((status) => status === searchParams.get('status'));
  const [draft, setDraft] = useState<{ query: string; status: AdminAffiliateFilter | '' }>({
    query: '',
    status: linked ?? '',
  });
  const [filters, setFilters] = useState<{ query?: string; status?: AdminAffiliateFilter; page: number }>({
    page: 1,
    ...(linked ? { status: linked } : {}),
  });
  // The review queue opens an affiliate by its id (`?affiliate=`).
  const [selected, setSelected] = useState<string | null>(searchParams.get('affiliate'));
  const affiliates = useAdminAffiliates(filters);
  const items = affiliates.data?.items ?? [];

  function onSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const query = draft.query.trim();
    setFilters({ page: 1, ...(query ? { query } : {}), ...(draft.status ? { status: draft.status } : {}) });
    setSelected(null);
  }

  return (
    <div className="admin-stack">
      <h2 className="visually-hidden">{t('tabs.affiliates')}</h2>
      <form className="card admin-filters" onSubmit={onSearch} role="search" aria-label={t('affiliates.searchLabel')}>
        <div className="form-field admin-filters__wide">
          <label htmlFor="admin-affiliates-query">{t('affiliates.query')}</label>
          <input
            id="admin-affiliates-query"
            type="search"
            value={draft.query}
            maxLength={ADMIN_SEARCH_MAX}
            onChange={(event) => setDraft({ ...draft, query: event.target.value })}
          />
        </div>
        <div className="form-field">
          <label htmlFor="admin-affiliates-status">{t('affiliates.status')}</label>
          <select
            id="admin-affiliates-status"
            value={draft.status}
            onChange={(event) => setDraft({ ...draft, status: event.target.value as AdminAffiliateFilter | '' })}
          >
            <option value="">{t('affiliates.statuses.all')}</option>
            {ADMIN_AFFILIATE_FILTERS.map((status) => (
              <option key={status} value={status}>
                {t(`affiliates.statuses.${status}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="form-actions">
          <button type="submit" className="button button--primary">
            {t('affiliates.search')}
          </button>
        </div>
      </form>
      <section className="card" aria-labelledby="admin-affiliates-title">
        <h3 id="admin-affiliates-title">{t('affiliates.title')}</h3>
        <ListState query={affiliates} empty={items.length === 0} />
        {items.length > 0 ? <AffiliatesTable affiliates={items} selected={selected} onSelect={setSelected} /> : null}
        <Pager
          page={affiliates.data}
          label={t('affiliates.pages')}
          onPage={(page) => setFilters({ ...filters, page })}
        />
      </section>
      {selected ? (
        <AffiliateDetail
          key={selected}
          affiliateId={selected}
          operatorEmail={operatorEmail}
          onClose={() => setSelected(null)}
        />
      ) : null}
    </div>
  );
}

/** The figures' columns of the list. */
const FIGURES = ['conversions', 'earnings', 'unpaid'] as const;

function AffiliatesTable({
  affiliates,
  selected,
  onSelect,
}: {
  affiliates: AdminAffiliateSummary[];
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  return (
    <AdminTable
      region={t('affiliates.title')}
      className="admin-table--stack"
      columns={[
        { label: t('affiliates.columns.name') },
        { label: t('affiliates.columns.email') },
        { label: t('affiliates.columns.status') },
        { label: t('affiliates.columns.codes') },
        ...FIGURES.map((column) => ({ label: t(`affiliates.columns.${column}`), number: true })),
        { label: t('affiliates.columns.joined') },
        { label: t('affiliates.columns.actions'), hidden: true },
      ]}
    >
      {affiliates.map((affiliate) => {
        const name = displayName(affiliate) ?? t('affiliates.noName');
        const figures = {
          conversions: formatCount(affiliate.qualifiedConversions, lang),
          earnings: formatMoney(affiliate.earningsCents, lang),
          unpaid: formatMoney(affiliate.unpaidCents, lang),
        };
        return (
          <tr key={affiliate.id} aria-current={affiliate.id === selected ? 'true' : undefined}>
            <th scope="row">
              {name}
              {affiliate.companyName ? <span className="admin-table__sub">{affiliate.companyName}</span> : null}
            </th>
            <td className="admin-table__wrap" data-label={t('affiliates.columns.email')}>
              {affiliate.email ?? '—'}
            </td>
            <td data-label={t('affiliates.columns.status')}>
              <AffiliateStatusBadge affiliate={affiliate} />
            </td>
            <td data-label={t('affiliates.columns.codes')}>
              {affiliate.codes.length > 0
                ? affiliate.codes.map((code, index) => (
                    // The space between codes is where a line may break: never inside a code.
                    <Fragment key={code}>
                      {index > 0 ? ' ' : null}
                      <code>{code}</code>
                    </Fragment>
                  ))
                : '—'}
            </td>
            {FIGURES.map((column) => (
              <td key={column} className="admin-table__number" data-label={t(`affiliates.columns.${column}`)}>
                {figures[column]}
              </td>
            ))}
            <td className="admin-table__date" data-label={t('affiliates.columns.joined')}>
              {formatCompactDay(affiliate.createdAt, lang)}
            </td>
            <td>
              <button
                type="button"
                className="button button--secondary button--small"
                onClick={() => onSelect(affiliate.id)}
              >
                {t('affiliates.details')}
                <span className="visually-hidden"> – {name}</span>
              </button>
            </td>
          </tr>
        );
      })}
    </AdminTable>
  );
}
