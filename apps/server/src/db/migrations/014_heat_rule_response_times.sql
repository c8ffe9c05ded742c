-- Heat rule (Japan 2025) and response-time figures (issue 8 items 4 and 6).
-- Japan's 2025 heat rule (docs/alert-engine.md, "Heat rule"): per site (group) the written
-- procedure (stop work, cool the body, get medical care, emergency contacts) and the nearest
-- hospital, shown with every heat alert (confirm dialog, SMS). The named contacts are the group's
-- alert notice settings. One row per group that has written one.
CREATE TABLE group_heat_procedures (
  group_id           text PRIMARY KEY REFERENCES groups(id) ON DELETE CASCADE,
  organization_id    text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  stop_work          text NOT NULL CHECK (char_length(stop_work) <= 1000),
  cool_body          text NOT NULL CHECK (char_length(cool_body) <= 1000),
  medical_care       text NOT NULL CHECK (char_length(medical_care) <= 1000),
  emergency_contacts text NOT NULL CHECK (char_length(emergency_contacts) <= 1000),
  hospital_name      text NOT NULL CHECK (char_length(hospital_name) <= 200),
  hospital_address   text NOT NULL CHECK (char_length(hospital_address) <= 300),
  hospital_phone     text NOT NULL CHECK (char_length(hospital_phone) <= 20),
  updated_at         timestamptz NOT NULL,
  updated_by         text REFERENCES users(id) ON DELETE SET NULL
);

-- The procedure steps the confirming staff member says were taken for a heat alert
-- (STOP_WORK, COOL_BODY, MEDICAL_CARE, EMERGENCY_CONTACT); NULL when none were given.
ALTER TABLE alerts ADD COLUMN procedure_steps text[];


-- Response-time figures (GET /v2/alert/responseTimes) read a year of an organisation's alerts and their notice
-- attempts: both from index-only scans, without visiting the tables' rows.
CREATE INDEX alerts_response_times_idx ON alerts (organization_id, opened_at)
  INCLUDE (type, group_id, wearer_id, confirmed_at);
CREATE INDEX notifications_response_times_idx ON notifications (organization_id, created_at)
  INCLUDE (alert_id, sent_at, delivered_at);
