import { VITAL_NAMES, VITALS_DEFAULT_DAYS, type VitalName, rateVital } from '@skanova/shared/admin/vitals';
import type { AdminWebVitals } from '@skanova/shared/admin/responses';
import type { AppContext } from '../../context.ts';

// Web vitals for operators (docs/product/calls-and-data.md#other-endpoints): the 75th percentile of each metric per page over the last
// days, as web.dev assesses a page. Pages are whatever visitors' browsers reported, so the answer
// keeps the most measured pages only.

const DAY_MS = 24 * 60 * 60 * 1000;
/** Pages in the answer, most samples first (a reporter could post any number of paths). */
export const VITALS_MAX_PAGES = 50;

const VITALS_SQL = `
WITH recent AS (
  SELECT page, name, value FROM web_vitals WHERE created_at >= $1
),
pages AS (
  SELECT page FROM recent GROUP BY page ORDER BY count(*) DESC, page LIMIT ${VITALS_MAX_PAGES}
)
SELECT r.page, r.name, percentile_cont(0.75) WITHIN GROUP (ORDER BY r.value) AS p75, count(*)::int AS samples
FROM recent r JOIN pages p ON p.page = r.page
GROUP BY r.page, r.name`;

export async function webVitalsP75(app: AppContext, days = VITALS_DEFAULT_DAYS): Promise<AdminWebVitals> {
  const since = new Date(app.now().getTime() - days * DAY_MS);
  const { rows } = await app.database.sql.query<{
    page: string;
    name: VitalName;
    p75: number | string;
    samples: number;
  }>(VITALS_SQL, [since.toISOString()]);
  const order = (name: VitalName) => VITAL_NAMES.indexOf(name);
  const vitals = rows
    .map((row) => {
      const p75 = Number(row.p75);
      return { page: row.page, name: row.name, p75, samples: row.samples, rating: rateVital(row.name, p75) };
    })
    .sort((a, b) => (a.page < b.page ? -1 : a.page > b.page ? 1 : order(a.name) - order(b.name)));
  return { days, since: since.toISOString(), vitals };
}
