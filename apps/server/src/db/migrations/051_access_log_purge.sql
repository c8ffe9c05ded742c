-- Issue 39 item 3: the access log's retention (docs/access-log.md, Retention). A purge deletes the
-- oldest entries of a chain (a prefix, in seq order) and keeps where the chain now starts: the first
-- kept entry's seq and the hash of the last entry deleted, which that entry's prev_hash must equal.
ALTER TABLE access_log_heads
  ADD COLUMN first_seq bigint NOT NULL DEFAULT 1,
  ADD COLUMN first_prev_hash text NOT NULL DEFAULT repeat('0', 64);
