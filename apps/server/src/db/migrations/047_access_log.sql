-- Issue 39 item 3: who read whose health data (docs/access-log.md). One row per read request that
-- named people; rows are chained per organisation (each holds the previous row's hash, `hash` is
-- SHA-256 over its own fields and that hash) so `verify-access-log` finds a changed, deleted or
-- reordered row. Rows are never updated.
CREATE TABLE access_log (
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  -- The row's place in its organisation's chain: 1, 2, 3… without gaps.
  seq          bigint NOT NULL,
  at           timestamptz NOT NULL,
  -- A user (signed in: session_id set) or an API token (api_token_id set, actor_id its owner).
  actor_id     text,
  api_token_id text,
  session_id   text,
  person_ids   text[] NOT NULL,
  what         text NOT NULL,
  ip           text,
  prev_hash    text NOT NULL,
  hash         text NOT NULL,
  PRIMARY KEY (organization_id, seq)
);
CREATE INDEX access_log_org_at_idx ON access_log (organization_id, at);
CREATE INDEX access_log_people_idx ON access_log USING gin (person_ids);

-- The head of each organisation's chain: its row is locked while a row is appended, so servers
-- sharing one PostgreSQL append one at a time per organisation.
CREATE TABLE access_log_heads (
  organization_id text PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  seq  bigint NOT NULL,
  hash text NOT NULL
);
