import { type UseQueryResult, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { AffiliateStats, ReferralCodeStats } from '@skanova/shared/affiliate/stats';
import {
  AFFILIATE_MARKETING_PAGE,
  AFFILIATE_QR_CODE_PAGE,
  REFERRAL_DESCRIPTION_MAX,
} from '@skanova/shared/affiliate/constants';
import { MAX_REFERRAL_CODES } from '@skanova/shared/affiliate/programme';
import { LANDING_PAGE } from '@skanova/shared/site/constants';
import { CallableClientError, callFunction } from '../../lib/callable';
import { copyText } from '../../lib/clipboard';
import { useTranslation } from '../../lib/react-i18n';
import { siteConfig } from '../../lib/site-config';
import { ReferralQrPanel } from '../../components/referral-qr-panel';
import { formatCount } from '../../lib/format';
import { dashboardKeys } from './queries';
import { SectionLoading } from './section-loading';

// Links (docs/product/routes-and-screens.md#links-tab): generate a code (at most MAX_REFERRAL_CODES), the codes with their counts and a
// copy action, how to use them, the QR of the first code, and the QR and marketing pages.

/** The referral link's shape (docs/product/attribution.md#referral-link), shown as the example before the first code exists. */
const EXAMPLE_CODE = 'CODE';

/**
 * `focusForm`: the affiliate came from the overview's invitation to create a first link; the form
 * takes the focus.
 */
export function LinksTab({ stats, focusForm = false }: { stats: UseQueryResult<AffiliateStats>; focusForm?: boolean }) {
  const { t } = useTranslation('dashboard');
  const codes = stats.data?.referralCodes ?? [];
  const first = codes[0];
  return (
    <div className="dashboard-stack">
      <h2 className="visually-hidden">{t('tabs.links')}</h2>
      <GenerateLinkForm stats={stats} focus={focusForm} />
      {codes.length > 0 ? <CodesTable codes={codes} /> : null}
      {stats.isPending ? <SectionLoading /> : null}
      <UsageInstructions exampleLink={first?.link ?? `${siteConfig.publicUrl}${LANDING_PAGE}?ref=${EXAMPLE_CODE}`} />
      {first ? (
        <section className="card" aria-labelledby="dashboard-qr-title">
          <h3 id="dashboard-qr-title">{t('links.qr.title', { code: first.code })}</h3>
          <ReferralQrPanel code={first.code} link={first.link} />
        </section>
      ) : null}
      <nav className="card dashboard-more" aria-labelledby="dashboard-more-title">
        <h3 id="dashboard-more-title">{t('links.more.title')}</h3>
        <div className="button-row">
          <Link className="button button--secondary" to={AFFILIATE_QR_CODE_PAGE}>
            {t('links.more.qrcode')}
          </Link>
          <Link className="button button--secondary" to={AFFILIATE_MARKETING_PAGE}>
            {t('links.more.marketing')}
          </Link>
        </div>
      </nav>
    </div>
  );
}

type Notice = { kind: 'success' | 'error'; text: string } | null;

/**
 * The form that creates a code. An active affiliate without any code sees it as the invitation to
 * create the first one: its own title, what a link does, and a button that says so.
 */
function GenerateLinkForm({ stats, focus }: { stats: UseQueryResult<AffiliateStats>; focus: boolean }) {
  const { t } = useTranslation('dashboard');
  const input = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const [description, setDescription] = useState('');
  const [notice, setNotice] = useState<Notice>(null);
  const generate = useMutation({
    mutationFn: (text: string) => callFunction('generateReferralCode', { description: text.trim() || null }),
    // Returning the re-fetch keeps the button busy until the new code is listed (docs/product/routes-and-screens.md#links-tab).
    onSuccess: (result) => {
      setDescription('');
      setNotice({ kind: 'success', text: t('links.generated', { code: result.code }) });
      return queryClient.invalidateQueries({ queryKey: dashboardKeys.stats });
    },
    onError: (error) => {
      const code = error instanceof CallableClientError ? error.code : null;
      const text =
        code === 'max-codes-reached'
          ? t('links.limitReached', { max: MAX_REFERRAL_CODES })
          : code === 'affiliate-not-active'
            ? t('status.cannotGenerate')
            : t('errors.generate');
      setNotice({ kind: 'error', text });
      return queryClient.invalidateQueries({ queryKey: dashboardKeys.stats });
    },
  });
  const count = stats.data?.referralCodes.length ?? 0;
  const atLimit = count >= MAX_REFERRAL_CODES;
  // Applications waiting for (or refused by) an operator cannot create links (docs/product/rules-and-constants.md#applications-and-disabled-accounts).
  const inactive = stats.data !== undefined && stats.data.status !== 'active';
  const disabled = !stats.data || stats.isFetching || generate.isPending || atLimit || inactive;
  const firstLink = stats.data !== undefined && count === 0 && !inactive;
  useEffect(() => {
    if (focus) input.current?.focus();
  }, [focus]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (disabled) return;
    setNotice(null);
    generate.mutate(description);
  }

  return (
    <section className={firstLink ? 'card dashboard-first-link' : 'card'} aria-labelledby="dashboard-generate-title">
      <h3 id="dashboard-generate-title">{t(firstLink ? 'links.first.title' : 'links.generate.title')}</h3>
      {firstLink ? <p>{t('links.first.text')}</p> : null}
      <form className="dashboard-generate" onSubmit={onSubmit} noValidate>
        <div className="form-field">
          <label htmlFor="dashboard-code-description">{t('links.generate.description')}</label>
          <input
            ref={input}
            id="dashboard-code-description"
            name="description"
            type="text"
            value={description}
            maxLength={REFERRAL_DESCRIPTION_MAX}
            aria-describedby="dashboard-code-description-hint"
            onChange={(event) => setDescription(event.target.value)}
            disabled={atLimit}
          />
          <p className="form-hint" id="dashboard-code-description-hint">
            {t('links.generate.descriptionHint', { max: REFERRAL_DESCRIPTION_MAX })}
          </p>
        </div>
        <div className="form-actions">
          <button
            type="submit"
            className="button button--primary"
            disabled={disabled}
            aria-describedby="dashboard-code-count"
          >
            {generate.isPending
              ? t('links.generate.busy')
              : t(firstLink ? 'links.first.submit' : 'links.generate.submit')}
          </button>
          <p className="form-hint" id="dashboard-code-count">
            {stats.data ? t('links.generate.count', { used: count, max: MAX_REFERRAL_CODES }) : null}
          </p>
        </div>
      </form>
      {atLimit ? <p className="form-info">{t('links.limitReached', { max: MAX_REFERRAL_CODES })}</p> : null}
      {inactive ? <p className="form-info">{t('status.cannotGenerate')}</p> : null}
      {notice?.kind === 'error' ? (
        <p className="form-error" role="alert">
          {notice.text}
        </p>
      ) : null}
      <div role="status">{notice?.kind === 'success' ? <p className="form-success">{notice.text}</p> : null}</div>
    </section>
  );
}

function CodesTable({ codes }: { codes: readonly ReferralCodeStats[] }) {
  const { t, i18n } = useTranslation('dashboard');
  const [copied, setCopied] = useState(false);

  async function copy(link: string) {
    setCopied(false);
    // docs/product/messages.md#confirmations: copy failures are only logged; the link stays visible to copy by hand.
    setCopied(await copyText(link));
  }

  return (
    <section className="card" aria-labelledby="dashboard-codes-title">
      <h3 id="dashboard-codes-title">{t('links.table.title')}</h3>
      <div className="table-scroll">
        {/* Explicit roles: on a phone the rows are laid out as blocks (dashboard.css), which some
            browsers would otherwise no longer present as a table. */}
        <table className="dashboard-table dashboard-codes" role="table">
          <thead>
            <tr>
              <th scope="col">{t('links.table.code')}</th>
              <th scope="col">{t('links.table.description')}</th>
              <th scope="col" className="dashboard-table__number">
                {t('links.table.clicks')}
              </th>
              <th scope="col" className="dashboard-table__number">
                {t('links.table.conversions')}
              </th>
              <th scope="col">{t('links.table.link')}</th>
            </tr>
          </thead>
          <tbody role="rowgroup">
            {codes.map((code) => (
              <tr key={code.code} role="row">
                <th scope="row" role="rowheader" className="dashboard-codes__code">
                  <code>{code.code}</code>
                </th>
                <td role="cell" className="dashboard-codes__description">
                  {code.description ?? (
                    <>
                      <span aria-hidden="true">—</span>
                      <span className="visually-hidden">{t('links.table.noDescription')}</span>
                    </>
                  )}
                </td>
                {(
                  [
                    ['clicks', code.clickCount],
                    ['conversions', code.conversionCount],
                  ] as const
                ).map(([column, count]) => (
                  <td
                    key={column}
                    role="cell"
                    className={`dashboard-table__number dashboard-codes__${column}`}
                    data-label={t(`links.table.${column}`)}
                  >
                    {formatCount(count, i18n.language)}
                  </td>
                ))}
                <td role="cell" className="dashboard-codes__copy">
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    onClick={() => void copy(code.link)}
                  >
                    {t('links.table.copy')} <span className="visually-hidden">{code.code}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div role="status">{copied ? <p className="form-success">{t('links.copied')}</p> : null}</div>
    </section>
  );
}

function UsageInstructions({ exampleLink }: { exampleLink: string }) {
  const { t } = useTranslation('dashboard');
  const steps = t('links.usage.steps', { returnObjects: true }) as string[];
  return (
    <section className="card" aria-labelledby="dashboard-usage-title">
      <h3 id="dashboard-usage-title">{t('links.usage.title')}</h3>
      <ol className="dashboard-usage">
        {steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <p className="dashboard-usage__example">
        {t('links.usage.example')} <code>{exampleLink}</code>
      </p>
    </section>
  );
}
