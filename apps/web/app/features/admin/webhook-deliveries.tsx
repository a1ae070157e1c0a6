import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type RefObject, useState } from 'react';
import {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_TYPES,
  type WebhookDeliveryStatus,
  type WebhookEventType,
} from '@skanova/shared/webhooks/constants';
import type {
  AdminWebhookAttempt,
  AdminWebhookDelivery,
  AdminWebhookEndpoint,
} from '@skanova/shared/webhooks/functions';
import { callFunction } from '../../lib/callable';
import { useTranslation } from '../../lib/react-i18n';
import { formatCompactDateTime, formatDateTime } from './admin-format';
import { AdminTable, ListState, type Notice, NoticeBanner, Pager } from './console-parts';
import { adminKeys } from './queries';
import { useWebhookErrorMessage } from './webhook-errors';
import { useWebhookDeliveries, webhookKeys } from './webhooks-queries';

// The delivery log (docs/product/webhooks.md#delivery-log): every event sent to every endpoint, newest
// first, filtered by endpoint, status and event; each with its attempts (time, result, duration) and,
// when delivered or given up, a way to send it again (docs/product/webhooks.md#replay).

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** What an attempt came to, in words: the receiver's status, or why there was none. */
export function attemptResult(t: Translate, attempt: Pick<AdminWebhookAttempt, 'statusCode' | 'error'>): string {
  const key = attempt.error ?? 'ok';
  return t(`deliveries.results.${key}`, { status: attempt.statusCode ?? '' });
}

