import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { TICKET_STATUSES, type TicketStatus } from '@skanova/shared/admin/schemas';
import type { AdminTicket } from '@skanova/shared/admin/responses';
import { callFunction } from '../../lib/callable';
import { useTranslation } from '../../lib/react-i18n';
import { formatDateTime, useAdminErrorMessage } from './admin-format';
import { ListState, type Notice, NoticeBanner, Pager } from './console-parts';
import { adminKeys, useAdminTickets } from './queries';

// Support tickets from the contact form (docs/product/routes-and-screens.md#support-page), the open ones by default, newest first; each
// is answered from the support inbox, then marked handled here.

export function TicketsTab() {
  const { t } = useTranslation('admin');
  const [status, setStatus] = useState<TicketStatus | ''>('open');
  const [page, setPage] = useState(1);
  const tickets = useAdminTickets({ ...(status ? { status } : {}), page });
  const items = tickets.data?.items ?? [];
  const [notice, setNotice] = useState<Notice>(null);
  return (
    <div className="admin-stack">
      <h2 className="visually-hidden">{t('tabs.tickets')}</h2>
      <section className="card" aria-labelledby="admin-tickets-title">
        <h3 id="admin-tickets-title">{t('tickets.title')}</h3>
        <div className="admin-filters">
          <div className="form-field">
            <label htmlFor="admin-tickets-status">{t('tickets.status')}</label>
            <select
              id="admin-tickets-status"
              value={status}
              onChange={(event) => {
                setStatus(event.target.value as TicketStatus | '');
                setPage(1);
              }}
            >
              <option value="">{t('tickets.statuses.all')}</option>
              {TICKET_STATUSES.map((option) => (
                <option key={option} value={option}>
                  {t(`tickets.statuses.${option}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <NoticeBanner notice={notice} />
        <ListState query={tickets} empty={items.length === 0} />
        {items.length > 0 ? (
          <ul className="admin-tickets">
            {items.map((ticket) => (
              <TicketItem key={ticket.id} ticket={ticket} onNotice={setNotice} />
            ))}
          </ul>
        ) : null}
        <Pager page={tickets.data} label={t('tickets.pages')} onPage={setPage} />
      </section>
    </div>
  );
}

function TicketItem({ ticket, onNotice }: { ticket: AdminTicket; onNotice: (notice: Notice) => void }) {
  const { t, i18n } = useTranslation('admin');
  const { t: tSupport } = useTranslation('support');
  const errorMessage = useAdminErrorMessage();
  const queryClient = useQueryClient();
  const lang = i18n.language;
  const handle = useMutation({
    mutationFn: () => callFunction('adminMarkTicketHandled', { ticketId: ticket.id }),
    onSuccess: () => onNotice({ kind: 'success', text: t('tickets.handledNotice', { name: ticket.name }) }),
    onError: (error) => onNotice({ kind: 'error', text: errorMessage(error) }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.tickets }),
        queryClient.invalidateQueries({ queryKey: adminKeys.audit }),
      ]),
  });
  const titleId = `admin-ticket-${ticket.id}`;
  return (
    <li>
      <article className="admin-ticket" aria-labelledby={titleId}>
        <header className="admin-ticket__header">
          <h4 id={titleId}>
            {t('tickets.heading', { subject: tSupport(`form.subjects.${ticket.subject}`), name: ticket.name })}
          </h4>
          <span className={`badge admin-badge--${ticket.status}`}>{t(`tickets.statuses.${ticket.status}`)}</span>
        </header>
        <p className="admin-ticket__meta">
          <a href={`mailto:${ticket.email}`}>{ticket.email}</a> · {formatDateTime(ticket.createdAt, lang)} ·{' '}
          {t(`tickets.languages.${ticket.language}`)}
        </p>
        <p className="admin-ticket__message">{ticket.message}</p>
        {ticket.status === 'open' ? (
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={handle.isPending}
            onClick={() => handle.mutate()}
          >
            {t('tickets.markHandled')}
            <span className="visually-hidden"> – {ticket.name}</span>
          </button>
        ) : (
          <p className="admin-ticket__meta">
            {ticket.handledAt ? t('tickets.handledAt', { date: formatDateTime(ticket.handledAt, lang) }) : null}
          </p>
        )}
      </article>
    </li>
  );
}
