-- Site heat notices (issue 14): a change of a site's heat level is notified to the group's
-- heat-rule contacts and logged in `notifications` like an alert notice. Such a row has no alert
-- (alert_id has been nullable since 005 for mails and sign-in codes) and names the site heat event.
ALTER TABLE notifications
  ADD COLUMN site_heat_event_id text REFERENCES site_heat_events(id) ON DELETE CASCADE;
CREATE INDEX notifications_site_heat_event_idx ON notifications (site_heat_event_id)
  WHERE site_heat_event_id IS NOT NULL;