export function WebhookDeliveryLog({
  endpoints,
  endpointId,
  onEndpoint,
  headingRef,
}: {
  endpoints: AdminWebhookEndpoint[];
  endpointId: string;
  onEndpoint: (endpointId: string) => void;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const { t } = useTranslation('webhooks');
  const [status, setStatus] = useState<WebhookDeliveryStatus | ''>('');
  const [eventType, setEventType] = useState<WebhookEventType | ''>('');
  const [page, setPage] = useState(1);
  const deliveries = useWebhookDeliveries({
    ...(endpointId ? { endpointId } : {}),
    ...(status ? { status } : {}),
    ...(eventType ? { eventType } : {}),
    page,
  });
  const items = deliveries.data?.items ?? [];
  const [notice, setNotice] = useState<Notice>(null);
  return (
    <section className="card" aria-labelledby="admin-webhooks-log-title">
      <h3 id="admin-webhooks-log-title" ref={headingRef} tabIndex={-1}>
        {t('deliveries.title')}
      </h3>
      <div className="admin-filters">
        <div className="form-field admin-filters__wide">
          <label htmlFor="admin-webhooks-log-endpoint">{t('deliveries.endpoint')}</label>
          <select
            id="admin-webhooks-log-endpoint"
            value={endpointId}
            onChange={(event) => {
              onEndpoint(event.target.value);
              setPage(1);
            }}
          >
            <option value="">{t('deliveries.allEndpoints')}</option>
            {endpoints.map((endpoint) => (
              <option key={endpoint.id} value={endpoint.id}>
                {endpoint.description ? `${endpoint.description} (${endpoint.url})` : endpoint.url}
              </option>
            ))}
          </select>
        </div>
        <div className="form-field">
          <label htmlFor="admin-webhooks-log-status">{t('deliveries.status')}</label>
          <select
            id="admin-webhooks-log-status"
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as WebhookDeliveryStatus | '');
              setPage(1);
            }}
          >
            <option value="">{t('deliveries.allStatuses')}</option>
            {WEBHOOK_DELIVERY_STATUSES.map((option) => (
              <option key={option} value={option}>
                {t(`deliveries.statuses.${option}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="form-field">
          <label htmlFor="admin-webhooks-log-event">{t('deliveries.event')}</label>
          <select
            id="admin-webhooks-log-event"
            value={eventType}
            onChange={(event) => {
              setEventType(event.target.value as WebhookEventType | '');
              setPage(1);
            }}
          >
            <option value="">{t('deliveries.allEvents')}</option>
            {WEBHOOK_EVENT_TYPES.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
        <div className="form-actions">
          <button
            type="button"
            className="button button--secondary"
            disabled={deliveries.isFetching}
            onClick={() => void deliveries.refetch()}
          >
            {t('deliveries.refresh')}
          </button>
        </div>
      </div>
      <NoticeBanner notice={notice} />
      <ListState query={deliveries} empty={items.length === 0} />
      {items.length > 0 ? (
        <AdminTable
          region={t('deliveries.tableLabel')}
          className="admin-table--stack admin-webhooks__log"
          columns={[
            { label: t('deliveries.columns.created') },
            { label: t('deliveries.columns.event') },
            { label: t('deliveries.columns.endpoint') },
            { label: t('deliveries.columns.status') },
            { label: t('deliveries.columns.result') },
            { label: t('deliveries.columns.actions'), hidden: true },
          ]}
        >
          {items.map((delivery) => (
            <DeliveryRow
              key={delivery.id}
              delivery={delivery}
              endpoint={endpoints.find((endpoint) => endpoint.id === delivery.endpointId)}
              onNotice={setNotice}
            />
          ))}
        </AdminTable>
      ) : null}
      <Pager page={deliveries.data} label={t('deliveries.pages')} onPage={setPage} />
    </section>
  );
}

function DeliveryRow({
  delivery,
  endpoint,
  onNotice,
}: {
  delivery: AdminWebhookDelivery;
  endpoint: AdminWebhookEndpoint | undefined;
  onNotice: (notice: Notice) => void;
}) {
  const { t, i18n } = useTranslation('webhooks');
  const lang = i18n.language;
  const errorMessage = useWebhookErrorMessage();
  const queryClient = useQueryClient();
  const replay = useMutation({
    mutationFn: () => callFunction('adminReplayWebhookDelivery', { deliveryId: delivery.id }),
    onSuccess: () => onNotice({ kind: 'success', text: t('deliveries.replayed') }),
    onError: (error) => onNotice({ kind: 'error', text: errorMessage(error) }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries }),
        queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints }),
        queryClient.invalidateQueries({ queryKey: adminKeys.audit }),
      ]),
  });
  const last = delivery.attemptLog[0];
  const label = (column: string) => t(`deliveries.columns.${column}`);
  return (
    <tr>
      <td className="admin-table__date" data-label={label('created')}>
        {formatCompactDateTime(delivery.createdAt, lang)}
      </td>
      <td className="admin-webhooks__event" data-label={label('event')}>
        <code>{delivery.eventType}</code>
        {delivery.affiliateId ? (
          <span className="admin-table__sub">{t('deliveries.affiliate', { id: delivery.affiliateId })}</span>
        ) : null}
      </td>
      <td className="admin-table__wrap admin-webhooks__endpoint" data-label={label('endpoint')}>
        {endpoint?.description ? (
          <>
            {endpoint.description}
            <span className="admin-table__sub">{delivery.endpointUrl}</span>
          </>
        ) : (
          delivery.endpointUrl
        )}
      </td>
      <td data-label={label('status')}>
        <span className={`badge admin-badge--${delivery.status}`}>{t(`deliveries.statuses.${delivery.status}`)}</span>
        {delivery.nextAttemptAt ? (
          <span className="admin-table__sub">
            {t('deliveries.next', { date: formatCompactDateTime(delivery.nextAttemptAt, lang) })}
          </span>
        ) : null}
      </td>
      <td data-label={label('result')}>
        <span>{last ? attemptResult(t, last) : t('deliveries.noAttempt')}</span>
        {delivery.attemptLog.length > 0 ? (
          <details className="admin-webhooks__history">
            <summary>{t('deliveries.attempts', { count: delivery.attempts })}</summary>
            <ol>
              {delivery.attemptLog.map((attempt) => (
                <li key={attempt.attempt}>
                  {t('deliveries.attempt', {
                    attempt: attempt.attempt,
                    date: formatDateTime(attempt.at, lang),
                    result: attemptResult(t, attempt),
                    duration: attempt.durationMs,
                  })}
                </li>
              ))}
            </ol>
          </details>
        ) : null}
      </td>
      <td>
        {delivery.status !== 'pending' ? (
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={replay.isPending}
            onClick={() => {
              onNotice(null);
              replay.mutate();
            }}
          >
            {t('deliveries.replay')}
            <span className="visually-hidden">
              {' '}
              – {delivery.eventType} · {delivery.endpointUrl} · {formatDateTime(delivery.createdAt, lang)}
            </span>
          </button>
        ) : null}
      </td>
    </tr>
  );
}
