-- Delivery of every notification attempt (issue 8 items 2 and 4): when it left (sent_at), reached the
-- phone (delivered_at: an SMS delivered, a call answered and completed) or failed (failed_at). One row of
-- `notifications` is one attempt (alert_id, channel, recipient, status; created_at = queued). The
-- embedded provider delivers at once; Twilio reports later through its status callback, each report
-- kept in notification_events for the alert's timeline.
ALTER TABLE notifications
  ADD COLUMN sent_at timestamptz,
  ADD COLUMN delivered_at timestamptz,
  ADD COLUMN failed_at timestamptz,
  -- The provider's own word for the last state (Twilio: queued, sent, delivered, undelivered,
  -- ringing, in-progress, completed, busy, no-answer, failed, canceled).
  ADD COLUMN provider_status text;

UPDATE notifications SET sent_at = updated_at WHERE status IN ('sent', 'delivered');
UPDATE notifications SET delivered_at = updated_at WHERE status = 'delivered';
UPDATE notifications SET failed_at = updated_at WHERE status = 'failed';

-- Status callbacks find their attempt by the provider's id (Twilio's MessageSid / CallSid).
CREATE INDEX notifications_provider_id_idx ON notifications (provider_id) WHERE provider_id IS NOT NULL;

-- Every state a provider reported for an attempt, in order of arrival.
CREATE TABLE notification_events (
  id               bigserial PRIMARY KEY,
  notification_id  text NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
  status           text NOT NULL CHECK (status IN ('queued','sent','delivered','failed')),
  provider_status  text,
  error            text,
  at               timestamptz NOT NULL
);
CREATE INDEX notification_events_notification_idx ON notification_events (notification_id, at);
