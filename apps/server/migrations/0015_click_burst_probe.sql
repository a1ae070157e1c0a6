-- The click-burst check (docs/product/review.md#signals) for a whole batch of visits in one statement
-- (domain/review-signals.ts `checkClickBursts`), which the visit writer runs once per batch after the
-- batch's commit (features/landing/visit-writer.ts) instead of one statement per counted visit. Inside
-- PL/pgSQL its plan is kept for the connection, as record_clicks' is (migrations/0004_record_clicks.sql):
-- sent on its own, the per-visit statement was planned again every time, which cost the embedded
-- database more than running it.

-- The visits a burst source counts on an affiliate's codes within (window_start, window_end]: the one
-- table of conditions, a branch per source. Each branch runs only for its own source (its first
-- condition is a constant for the source asked) and starts from its own index: an IP hash's counted
-- visits from clicks_ip_hash_idx (migrations/0003_programme.sql), a device's from clicks_visitor_key_idx
-- (migrations/0014_visit_burst_index.sql), each visit's code then looked up by key; a data centre's
-- visits, counted or not, from the affiliate's codes.
CREATE FUNCTION click_burst_visits(
  burst_source text, burst_key text, burst_affiliate text, window_start timestamptz, window_end timestamptz
) RETURNS TABLE (code text, created_at timestamptz)
LANGUAGE sql STABLE AS $$
  SELECT v.code, v.created_at FROM clicks v
  WHERE burst_source = 'ip' AND v.counted AND v.ip_hash = burst_key
    AND v.created_at > window_start AND v.created_at <= window_end
    AND (SELECT r.affiliate_id FROM referral_codes r WHERE r.id = v.referral_code_id) = burst_affiliate
  UNION ALL
  SELECT v.code, v.created_at FROM clicks v
  WHERE burst_source = 'device' AND v.counted AND v.visitor_key = burst_key
    AND v.created_at > window_start AND v.created_at <= window_end
    AND (SELECT r.affiliate_id FROM referral_codes r WHERE r.id = v.referral_code_id) = burst_affiliate
  UNION ALL
  SELECT v.code, v.created_at FROM referral_codes r JOIN clicks v ON v.referral_code_id = r.id
  WHERE burst_source = 'data-centre' AND r.affiliate_id = burst_affiliate AND v.user_agent ~* burst_key
    AND v.created_at > window_start AND v.created_at <= window_end
$$;

-- The batch's questions, each (code, source, key) — a counted visit's IP hash and visitor key, a data
-- centre's visit with the agents' pattern — answered only when there is something to do: the source's
-- signal was raised on `utc_day` for the code's affiliate (looked up once per affiliate and source; the
-- caller remembers it), or the source is over its threshold (`max_clicks` for an IP hash or a device,
-- `max_data_centre` for a data centre), with the evidence: every visit of the window counted, their
-- codes, the first and the last. Before that, a source's visits are counted only up to one past the
-- larger threshold, so that a busy source costs no more than that. Most batches answer no row.
CREATE FUNCTION click_burst_probe(
  visit_codes text[], visit_sources text[], visit_keys text[], window_start timestamptz, window_end timestamptz,
  utc_day text, max_clicks int, max_data_centre int
) RETURNS TABLE (
  code text, source text, affiliate_id text, raised boolean, burst_clicks int, burst_codes text[],
  first_at timestamptz, last_at timestamptz
)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH asked AS MATERIALIZED (
    SELECT t.code, t.source, t.source_key, r.affiliate_id
    FROM unnest(visit_codes, visit_sources, visit_keys) AS t(code, source, source_key)
    JOIN referral_codes r ON r.code = t.code
  ),
  raised AS MATERIALIZED (
    SELECT k.affiliate_id, k.source
    FROM (SELECT DISTINCT a.affiliate_id, a.source FROM asked a) k
    WHERE EXISTS (
      SELECT 1 FROM review_signals s
      WHERE s.affiliate_id = k.affiliate_id AND s.dedupe_key = 'click-burst:' || k.source || ':' || utc_day
    )
  ),
  counted AS MATERIALIZED (
    SELECT a.code, a.source, a.source_key, a.affiliate_id, r.affiliate_id IS NOT NULL AS raised, n.clicks
    FROM asked a
    LEFT JOIN raised r ON r.affiliate_id = a.affiliate_id AND r.source = a.source
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS clicks FROM (
        SELECT 1 FROM click_burst_visits(a.source, a.source_key, a.affiliate_id, window_start, window_end)
        WHERE r.affiliate_id IS NULL
        LIMIT greatest(max_clicks, max_data_centre) + 1
      ) recent
    ) n
  )
  SELECT c.code, c.source, c.affiliate_id, c.raised, e.burst_clicks, e.burst_codes, e.first_at, e.last_at
  FROM counted c
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS burst_clicks, array_agg(DISTINCT b.code ORDER BY b.code) AS burst_codes,
           min(b.created_at) AS first_at, max(b.created_at) AS last_at
    FROM click_burst_visits(c.source, c.source_key, c.affiliate_id, window_start, window_end) b
    WHERE NOT c.raised
  ) e
  WHERE c.raised OR c.clicks > CASE c.source WHEN 'data-centre' THEN max_data_centre ELSE max_clicks END;
END
$$;
