import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { AdminWebhookEndpoint, AdminWebhookEndpointWithSecret } from '@skanova/shared/webhooks/functions';
import { callFunction } from '../../lib/callable';
import { copyText } from '../../lib/clipboard';
import { useTranslation } from '../../lib/react-i18n';
import { formatDateTime } from './admin-format';
import { ConfirmPanel, ListState, type Notice, NoticeBanner, useFocusOnMount } from './console-parts';
import { adminKeys } from './queries';
import { WebhookDeliveryLog } from './webhook-deliveries';
import { WebhookEndpointForm } from './webhook-endpoint-form';
import { useWebhookErrorMessage } from './webhook-errors';
import { webhookKeys, useWebhookEndpoints } from './webhooks-queries';
import './webhooks.css';

// Outgoing webhooks (docs/product/webhooks.md): the endpoints, each with its events, state and actions
// (edit, disable or enable, rotate the secret, delete — each change that stops or breaks deliveries
// confirmed first), the form that adds one, the secret shown once after a creation or a rotation,
// and the delivery log with replay.

interface ShownSecret {
  url: string;
  secret: string;
}

export function WebhooksTab() {
  const { t } = useTranslation('admin');
  const { t: tw } = useTranslation('webhooks');
  const endpoints = useWebhookEndpoints();
  const items = endpoints.data ?? [];
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const [logEndpoint, setLogEndpoint] = useState('');
  const [notice, setNotice] = useState<Notice>(null);
  const logHeading = useRef<HTMLHeadingElement>(null);
  const showSecret = (answer: AdminWebhookEndpointWithSecret) =>
    setSecret({ url: answer.endpoint.url, secret: answer.secret });
  return (
    <div className="admin-stack">
      <h2 className="visually-hidden">{t('tabs.webhooks')}</h2>
      {secret ? <SecretPanel key={secret.secret} shown={secret} onDone={() => setSecret(null)} /> : null}
      <section className="card" aria-labelledby="admin-webhooks-title">
        <h3 id="admin-webhooks-title">{tw('endpoints.title')}</h3>
        <p className="admin-webhooks__intro">{tw('endpoints.intro')}</p>
        <NoticeBanner notice={notice} />
        <ListState query={endpoints} empty={false} />
        {endpoints.isSuccess && items.length === 0 ? (
          <p className="empty-state admin-empty">{tw('endpoints.empty')}</p>
        ) : null}
        {items.length > 0 ? (
          <ul className="admin-webhooks">
            {items.map((endpoint) => (
              <EndpointItem
                key={endpoint.id}
                endpoint={endpoint}
                onSecret={showSecret}
                onDeleted={() => setNotice({ kind: 'success', text: tw('endpoints.notices.deleted') })}
                onDeliveries={() => {
                  setLogEndpoint(endpoint.id);
                  logHeading.current?.focus();
                }}
              />
            ))}
          </ul>
        ) : null}
      </section>
      <section className="card" aria-labelledby="admin-webhooks-add-title">
        <h3 id="admin-webhooks-add-title">{tw('form.addTitle')}</h3>
        <WebhookEndpointForm
          idPrefix="admin-webhooks-add"
          onSaved={(answer) => {
            if (answer.secret) showSecret({ endpoint: answer.endpoint, secret: answer.secret });
          }}
        />
      </section>
      <WebhookDeliveryLog
        endpoints={items}
        endpointId={logEndpoint}
        onEndpoint={setLogEndpoint}
        headingRef={logHeading}
      />
    </div>
  );
}

/** The secret of a new or rotated endpoint, shown this once with a copy button. */
function SecretPanel({ shown, onDone }: { shown: ShownSecret; onDone: () => void }) {
  const { t } = useTranslation('webhooks');
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const [copied, setCopied] = useState<Notice>(null);
  return (
    <section className="card admin-webhooks__secret" aria-labelledby="admin-webhooks-secret-title">
      <h3 id="admin-webhooks-secret-title" ref={heading} tabIndex={-1}>
        {t('secret.title', { url: shown.url })}
      </h3>
      <p>{t('secret.text')}</p>
      <div className="form-field">
        <label htmlFor="admin-webhooks-secret">{t('secret.label')}</label>
        <input
          id="admin-webhooks-secret"
          className="admin-webhooks__secret-value"
          value={shown.secret}
          readOnly
          spellCheck={false}
          autoComplete="off"
          onFocus={(event) => event.currentTarget.select()}
        />
      </div>
      <div role="status">
        {copied ? <p className={copied.kind === 'success' ? 'form-success' : 'form-error'}>{copied.text}</p> : null}
      </div>
      <div className="form-actions">
        <button
          type="button"
          className="button button--primary"
          onClick={() =>
            void copyText(shown.secret).then((ok) =>
              setCopied(
                ok ? { kind: 'success', text: t('secret.copied') } : { kind: 'error', text: t('secret.copyFailed') },
              ),
            )
          }
        >
          {t('secret.copy')}
        </button>
        <button type="button" className="button button--secondary" onClick={onDone}>
          {t('secret.done')}
        </button>
      </div>
    </section>
  );
}

type Pending = 'disable' | 'rotate' | 'delete' | null;

