-- Who changed what, when, before and after (issue 6 item 7). Written in the transaction of the
-- change, so an entry exists exactly when the change does. Never updated or deleted by the app.
CREATE TABLE audit_log (
  id               bigserial PRIMARY KEY,
  at               timestamptz NOT NULL DEFAULT now(),
  -- NULL: a platform-level change (a platform user's own profile).
  organization_id  text REFERENCES organizations(id) ON DELETE CASCADE,
  actor_id         text REFERENCES users(id) ON DELETE SET NULL,
  kind             text NOT NULL,
  target_id        text,
  before           jsonb,
  after            jsonb
);
CREATE INDEX audit_log_organization_at_idx ON audit_log (organization_id, at DESC);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, at DESC);
