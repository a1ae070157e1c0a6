import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { AdminPage } from '@skanova/shared/admin/responses';
import { useTranslation } from '../../lib/react-i18n';
import { useAdminErrorMessage } from './admin-format';

// Pieces every tab of the console uses: a list's loading, error and empty states, a scrolling
// table region and its table, a pager, an announced notice and an inline confirmation.

/** What a list shows besides its rows: a spinner, the error with a retry, or "nothing". */
export function ListState({ query, empty }: { query: UseQueryResult<unknown>; empty: boolean }) {
  const { t } = useTranslation('admin');
  const message = useAdminErrorMessage();
  if (query.isPending) {
    return (
      <div className="admin-loading" role="status">
        <span className="spinner" aria-hidden="true" />
        <span className="visually-hidden">{t('list.loading')}</span>
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="form-error admin-banner" role="alert">
        <p>{message(query.error)}</p>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => void query.refetch()}
          disabled={query.isFetching}
        >
          {t('list.retry')}
        </button>
      </div>
    );
  }
  return empty ? <p className="empty-state admin-empty">{t('list.empty')}</p> : null;
}

/** A table that scrolls sideways inside its own box, reachable and named for keyboard users. */
export function TableRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
    <div className="table-scroll admin-table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

export interface AdminColumn {
  label: string;
  /** Figures, aligned to the right. */
  number?: boolean;
  /** Named for screen readers only (a column of buttons). */
  hidden?: boolean;
}

/**
 * A console table: its header row from its columns, then its rows; inside a scrolling region named
 * `region` when one is given. `className` adds to `admin-table` (e.g. `admin-table--stack`).
 */
export function AdminTable({
  columns,
  region,
  className,
  children,
}: {
  columns: readonly AdminColumn[];
  region?: string;
  className?: string;
  children: ReactNode;
}) {
  const table = (
    <table className={className ? `admin-table ${className}` : 'admin-table'}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.label} scope="col" className={column.number ? 'admin-table__number' : undefined}>
              {column.hidden ? <span className="visually-hidden">{column.label}</span> : column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
  return region ? <TableRegion label={region}>{table}</TableRegion> : table;
}

/** Previous / next through a paged list, with where the reader is. */
export function Pager({
  page,
  onPage,
  label,
}: {
  page: AdminPage<unknown> | undefined;
  onPage: (page: number) => void;
  label: string;
}) {
  const { t } = useTranslation('admin');
  if (!page || page.total === 0) return null;
  const pages = Math.max(1, Math.ceil(page.total / page.pageSize));
  return (
    <nav className="admin-pager" aria-label={label}>
      <button
        type="button"
        className="button button--secondary button--small"
        disabled={page.page <= 1}
        onClick={() => onPage(page.page - 1)}
      >
        {t('list.previous')}
      </button>
      <span>{t('list.position', { page: page.page, pages, total: page.total })}</span>
      <button
        type="button"
        className="button button--secondary button--small"
        disabled={page.page >= pages}
        onClick={() => onPage(page.page + 1)}
      >
        {t('list.next')}
      </button>
    </nav>
  );
}

export type Notice = { kind: 'success' | 'error'; text: string } | null;

/** The outcome of the last action, read out when it appears. */
export function NoticeBanner({ notice }: { notice: Notice }) {
  if (!notice) return null;
  return (
    <p
      className={notice.kind === 'success' ? 'form-success' : 'form-error'}
      role={notice.kind === 'success' ? 'status' : 'alert'}
    >
      {notice.text}
    </p>
  );
}

interface ConfirmPanelProps {
  id: string;
  title: string;
  text: string;
  confirmLabel: string;
  busy: boolean;
  /** A reason field: required, optional, or none. */
  reason?: { required: boolean; value: string; onChange: (value: string) => void; maxLength: number };
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * An action that changes an account or money waits for a second, explicit confirmation, here in
 * the page (not a browser dialog): the focus moves to it, and Cancel gives it back.
 */
export function ConfirmPanel({
  id,
  title,
  text,
  confirmLabel,
  busy,
  reason,
  danger,
  onConfirm,
  onCancel,
}: ConfirmPanelProps) {
  const { t } = useTranslation('admin');
  const heading = useRef<HTMLHeadingElement>(null);
  // The button that opened the panel: Cancel returns the focus to it.
  const [opener] = useState(() => document.activeElement);
  useEffect(() => heading.current?.focus(), []);
  const cancel = () => {
    onCancel();
    if (opener instanceof HTMLElement) opener.focus();
  };
  const missingReason = reason?.required === true && reason.value.trim() === '';
  return (
    <section className="admin-confirm" aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`} ref={heading} tabIndex={-1}>
        {title}
      </h4>
      <p>{text}</p>
      <form
        className="admin-confirm__form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy && !missingReason) onConfirm();
        }}
      >
        {reason ? (
          <div className="form-field">
            <label htmlFor={`${id}-reason`}>
              {reason.required ? t('confirm.reason') : t('confirm.reasonOptional')}
            </label>
            <textarea
              id={`${id}-reason`}
              rows={2}
              value={reason.value}
              maxLength={reason.maxLength}
              required={reason.required}
              onChange={(event) => reason.onChange(event.target.value)}
            />
          </div>
        ) : null}
        <div className="form-actions">
          <button
            type="submit"
            className={`button ${danger ? 'button--danger' : 'button--primary'}`}
            disabled={busy || missingReason}
          >
            {busy ? t('confirm.working') : confirmLabel}
          </button>
          <button type="button" className="button button--ghost" onClick={cancel} disabled={busy}>
            {t('confirm.cancel')}
          </button>
        </div>
      </form>
    </section>
  );
}

/** Moves the focus to a heading when it appears (a panel opened by a button further up). */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}
