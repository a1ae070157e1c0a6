import { useState } from 'react';
import { VITAL_THRESHOLDS, VITALS_DEFAULT_DAYS, type VitalName } from '@skanova/shared/admin/vitals';
import { useTranslation } from '../../lib/react-i18n';
import { formatDateTime } from './admin-format';
import { AdminTable, ListState } from './console-parts';
import { useAdminWebVitals } from './queries';

// Web vitals (docs/product/calls-and-data.md#other-endpoints): the 75th percentile of what visitors' browsers measured, per page and
// metric, rated as web.dev does. The rating is written out, and coloured too.

const PERIODS = [1, VITALS_DEFAULT_DAYS, 28, 90] as const;

/** CLS has no unit (three decimals); the others are milliseconds. */
function formatVital(name: VitalName, value: number, lang: string, ms: (value: string) => string): string {
  if (name === 'CLS')
    return new Intl.NumberFormat(lang, { minimumFractionDigits: 3, maximumFractionDigits: 3 }).format(value);
  return ms(new Intl.NumberFormat(lang, { maximumFractionDigits: 0 }).format(value));
}

export function VitalsTab() {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const [days, setDays] = useState<number>(VITALS_DEFAULT_DAYS);
  const vitals = useAdminWebVitals(days);
  const rows = vitals.data?.vitals ?? [];
  const ms = (value: string) => t('vitals.ms', { value });
  return (
    <div className="admin-stack">
      <h2 className="visually-hidden">{t('tabs.vitals')}</h2>
      <section className="card" aria-labelledby="admin-vitals-title">
        <h3 id="admin-vitals-title">{t('vitals.title')}</h3>
        <div className="admin-filters">
          <div className="form-field">
            <label htmlFor="admin-vitals-days">{t('vitals.period')}</label>
            <select id="admin-vitals-days" value={days} onChange={(event) => setDays(Number(event.target.value))}>
              {PERIODS.map((option) => (
                <option key={option} value={option}>
                  {t(`vitals.periods.${option}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
        {vitals.data ? (
          <p className="form-hint">{t('vitals.since', { date: formatDateTime(vitals.data.since, lang) })}</p>
        ) : null}
        <ListState query={vitals} empty={rows.length === 0} />
        {rows.length > 0 ? (
          <AdminTable
            region={t('vitals.title')}
            columns={[
              { label: t('vitals.columns.page') },
              { label: t('vitals.columns.metric') },
              { label: t('vitals.columns.p75'), number: true },
              { label: t('vitals.columns.samples'), number: true },
              { label: t('vitals.columns.rating') },
            ]}
          >
            {rows.map((row) => (
              <tr key={`${row.page} ${row.name}`}>
                <th scope="row">
                  <code>{row.page}</code>
                </th>
                <td>
                  <abbr title={t(`vitals.names.${row.name}`)}>{row.name}</abbr>
                </td>
                <td className="admin-table__number">{formatVital(row.name, row.p75, lang, ms)}</td>
                <td className="admin-table__number">{new Intl.NumberFormat(lang).format(row.samples)}</td>
                <td>
                  <span className={`badge admin-badge--vital-${row.rating}`}>{t(`vitals.ratings.${row.rating}`)}</span>
                </td>
              </tr>
            ))}
          </AdminTable>
        ) : null}
        <details className="admin-thresholds">
          <summary>{t('vitals.thresholds')}</summary>
          <ul>
            {(Object.keys(VITAL_THRESHOLDS) as VitalName[]).map((name) => (
              <li key={name}>
                {t('vitals.threshold', {
                  name,
                  good: formatVital(name, VITAL_THRESHOLDS[name].good, lang, ms),
                  poor: formatVital(name, VITAL_THRESHOLDS[name].poor, lang, ms),
                })}
              </li>
            ))}
          </ul>
        </details>
      </section>
    </div>
  );
}
