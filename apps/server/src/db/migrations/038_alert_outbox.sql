-- The alert outbox (issue 34 item 7, docs/decisions/0015-alert-outbox.md): what must follow an
-- alert's opening (its notices and escalation, its live "opened" frame) is written in the SAME
-- transaction as the alert, one row per (alert, kind), and delivered by whichever server is alive:
-- claimed with FOR UPDATE SKIP LOCKED and a lease, deleted once delivered. A kill -9 right after
-- the commit leaves the rows for the next claim (this server restarted, or another one).
CREATE TABLE alert_outbox (
  alert_id         text NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
  -- 'live' (the opened frame to every console), 'notice' (notices and escalation); others may follow.
  kind             text NOT NULL,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  created_at       timestamptz NOT NULL DEFAULT now(),
  -- '-infinity' when written: due at once whatever the clocks say; a claim moves it past its lease.
  next_attempt_at  timestamptz NOT NULL DEFAULT '-infinity',
  attempts         integer NOT NULL DEFAULT 0,
  last_error       text,
  PRIMARY KEY (alert_id, kind)
);
CREATE INDEX alert_outbox_due_idx ON alert_outbox (kind, next_attempt_at);
