import { type FormEvent, useState } from 'react';
import { ADMIN_SEARCH_MAX } from '@skanova/shared/admin/schemas';
import { useTranslation } from '../../lib/react-i18n';
import { formatDateTime } from './admin-format';
import { AdminTable, ListState, Pager } from './console-parts';
import { useAdminAuditLog } from './queries';

// The audit log (docs/product/money.md#audit): who did what to which record, newest first, filtered by an action or
// its beginning ("affiliate." for every decision on affiliates).

export function AuditTab() {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const [draft, setDraft] = useState('');
  const [action, setAction] = useState('');
  const [page, setPage] = useState(1);
  const audit = useAdminAuditLog({ ...(action ? { action } : {}), page });
  const items = audit.data?.items ?? [];

  function onFilter(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setAction(draft.trim());
    setPage(1);
  }

  return (
    <div className="admin-stack">
      <h2 className="visually-hidden">{t('tabs.audit')}</h2>
      <form className="card admin-filters" onSubmit={onFilter} role="search" aria-label={t('audit.filterLabel')}>
        <div className="form-field admin-filters__wide">
          <label htmlFor="admin-audit-action">{t('audit.action')}</label>
          <input
            id="admin-audit-action"
            value={draft}
            maxLength={ADMIN_SEARCH_MAX}
            aria-describedby="admin-audit-action-hint"
            onChange={(event) => setDraft(event.target.value)}
          />
          <p id="admin-audit-action-hint" className="form-hint">
            {t('audit.actionHint')}
          </p>
        </div>
        <div className="form-actions">
          <button type="submit" className="button button--primary">
            {t('audit.filter')}
          </button>
        </div>
      </form>
      <section className="card" aria-labelledby="admin-audit-title">
        <h3 id="admin-audit-title">{t('audit.title')}</h3>
        <ListState query={audit} empty={items.length === 0} />
        {items.length > 0 ? (
          <AdminTable
            region={t('audit.title')}
            columns={(['at', 'actor', 'action', 'subject', 'details'] as const).map((column) => ({
              label: t(`audit.columns.${column}`),
            }))}
          >
            {items.map((entry) => (
              <tr key={entry.id}>
                <td>{formatDateTime(entry.createdAt, lang)}</td>
                <td className="admin-table__wrap">
                  {entry.actorEmail ??
                    (entry.actor === 'system' ? t('audit.system') : (entry.actor ?? t('audit.anonymous')))}
                </td>
                <td>
                  <code>{entry.action}</code>
                </td>
                <td className="admin-table__wrap">{entry.subject ? <code>{entry.subject}</code> : '—'}</td>
                <td className="admin-table__wrap">
                  {entry.details ? <code className="admin-details">{JSON.stringify(entry.details)}</code> : '—'}
                </td>
              </tr>
            ))}
          </AdminTable>
        ) : null}
        <Pager page={audit.data} label={t('audit.pages')} onPage={setPage} />
      </section>
    </div>
  );
}
