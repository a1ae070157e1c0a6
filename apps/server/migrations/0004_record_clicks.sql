-- Landing-page visits are stored a batch at a time through one function (group commit, docs/product/attribution.md#recording-visits;
-- apps/server/src/features/landing/visit-batch.ts). Its statement is the one the writer used to send
-- as it is; inside PL/pgSQL its plan is kept for the connection, where the statement sent on its own
-- was parsed and planned again for every batch — on the embedded database, half of a small batch's
-- time. Every column travels as one array parameter and `unnest` turns the arrays back into rows:
--
-- - `input` gives each visit its click id up front (from the identity sequence), so the counted-click
--   key can point at it and the click row can say whether it won, in the same statement.
-- - `won` inserts the "one counted click per code per visitor per UTC hour" keys with
--   ON CONFLICT DO NOTHING: the primary key decides, against earlier batches, concurrent batches and
--   twins inside this batch alike (the earlier visit of the batch wins). Keys go in in key order so
--   that two batches in flight on PostgreSQL take their locks in the same order and cannot deadlock.
-- - the final INSERT writes the clicks, `counted` true only for the visits whose key was inserted.
--   Foreign keys are checked at the end of the statement, when both rows exist.
CREATE FUNCTION record_clicks(
  tracking_ids text[], types text[], codes text[], session_ids text[], visitor_keys text[], ip_hashes text[],
  user_agents text[], languages text[], timezones text[], screen_resolutions text[], platforms text[],
  color_depths int4[], device_memories float8[], hardware_concurrencies int4[], client_timestamps timestamptz[],
  referrers text[], paths text[], queries text[], bots bool[], created_ats timestamptz[], hour_buckets timestamptz[]
) RETURNS TABLE (tracking_id text, counted boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH input AS MATERIALIZED (
    SELECT nextval((SELECT pg_get_serial_sequence('clicks', 'id'))::regclass) AS id, t.*, rc.id AS referral_code_id
    FROM unnest(
      tracking_ids, types, codes, session_ids, visitor_keys, ip_hashes, user_agents, languages, timezones,
      screen_resolutions, platforms, color_depths, device_memories, hardware_concurrencies, client_timestamps,
      referrers, paths, queries, bots, created_ats, hour_buckets
    ) WITH ORDINALITY AS t(
      tracking_id, type, code, session_id, visitor_key, ip_hash, user_agent, language,
      timezone, screen_resolution, platform, color_depth, device_memory, hardware_concurrency, client_timestamp,
      referrer, path, query, is_bot, created_at, hour_bucket, ord
    )
    LEFT JOIN referral_codes rc ON rc.code = t.code
  ),
  won AS (
    INSERT INTO click_counts (referral_code_id, visitor_key, hour_bucket, click_id)
    SELECT referral_code_id, visitor_key, hour_bucket, id
    FROM input
    WHERE referral_code_id IS NOT NULL AND NOT is_bot
    ORDER BY referral_code_id, visitor_key, hour_bucket, ord
    ON CONFLICT DO NOTHING
    RETURNING click_id
  )
  INSERT INTO clicks (
    id, tracking_id, type, code, referral_code_id, session_id, visitor_key, ip_hash, user_agent, language,
    timezone, screen_resolution, platform, color_depth, device_memory, hardware_concurrency, client_timestamp,
    referrer, path, query, is_bot, counted, created_at
  ) OVERRIDING SYSTEM VALUE
  SELECT
    i.id, i.tracking_id, i.type, i.code, i.referral_code_id, i.session_id, i.visitor_key, i.ip_hash, i.user_agent,
    i.language, i.timezone, i.screen_resolution, i.platform, i.color_depth, i.device_memory, i.hardware_concurrency,
    i.client_timestamp, i.referrer, i.path, i.query::jsonb, i.is_bot, w.click_id IS NOT NULL, i.created_at
  FROM input i LEFT JOIN won w ON w.click_id = i.id
  ORDER BY i.ord
  RETURNING clicks.tracking_id, clicks.counted;
END
$$;
