-- A click burst from one device (docs/product/review.md#signals) is counted from the visitor key's own
-- index, as a burst from one IP hash is from clicks_ip_hash_idx (migrations/0003_programme.sql): the
-- check runs once per counted visit, and starting from every recent visit of the affiliate's codes made
-- each visit cost as much as the window held (domain/review-signals.ts `checkClickBurst`).
CREATE INDEX clicks_visitor_key_idx ON clicks (visitor_key, created_at) WHERE counted;