function EndpointItem({
  endpoint,
  onSecret,
  onDeleted,
  onDeliveries,
}: {
  endpoint: AdminWebhookEndpoint;
  onSecret: (answer: AdminWebhookEndpointWithSecret) => void;
  onDeleted: () => void;
  onDeliveries: () => void;
}) {
  const { t, i18n } = useTranslation('webhooks');
  const lang = i18n.language;
  const errorMessage = useWebhookErrorMessage();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Pending>(null);
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints }),
      queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries }),
      queryClient.invalidateQueries({ queryKey: adminKeys.audit }),
    ]);
  const act = useMutation({
    mutationFn: async (action: 'disable' | 'enable' | 'rotate' | 'delete') => {
      if (action === 'rotate')
        return { action, answer: await callFunction('adminRotateWebhookSecret', { endpointId: endpoint.id }) };
      if (action === 'delete') {
        await callFunction('adminDeleteWebhookEndpoint', { endpointId: endpoint.id });
        return { action, answer: null };
      }
      await callFunction('adminUpdateWebhookEndpoint', { endpointId: endpoint.id, enabled: action === 'enable' });
      return { action, answer: null };
    },
    onSuccess: ({ action, answer }) => {
      setPending(null);
      if (answer) onSecret(answer);
      else if (action === 'delete') onDeleted();
      else setNotice({ kind: 'success', text: t(`endpoints.notices.${action}d`) });
    },
    onError: (error) => setNotice({ kind: 'error', text: errorMessage(error) }),
    onSettled: refresh,
  });
  const titleId = `admin-webhook-${endpoint.id}`;
  const button = (label: string, onClick: () => void, variant = 'button--secondary') => (
    <button
      type="button"
      className={`button ${variant} button--small`}
      disabled={act.isPending}
      onClick={() => {
        setNotice(null);
        onClick();
      }}
    >
      {label}
      <span className="visually-hidden"> – {endpoint.url}</span>
    </button>
  );
  return (
    <li>
      <article className="admin-webhook" aria-labelledby={titleId}>
        <header className="admin-webhook__header">
          <h4 id={titleId} className="admin-webhook__url">
            {endpoint.url}
          </h4>
          <span className={`badge admin-badge--${endpoint.enabled ? 'active' : 'disabled'}`}>
            {endpoint.enabled ? t('endpoints.enabled') : t('endpoints.disabled')}
          </span>
        </header>
        {endpoint.description ? <p className="admin-webhook__note">{endpoint.description}</p> : null}
        <p className="admin-webhook__events">
          <span className="visually-hidden">{t('endpoints.events')}: </span>
          {endpoint.eventTypes.map((type) => (
            <code key={type}>{type}</code>
          ))}
        </p>
        <p className="admin-ticket__meta">
          {t('endpoints.added', { date: formatDateTime(endpoint.createdAt, lang) })}
          {endpoint.secretRotatedAt
            ? ` · ${t('endpoints.rotated', { date: formatDateTime(endpoint.secretRotatedAt, lang) })}`
            : null}
          {' · '}
          {t('endpoints.pending', { count: endpoint.pendingDeliveries })}
          {' · '}
          {t('endpoints.failed', { count: endpoint.failedDeliveries })}
        </p>
        {endpoint.previousSecretExpiresAt ? (
          <p className="form-info">
            {t('endpoints.overlap', { date: formatDateTime(endpoint.previousSecretExpiresAt, lang) })}
          </p>
        ) : null}
        <NoticeBanner notice={notice} />
        <div className="admin-webhook__actions">
          {button(t('endpoints.actions.edit'), () => setEditing((open) => !open))}
          {endpoint.enabled
            ? button(t('endpoints.actions.disable'), () => setPending('disable'))
            : button(t('endpoints.actions.enable'), () => act.mutate('enable'))}
          {button(t('endpoints.actions.rotate'), () => setPending('rotate'))}
          {button(t('endpoints.actions.deliveries'), onDeliveries)}
          {button(t('endpoints.actions.delete'), () => setPending('delete'), 'button--danger')}
        </div>
        {editing ? (
          <section className="admin-confirm" aria-labelledby={`${titleId}-edit`}>
            <h4 id={`${titleId}-edit`}>{t('form.editTitle', { url: endpoint.url })}</h4>
            <WebhookEndpointForm
              idPrefix={`${titleId}-form`}
              endpoint={endpoint}
              onSaved={() => {
                setEditing(false);
                setNotice({ kind: 'success', text: t('endpoints.notices.saved') });
              }}
              onCancel={() => setEditing(false)}
            />
          </section>
        ) : null}
        {pending ? (
          <ConfirmPanel
            id={`${titleId}-confirm`}
            title={t(`endpoints.confirm.${pending}.title`, { url: endpoint.url })}
            text={t(`endpoints.confirm.${pending}.text`)}
            confirmLabel={t(`endpoints.actions.${pending}`)}
            busy={act.isPending}
            danger={pending !== 'rotate'}
            onConfirm={() => act.mutate(pending)}
            onCancel={() => setPending(null)}
          />
        ) : null}
      </article>
    </li>
  );
}
