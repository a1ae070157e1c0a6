import { type FormEvent, Fragment, type ReactNode, useState } from 'react';
import { ADMIN_SEARCH_MAX } from '@skanova/shared/admin/schemas';
import type { AdminAuditEntry } from '@skanova/shared/admin/responses';
import { formatCount, formatMoney, formatPercent } from '../../lib/format';
import { useTranslation } from '../../lib/react-i18n';
import { formatCompactDay, formatDateTime } from './admin-format';
import { useAdminTab } from './admin-tab';
import { type AuditLine, type AuditValue, auditEntryView } from './audit-entry';
import { AdminTable, ListState, Pager } from './console-parts';
import { useAdminAuditLog } from './queries';

// The audit log (docs/product/money.md#audit): who did what to which record, newest first, filtered by
// an action or its beginning ("affiliate." for every decision on affiliates). Each entry is written in
// words (audit-entry.ts): what happened, the affiliate it concerns (a link to their page), and its facts
// and changes, before → after. Three columns that wrap, so the page never scrolls sideways at 1280 px.

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
            className="admin-table--stack audit-log"
            columns={(['at', 'actor', 'entry'] as const).map((column) => ({ label: t(`audit.columns.${column}`) }))}
          >
            {items.map((entry) => (
              <tr key={entry.id}>
                <td className="audit-log__at" data-label={t('audit.columns.at')}>
                  {formatDateTime(entry.createdAt, lang)}
                </td>
                <td className="admin-table__wrap" data-label={t('audit.columns.actor')}>
                  {entry.actorEmail ??
                    (entry.actor === 'system' ? t('audit.system') : (entry.actor ?? t('audit.anonymous')))}
                </td>
                <td className="admin-table__wrap">
                  <AuditEntryText entry={entry} />
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

/** What happened: the sentence, the affiliate or the record it concerns, then its lines. */
function AuditEntryText({ entry }: { entry: AdminAuditEntry }) {
  const { t } = useTranslation('admin');
  const [, openTab] = useAdminTab();
  const view = auditEntryView(entry);
  const affiliate = entry.affiliate;
  return (
    <div className="audit-entry">
      <p className="audit-entry__what">
        {view.action ? (
          <strong>{t(`audit.actions.${view.action}`)}</strong>
        ) : (
          <strong>
            {t('audit.unknownAction')} <code>{entry.action}</code>
          </strong>
        )}
      </p>
      <dl className="audit-entry__lines">
        {affiliate ? (
          <div>
            <dt>{t('audit.fields.affiliate')}</dt>
            <dd>
              {affiliate.name || affiliate.email ? (
                <button
                  type="button"
                  className="admin-link"
                  onClick={() => openTab('affiliates', `?affiliate=${encodeURIComponent(affiliate.id)}`)}
                >
                  {affiliate.name ?? affiliate.email}
                </button>
              ) : (
                <code>{affiliate.id}</code>
              )}
              {affiliate.name && affiliate.email ? (
                <span className="audit-entry__muted"> {affiliate.email}</span>
              ) : null}
            </dd>
          </div>
        ) : entry.subject ? (
          <div>
            <dt>{t('audit.fields.record')}</dt>
            <dd>
              <code>{entry.subject}</code>
            </dd>
          </div>
        ) : null}
        {view.lines.map((line) => (
          <div key={line.field}>
            <dt>{line.known ? t(`audit.fields.${line.field}`) : <code>{line.field}</code>}</dt>
            <dd>
              <LineValue line={line} />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** A fact, or a change: before → after (read aloud as "before, changed to after"). */
function LineValue({ line }: { line: AuditLine }) {
  const { t } = useTranslation('admin');
  const value = useAuditValue();
  if (line.value) return <>{value(line.value)}</>;
  return (
    <span className="audit-entry__change">
      {line.before ? <span className="audit-entry__before">{value(line.before)}</span> : null}
      <span aria-hidden="true"> → </span>
      <span className="visually-hidden">, {t('audit.values.changedTo')} </span>
      {line.after ? <span className="audit-entry__after">{value(line.after)}</span> : null}
    </span>
  );
}

/** Writes a value of an entry in the page's language. */
function useAuditValue(): (value: AuditValue, nested?: boolean) => ReactNode {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const write = (value: AuditValue, nested = false): ReactNode => {
    switch (value.kind) {
      case 'text':
        return value.text;
      case 'code':
        return <code>{value.text}</code>;
      case 'word':
        return t(value.key);
      case 'money':
        return formatMoney(value.cents, lang, value.currency);
      case 'day':
        return formatCompactDay(value.iso, lang);
      case 'time':
        return formatDateTime(value.iso, lang);
      case 'count':
        return formatCount(value.value, lang);
      case 'days':
        return t('audit.values.days', { count: value.value });
      case 'percent':
        return formatPercent(value.basisPoints / 100, lang);
      case 'yes-no':
        return t(value.value ? 'audit.values.yes' : 'audit.values.no');
      case 'list':
        // A list of values is separated by commas; a value made of parts ("$3.00 from 200") by spaces.
        return value.values.map((item, index) => (
          // The parts of one value, in a fixed order: their place is their key.
          <Fragment key={index}>
            {index > 0 ? (nested ? ' ' : ', ') : null}
            {write(item, true)}
          </Fragment>
        ));
    }
  };
  return write;
}
