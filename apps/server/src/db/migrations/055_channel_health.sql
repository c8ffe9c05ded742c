-- Channel health (issue 38 item 4, docs/decisions/0023-channel-health.md). A channel's health is read
-- from the logs it already writes (notifications for SMS, calls, mail and any later channel;
-- webhook_attempts for each webhook endpoint); what is stored here is only each failing run the
-- leader's sweep told the owners of: one open run per organisation and channel, closed by the
-- channel's next delivered attempt, so a run is told once and a new run after a recovery again.
CREATE TABLE channel_failures (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  -- A logged channel (SMS, PHONE_CALL, EMAIL, ...) or WEBHOOK; no CHECK, so a channel added later
  -- needs no migration here.
  channel          text NOT NULL,
  webhook_id       text REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  -- The channel, or 'WEBHOOK:<endpoint id>': one open run per key.
  channel_key      text NOT NULL,
  -- The run's first failed attempt, and the last one's reason when it opened.
  failing_since    timestamptz NOT NULL,
  reason           text,
  opened_at        timestamptz NOT NULL,
  -- When its notice went to the owners (claimed once, by one server).
  noticed_at       timestamptz,
  closed_at        timestamptz,
  CHECK ((channel = 'WEBHOOK') = (webhook_id IS NOT NULL))
);
CREATE UNIQUE INDEX channel_failures_one_open_idx ON channel_failures (organization_id, channel_key)
  WHERE closed_at IS NULL;

-- The health read: per organisation and channel, the newest delivered attempt, the newest failure and
-- the run's first failure are each one probe of these (the read does not grow with the log).
CREATE INDEX notifications_channel_health_idx ON notifications (organization_id, channel, created_at DESC)
  WHERE organization_id IS NOT NULL;
CREATE INDEX notifications_channel_failed_idx ON notifications (organization_id, channel, created_at)
  WHERE status = 'failed';
-- The sweep: which organisations had a failed attempt lately.
CREATE INDEX notifications_failed_idx ON notifications (created_at) WHERE status = 'failed';
CREATE INDEX webhook_attempts_failed_idx ON webhook_attempts (at)
  WHERE status_code IS NULL OR status_code NOT BETWEEN 200 AND 299;
